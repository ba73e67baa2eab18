//! A serializable value written straight into [`Text`]: the bytes `serde_json::to_string` gives
//! for `serde_json::to_value(value)`, without building the `Value`.
//!
//! What a typed diff writes whole (an item added to a list) would otherwise be converted to a
//! `Value`, written, and dropped: an allocation per string, key and object, twice over. Here
//! each `serialize_*` call writes its piece, and objects are put in key order when they close,
//! as the diff's own objects are ([`Text::close_object`], which also keeps the last of a
//! repeated key, as a map insert does).
//!
//! Only what `to_value` does plainly is written here: strings, booleans, 64-bit integers, `f64`,
//! options, units, sequences, structs, enums, and maps with string keys. Anything else — `f32`
//! (which `to_value` widens before printing), 128-bit integers, byte strings, maps with other
//! keys, serde_json's own private types, nesting past [`MAX_DEPTH`] — and any error from the
//! value's `Serialize` stops the writing with [`Unsupported`]; the caller then takes the
//! `Value` path, whose answer (or error) is the reference.

use std::fmt;

use serde_core::ser::{self, Serialize};

use super::{Array, Object, Text};
use crate::deep::MAX_DEPTH;
use crate::json_text::write_string;

impl Text {
    /// Writes `value` where a value goes, as `serde_json::to_string` writes
    /// `serde_json::to_value(value)`; `false` when it is not one this writer takes (see the
    /// module documentation), and then nothing is written.
    pub(crate) fn serialized<T: Serialize + ?Sized>(&mut self, value: &T) -> bool {
        let mark = self.mark();
        if value.serialize(Writer { text: self }).is_ok() {
            return true;
        }
        self.reset(mark);
        false
    }

    /// Closes `object`, written as `{}` when it has no members (a value keeps empty objects,
    /// where the diff leaves them out).
    fn close_value_object(&mut self, object: Object) {
        let depth = object.depth;
        if !self.close_object(object) {
            self.buf.extend_from_slice(b"{}");
            self.keep_container(depth);
        }
    }

    /// Closes `array`, written as `[]` when it has no items.
    fn close_value_array(&mut self, array: Array) {
        let depth = array.depth;
        if !self.close_array(array) {
            self.buf.extend_from_slice(b"[]");
            self.keep_container(depth);
        }
    }

    /// Opens an object where a value goes, unless it would nest past the limit (see
    /// [`Text::room_for_container`]).
    fn open_value_object(&mut self) -> Result<Object, Unsupported> {
        self.room_for_container()?;
        Ok(self.open_object())
    }

    fn open_value_array(&mut self) -> Result<Array, Unsupported> {
        self.room_for_container()?;
        Ok(self.open_array())
    }

    /// A container opened here would nest past the limit, where the patch is refused anyway:
    /// the `Value` path says how.
    fn room_for_container(&self) -> Result<(), Unsupported> {
        if self.depth >= MAX_DEPTH {
            return Err(Unsupported);
        }
        Ok(())
    }
}

/// A value this writer does not reproduce, or the value's own `Serialize` error.
#[derive(Debug)]
pub(crate) struct Unsupported;

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not written as text directly")
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unsupported
    }
}

/// serde_json names its private types (raw values, arbitrary-precision numbers) so; `to_value`
/// treats them specially.
fn private(name: &str) -> bool {
    name.starts_with("$serde_json")
}

/// Serializer methods for what is not written here: each refuses with [`Unsupported`].
macro_rules! refuse {
    ($($method:ident($($arg:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $arg),*) -> Result<(), Unsupported> {
            Err(Unsupported)
        }
    )*};
}

/// Serializer methods for integers that fit 64 bits: written as `to_value` keeps them.
macro_rules! integers {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        fn $method(self, v: $ty) -> Result<(), Unsupported> {
            self.integer(v)
        }
    )*};
}

struct Writer<'t> {
    text: &'t mut Text,
}

impl Writer<'_> {
    fn integer(self, n: impl itoa::Integer) -> Result<(), Unsupported> {
        self.text
            .buf
            .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
        Ok(())
    }

    fn literal(self, word: &[u8]) -> Result<(), Unsupported> {
        self.text.buf.extend_from_slice(word);
        Ok(())
    }
}

