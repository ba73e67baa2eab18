//! The protobuf wire format, read without trusting it: every length is checked against the
//! bytes that remain before anything is sliced, and every error carries the offset in the
//! request body where the reading stopped.

use super::DecodeError;

/// Part of the body: its bytes and where they start in the body (for errors).
#[derive(Debug, Clone, Copy)]
pub(super) struct Slice<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) offset: usize,
}

/// One field as the wire gives it: its number and its value, not yet read as any type.
#[derive(Debug, Clone, Copy)]
pub(super) struct WireField<'a> {
    pub(super) number: u32,
    pub(super) value: WireValue<'a>,
    /// Where the field's key starts in the body.
    pub(super) offset: usize,
}

/// A field's value by wire type (groups, which Kubernetes never writes, are refused).
#[derive(Debug, Clone, Copy)]
pub(super) enum WireValue<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1.
    Fixed64(u64),
    /// Wire type 2: strings, bytes, messages, map entries and packed lists.
    Bytes(Slice<'a>),
    /// Wire type 5 (no API field has it; its value is only skipped).
    Fixed32,
}

impl WireValue<'_> {
    /// The wire type's name, for errors.
    pub(super) fn describe(&self) -> &'static str {
        match self {
            WireValue::Varint(_) => "a varint (wire type 0)",
            WireValue::Fixed64(_) => "a 64-bit value (wire type 1)",
            WireValue::Bytes(_) => "a length-delimited value (wire type 2)",
            WireValue::Fixed32 => "a 32-bit value (wire type 5)",
        }
    }
}

/// A cursor over a message's bytes.
pub(super) struct Reader<'a> {
    slice: Slice<'a>,
    at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(slice: Slice<'a>) -> Reader<'a> {
        Reader { slice, at: 0 }
    }

    /// The offset in the body of the next byte.
    fn offset(&self) -> usize {
        self.slice.offset + self.at
    }

    fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError::at(self.offset(), message)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.at >= self.slice.bytes.len()
    }

    /// A varint of at most ten bytes, the tenth holding only the top bit.
    pub(super) fn varint(&mut self) -> Result<u64, DecodeError> {
        let start = self.offset();
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&byte) = self.slice.bytes.get(self.at) else {
                return Err(DecodeError::at(start, "the body ends inside a varint"));
            };
            self.at += 1;
            if i == 9 && byte > 1 {
                return Err(DecodeError::at(start, "a varint longer than 64 bits"));
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(DecodeError::at(start, "a varint longer than 64 bits"))
    }

    /// The next `len` bytes; `what` claims them, for the error when fewer remain.
    fn take(&mut self, len: usize, what: &str) -> Result<Slice<'a>, DecodeError> {
        let rest = self.slice.bytes.len() - self.at;
        if len > rest {
            return Err(self.error(format!("{what} claims {len} bytes, but only {rest} remain")));
        }
        let slice = Slice {
            bytes: &self.slice.bytes[self.at..self.at + len],
            offset: self.offset(),
        };
        self.at += len;
        Ok(slice)
    }

    fn fixed<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let slice = self.take(N, "a fixed-width value")?;
        let mut bytes = [0u8; N];
        bytes.copy_from_slice(slice.bytes);
        Ok(bytes)
    }

    /// The next field (key and value).
    pub(super) fn field(&mut self) -> Result<WireField<'a>, DecodeError> {
        let offset = self.offset();
        let key = self.varint()?;
        let number = key >> 3;
        if number == 0 || number > u64::from(u32::MAX >> 3) {
            return Err(DecodeError::at(
                offset,
                format!("field number {number} is not valid"),
            ));
        }
        let value = match key & 7 {
            0 => WireValue::Varint(self.varint()?),
            1 => WireValue::Fixed64(u64::from_le_bytes(self.fixed::<8>()?)),
            2 => {
                let len = self.varint()?;
                let len = usize::try_from(len).unwrap_or(usize::MAX);
                WireValue::Bytes(self.take(len, &format!("field {number}"))?)
            }
            5 => {
                self.take(4, "a fixed-width value")?;
                WireValue::Fixed32
            }
            3 | 4 => {
                return Err(DecodeError::at(
                    offset,
                    format!("field {number} is a group, which Kubernetes does not use"),
                ));
            }
            other => {
                return Err(DecodeError::at(
                    offset,
                    format!("field {number} has wire type {other}, which does not exist"),
                ));
            }
        };
        Ok(WireField {
            number: number as u32,
            value,
            offset,
        })
    }

    /// The next eight bytes of a packed list of doubles.
    pub(super) fn fixed64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.fixed::<8>()?))
    }
}

/// Calls `visit` with each field of a message given in `parts` (a message written in several
/// pieces is, as protobuf defines it, the message their concatenation gives).
pub(super) fn each_field<'a>(
    parts: &[Slice<'a>],
    mut visit: impl FnMut(WireField<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    for &part in parts {
        let mut reader = Reader::new(part);
        while !reader.is_empty() {
            visit(reader.field()?)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &[u8]) -> Reader<'_> {
        Reader::new(Slice { bytes, offset: 0 })
    }

    #[test]
    fn varints() {
        assert_eq!(reader(&[0]).varint().unwrap(), 0);
        assert_eq!(reader(&[0xac, 0x02]).varint().unwrap(), 300);
        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(reader(&max).varint().unwrap(), u64::MAX);
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert!(reader(&over).varint().is_err());
        assert!(reader(&[0xff; 11]).varint().is_err());
        assert!(reader(&[0x80]).varint().is_err());
    }

    #[test]
    fn lengths_beyond_the_body_are_refused() {
        // Field 1, length-delimited, claiming 2^63 bytes.
        let mut r = reader(&[0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
        let e = r.field().unwrap_err();
        assert_eq!(
            e.message,
            "field 1 claims 9223372036854775807 bytes, but only 0 remain"
        );
        let mut r = reader(&[0x0a, 0x03, b'a']);
        assert_eq!(r.field().unwrap_err().offset, 2);
    }

    #[test]
    fn groups_and_unknown_wire_types_are_refused() {
        assert!(reader(&[0x0b]).field().is_err());
        assert!(reader(&[0x0c]).field().is_err());
        assert!(reader(&[0x0e]).field().is_err());
        assert!(reader(&[0x00]).field().is_err());
    }
}