/// An object being written: a struct's fields, a map's entries, or the one member of an enum
/// variant's `{variant: ...}`.
struct ObjectWriter<'t> {
    text: &'t mut Text,
    object: Object,
    /// The map key whose value comes next.
    key: String,
    /// The variant object (`{variant: {...}}`) this object is the value of.
    variant: Option<Variant>,
    /// A member failed: the value's `Serialize` may go on after an error, but the text is
    /// not the value's.
    failed: bool,
}

/// The `{variant: ...}` object around an enum variant's fields or items, closed after them.
struct Variant {
    outer: Object,
    at: super::MemberAt,
    name: &'static str,
}

impl Text {
    /// Opens `{name: ...}` for a variant's value.
    fn open_variant(&mut self, name: &'static str) -> Result<Variant, Unsupported> {
        let outer = self.open_value_object()?;
        let at = self.begin_member(name);
        Ok(Variant { outer, at, name })
    }

    fn close_variant(&mut self, variant: Option<Variant>) {
        if let Some(Variant { outer, at, name }) = variant {
            self.end_member(at, name);
            self.close_value_object(outer);
        }
    }
}

/// Writes a member's or an item's value, noting in `failed` when it fails.
fn write_part<T: Serialize + ?Sized>(
    text: &mut Text,
    value: &T,
    failed: &mut bool,
) -> Result<(), Unsupported> {
    let written = value.serialize(Writer { text });
    *failed = written.is_err();
    written
}

/// An array being written, possibly the value of a variant's `{variant: [...]}`.
struct ArrayWriter<'t> {
    text: &'t mut Text,
    array: Array,
    variant: Option<Variant>,
    /// An item failed (see [`ObjectWriter`]).
    failed: bool,
}

impl<'t> ser::Serializer for Writer<'t> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ArrayWriter<'t>;
    type SerializeTuple = ArrayWriter<'t>;
    type SerializeTupleStruct = ArrayWriter<'t>;
    type SerializeTupleVariant = ArrayWriter<'t>;
    type SerializeMap = ObjectWriter<'t>;
    type SerializeStruct = ObjectWriter<'t>;
    type SerializeStructVariant = ObjectWriter<'t>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.literal(if v { b"true" } else { b"false" })
    }
    integers!(
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
    );
    refuse!(
        serialize_i128(i128),
        serialize_u128(u128),
        serialize_f32(f32)
    );
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        // `to_value` keeps a finite float and makes any other `null`; serde_json writes both
        // so from the `f64` itself.
        serde_json::to_writer(&mut self.text.buf, &v).map_err(|_| Unsupported)
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        write_string(&mut self.text.buf, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        write_string(&mut self.text.buf, v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.literal(b"null")
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.literal(b"null")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unsupported> {
        self.literal(b"null")
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        if private(name) {
            return Err(Unsupported);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        let variant = self.text.open_variant(variant)?;
        value.serialize(Writer {
            text: &mut *self.text,
        })?;
        self.text.close_variant(Some(variant));
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<ArrayWriter<'t>, Unsupported> {
        ArrayWriter::open(self.text, None)
    }
    fn serialize_tuple(self, len: usize) -> Result<ArrayWriter<'t>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<ArrayWriter<'t>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<ArrayWriter<'t>, Unsupported> {
        let variant = self.text.open_variant(variant)?;
        ArrayWriter::open(self.text, Some(variant))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<ObjectWriter<'t>, Unsupported> {
        ObjectWriter::open(self.text, None)
    }
    fn serialize_struct(
        self,
        name: &'static str,
        _: usize,
    ) -> Result<ObjectWriter<'t>, Unsupported> {
        if private(name) {
            return Err(Unsupported);
        }
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<ObjectWriter<'t>, Unsupported> {
        let variant = self.text.open_variant(variant)?;
        ObjectWriter::open(self.text, Some(variant))
    }
}

impl<'t> ObjectWriter<'t> {
    fn open(text: &'t mut Text, variant: Option<Variant>) -> Result<ObjectWriter<'t>, Unsupported> {
        let object = text.open_value_object()?;
        Ok(ObjectWriter {
            text,
            object,
            key: String::new(),
            variant,
            failed: false,
        })
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Unsupported> {
        if self.failed {
            return Err(Unsupported);
        }
        let at = self.text.begin_member(key);
        write_part(self.text, value, &mut self.failed)?;
        self.text.end_member(at, key);
        Ok(())
    }

    fn end(self) -> Result<(), Unsupported> {
        if self.failed {
            return Err(Unsupported);
        }
        self.text.close_value_object(self.object);
        self.text.close_variant(self.variant);
        Ok(())
    }
}

impl ser::SerializeMap for ObjectWriter<'_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.key.clear();
        let read = key.serialize(KeyWriter { key: &mut self.key });
        self.failed |= read.is_err();
        read
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        let key = std::mem::take(&mut self.key);
        let written = self.field(&key, value);
        self.key = key;
        written
    }
    fn end(self) -> Result<(), Unsupported> {
        ObjectWriter::end(self)
    }
}

macro_rules! struct_writer {
    ($($trait:ident),*) => {$(
        impl ser::$trait for ObjectWriter<'_> {
            type Ok = ();
            type Error = Unsupported;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Unsupported> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), Unsupported> {
                ObjectWriter::end(self)
            }
        }
    )*};
}

struct_writer!(SerializeStruct, SerializeStructVariant);

impl<'t> ArrayWriter<'t> {
    fn open(text: &'t mut Text, variant: Option<Variant>) -> Result<ArrayWriter<'t>, Unsupported> {
        let array = text.open_value_array()?;
        Ok(ArrayWriter {
            text,
            array,
            variant,
            failed: false,
        })
    }

    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        if self.failed {
            return Err(Unsupported);
        }
        self.text.begin_item(&self.array);
        write_part(self.text, value, &mut self.failed)?;
        self.array.item_written();
        Ok(())
    }

    fn end(self) -> Result<(), Unsupported> {
        if self.failed {
            return Err(Unsupported);
        }
        self.text.close_value_array(self.array);
        self.text.close_variant(self.variant);
        Ok(())
    }
}

macro_rules! array_writer {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for ArrayWriter<'_> {
            type Ok = ();
            type Error = Unsupported;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
                self.item(value)
            }
            fn end(self) -> Result<(), Unsupported> {
                ArrayWriter::end(self)
            }
        }
    )*};
}

array_writer!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// A map key: only strings (and newtypes of strings) are taken; `to_value`'s conversions of
/// other keys (numbers, booleans, chars) go by the `Value` path.
struct KeyWriter<'k> {
    key: &'k mut String,
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.key.push_str(v);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        if private(name) {
            return Err(Unsupported);
        }
        value.serialize(self)
    }
    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    refuse!(
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Unsupported> {
        Err(Unsupported)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Unsupported> {
        Err(Unsupported)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde::Serialize;
    use serde::ser::{SerializeMap, SerializeStruct, Serializer};
    use serde_json::json;

    use super::*;

    /// What [`Text::serialized`] writes for `value` as an array item; `None` when it declines.
    fn direct<T: Serialize + ?Sized>(value: &T) -> Option<String> {
        let mut text = Text::new();
        let root = text.open_object();
        let at = text.begin_member("v");
        let written = text.serialized(value);
        if written {
            text.end_member(at, "v");
        } else {
            text.cancel_member(at);
        }
        let out = text.finish(root).ok()?;
        written.then(|| {
            let inner = out
                .strip_prefix(r#"{"v":"#)
                .and_then(|s| s.strip_suffix('}'));
            inner.unwrap_or_default().to_owned()
        })
    }

    fn reference<T: Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(&serde_json::to_value(value).unwrap()).unwrap()
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(u8),
        Tuple(i32, String),
        Struct { zeta: bool, alpha: Option<f64> },
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Wrapper(String);

    #[derive(Serialize)]
    struct Item {
        name: String,
        image: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        ports: Vec<Port>,
        limits: BTreeMap<String, String>,
        labels: HashMap<Wrapper2, i64>,
        empty: Vec<u8>,
        nothing: BTreeMap<String, u8>,
        shapes: Vec<Shape>,
        unit: (),
        unit_struct: Unit,
        wrapper: Wrapper,
        tuple: (u16, char, &'static str),
        floats: [f64; 4],
        escaped: &'static str,
        #[serde(flatten)]
        extra: BTreeMap<String, u32>,
    }

    #[derive(Serialize, PartialEq, Eq, Hash)]
    struct Wrapper2(String);

    #[derive(Serialize)]
    struct Port {
        #[serde(rename = "containerPort")]
        container_port: u32,
        protocol: &'static str,
    }

    fn item() -> Item {
        Item {
            name: "c51".into(),
            image: None,
            skipped: None,
            ports: vec![
                Port {
                    container_port: 8080,
                    protocol: "TCP",
                },
                Port {
                    container_port: 9090,
                    protocol: "UDP",
                },
            ],
            limits: [("memory".into(), "1Gi".into()), ("cpu".into(), "1".into())].into(),
            labels: [(Wrapper2("b".into()), -1), (Wrapper2("a".into()), i64::MIN)].into(),
            empty: vec![],
            nothing: BTreeMap::new(),
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(7),
                Shape::Tuple(-3, "t".into()),
                Shape::Struct {
                    zeta: true,
                    alpha: Some(0.1),
                },
                Shape::Struct {
                    zeta: false,
                    alpha: None,
                },
            ],
            unit: (),
            unit_struct: Unit,
            wrapper: Wrapper("w".into()),
            tuple: (u16::MAX, 'é', "x"),
            floats: [1.0, -0.0, f64::NAN, 1e300],
            escaped: "a\"b\\c\u{1}\n",
            extra: [("aaa".into(), 1), ("name2".into(), 2)].into(),
        }
    }

    #[test]
    fn values_are_written_as_serde_json_writes_their_value() {
        let item = item();
        assert_eq!(direct(&item).as_deref(), Some(reference(&item).as_str()));
        for value in [
            json!(null),
            json!({}),
            json!([]),
            json!({"b": [{}, []], "a": {"y": 1, "x": "2"}}),
            json!(u64::MAX),
            json!(-1.5),
        ] {
            assert_eq!(direct(&value), Some(reference(&value)), "{value}");
        }
        assert_eq!(direct(&Some(Some(3u8))), Some("3".into()));
    }

    #[test]
    fn what_to_value_converts_is_left_to_it() {
        assert_eq!(direct(&1.5f32), None);
        assert_eq!(direct(&1u128), None);
        assert_eq!(direct(&-1i128), None);
        assert_eq!(direct(&serde_bytes_like()), None);
        let int_keys: BTreeMap<u8, u8> = [(1, 2)].into();
        assert_eq!(direct(&int_keys), None);
        assert_eq!(direct(&vec![json!(1), json!(2.5)]), Some("[1,2.5]".into()));
        // Nested past the limit: the `Value` path gives the error.
        let mut deep = json!(1);
        for _ in 0..MAX_DEPTH + 1 {
            deep = json!([deep]);
        }
        assert_eq!(direct(&deep), None);
    }

    fn serde_bytes_like() -> impl Serialize {
        struct Bytes;
        impl Serialize for Bytes {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(b"ab")
            }
        }
        Bytes
    }

    /// A `Serialize` that repeats a key: the last one wins, as in a map.
    struct Repeats;

    impl Serialize for Repeats {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(None)?;
            map.serialize_entry("b", &1)?;
            map.serialize_entry("a", &2)?;
            map.serialize_entry("b", &3)?;
            map.end()
        }
    }

    /// A `Serialize` that goes on after a member fails.
    struct Careless;

    impl Serialize for Careless {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Careless", 2)?;
            let _ = st.serialize_field("f", &1.0f32);
            st.serialize_field("g", &1)?;
            st.end()
        }
    }

    #[test]
    fn repeated_keys_and_errors_are_handled_as_to_value_has_them() {
        assert_eq!(direct(&Repeats), Some(reference(&Repeats)));
        assert_eq!(direct(&Careless), None);
        // Nothing is left of what was begun.
        let mut text = Text::new();
        let root = text.open_object();
        text.member("a", &json!(1));
        let mark = text.mark();
        let at = text.begin_member("b");
        assert!(!text.serialized(&Careless));
        text.cancel_member(at);
        text.reset(mark);
        assert_eq!(text.finish(root).unwrap(), r#"{"a":1}"#);
    }
}
