//! A message, read by its type, to the JSON Go's encoder gives for the object the API server
//! would have decoded from it.
//!
//! Go's generated code writes every field that is not a pointer, empty or not, and each
//! pointer that is set; Go's JSON encoder then leaves out the empty values of `omitempty`
//! fields. So, field by field:
//!
//! - a scalar that is not a pointer holds what was written, or its zero when nothing was; the
//!   JSON leaves it out when it is empty and `omitempty`;
//! - a pointer (scalar or message) is in the JSON when written, whatever its value (a written
//!   zero is meaningful), and otherwise left out (or `null`, without `omitempty`);
//! - lists and maps are there when written with elements, and otherwise left out (or `null`);
//! - a struct that is not a pointer is always in the JSON, as decoded from what was written
//!   or from nothing (`status: {}`, `creationTimestamp: null`), since Go's `omitempty` never
//!   leaves out a struct; `omitzero` (a zero time) does.
//!
//! A message written in several pieces is merged, as protobuf and Go's generated code merge
//! it, except the types whose Go decoding starts over with each piece (times and quantities).
//! Fields of numbers the table does not know are skipped, as Go's generated code skips them,
//! but their wire format is still checked.

use serde_json::{Map, Value};

use super::DecodeError;
use super::table::{Field, FieldType, Layout, Scalar, Shape, Special, Table, TypeId};
use super::text;
use super::wire::{Reader, Slice, WireField, WireValue, each_field};

/// How deeply messages may nest: no JSON object the server takes nests deeper than this, and
/// the decoder's recursion stays far within any thread's stack.
pub(super) const MAX_NESTING: usize = 128;

/// Seconds from the Unix epoch to Go's zero time (0001-01-01T00:00:00Z), which Kubernetes
/// writes as `null`.
const ZERO_TIME: i64 = -62_135_596_800;

pub(super) struct Decoder<'t> {
    pub(super) table: &'t Table,
}

/// What has been read of one field of a struct.
enum Read<'a> {
    Nothing,
    Value(Value),
    List(Vec<Value>),
    Map(Map<String, Value>),
    /// A singular message, in the pieces written (merged when decoded).
    Parts(Vec<Slice<'a>>),
}

impl Decoder<'_> {
    /// The JSON of a message of type `ty` written as `parts`, nested `depth` messages deep.
    pub(super) fn message(
        &self,
        ty: TypeId,
        parts: &[Slice<'_>],
        depth: usize,
    ) -> Result<Value, DecodeError> {
        if depth > MAX_NESTING {
            let offset = parts.first().map_or(0, |p| p.offset);
            return Err(DecodeError::at(
                offset,
                format!("messages nest deeper than {MAX_NESTING} levels"),
            ));
        }
        let ty = &self.table.types[ty];
        match &ty.layout {
            Layout::Struct(fields) => self.structure(fields, parts, depth),
            Layout::Wrapper(element) => {
                let mut items = Vec::new();
                each_field(parts, |f| {
                    if f.number == 1 {
                        self.element(*element, f, depth, &mut items)?;
                    }
                    Ok(())
                })?;
                Ok(if items.is_empty() {
                    Value::Null
                } else {
                    Value::Array(items)
                })
            }
            Layout::Special(Special::Unused) => Err(DecodeError::at(
                parts.first().map_or(0, |p| p.offset),
                format!("{} is no type an object holds", ty.name),
            )),
            Layout::Special(special) => self.special(*special, parts, depth),
        }
    }

    fn structure(
        &self,
        fields: &[Field],
        parts: &[Slice<'_>],
        depth: usize,
    ) -> Result<Value, DecodeError> {
        let mut read: Vec<Read<'_>> = fields.iter().map(|_| Read::Nothing).collect();
        each_field(parts, |f| {
            let Ok(index) = fields.binary_search_by_key(&f.number, |field| field.number) else {
                return Ok(());
            };
            let field = &fields[index];
            self.read_field(field, f, &mut read[index], depth)
                .map_err(|e| e.field(field))
        })?;
        let mut object = Map::new();
        let mut promoted = Vec::new();
        for (field, read) in fields.iter().zip(read) {
            let Some(value) = self.field_value(field, read, depth)? else {
                continue;
            };
            if field.inline {
                promoted.push(value);
            } else {
                object.insert(field.json.clone(), value);
            }
        }
        // An embedded struct's fields are the parent's, unless the parent has its own of that
        // name (Go's rule: the shallower field wins).
        for value in promoted {
            if let Value::Object(inner) = value {
                for (key, value) in inner {
                    object.entry(key).or_insert(value);
                }
            }
        }
        Ok(Value::Object(object))
    }

    /// Reads one occurrence of `field` into what was read of it before.
    fn read_field<'a>(
        &self,
        field: &Field,
        f: WireField<'a>,
        slot: &mut Read<'a>,
        depth: usize,
    ) -> Result<(), DecodeError> {
        match (field.shape, field.ty) {
            (Shape::Single, FieldType::Scalar(scalar)) => {
                *slot = Read::Value(scalar_value(scalar, f)?);
            }
            (Shape::Single, FieldType::Message(_)) => {
                let bytes = length_delimited(f)?;
                match slot {
                    Read::Parts(parts) => parts.push(bytes),
                    _ => *slot = Read::Parts(vec![bytes]),
                }
            }
            (Shape::Repeated, ty) => {
                if !matches!(slot, Read::List(_)) {
                    *slot = Read::List(Vec::new());
                }
                if let Read::List(items) = slot {
                    self.element(ty, f, depth, items)?;
                    if items.is_empty() {
                        // A packed list of no elements leaves the Go slice nil.
                        *slot = Read::Nothing;
                    }
                }
            }
            (Shape::Map, ty) => {
                let (key, value) = self.map_entry(ty, length_delimited(f)?, depth)?;
                if !matches!(slot, Read::Map(_)) {
                    *slot = Read::Map(Map::new());
                }
                if let Read::Map(map) = slot {
                    map.insert(key, value);
                }
            }
        }
        Ok(())
    }

    /// One occurrence of a repeated field: an element, or several packed in one.
    fn element(
        &self,
        ty: FieldType,
        f: WireField<'_>,
        depth: usize,
        items: &mut Vec<Value>,
    ) -> Result<(), DecodeError> {
        match (ty, f.value) {
            (FieldType::Message(ty), _) => {
                let bytes = length_delimited(f)?;
                let value = self
                    .message(ty, &[bytes], depth + 1)
                    .map_err(|e| e.index(items.len()))?;
                items.push(value);
            }
            (FieldType::Scalar(scalar), WireValue::Bytes(packed))
                if !matches!(scalar, Scalar::String | Scalar::Bytes) =>
            {
                let mut reader = Reader::new(packed);
                while !reader.is_empty() {
                    let value = match scalar {
                        Scalar::Double => WireValue::Fixed64(reader.fixed64()?),
                        _ => WireValue::Varint(reader.varint()?),
                    };
                    items.push(scalar_value(scalar, WireField { value, ..f })?);
                }
            }
            (FieldType::Scalar(scalar), _) => items.push(scalar_value(scalar, f)?),
        }
        Ok(())
    }

    /// A map entry: its key (field 1) and value (field 2), each its zero when not written, the
    /// last written when written twice.
    fn map_entry(
        &self,
        ty: FieldType,
        entry: Slice<'_>,
        depth: usize,
    ) -> Result<(String, Value), DecodeError> {
        let mut key = String::new();
        let mut value = None;
        each_field(&[entry], |f| {
            match f.number {
                1 => key = string(length_delimited(f)?),
                2 => {
                    value = Some(match ty {
                        FieldType::Scalar(scalar) => scalar_value(scalar, f)?,
                        FieldType::Message(ty) => {
                            self.message(ty, &[length_delimited(f)?], depth + 1)?
                        }
                    })
                }
                _ => {}
            }
            Ok(())
        })
        .map_err(|e| e.key(&key))?;
        let value = match (value, ty) {
            (Some(value), _) => value,
            // Go's generated code starts a map's value as an empty (not nil) byte slice.
            (None, FieldType::Scalar(Scalar::Bytes)) => Value::String(String::new()),
            (None, FieldType::Scalar(scalar)) => zero(scalar),
            (None, FieldType::Message(ty)) => {
                self.message(ty, &[], depth + 1).map_err(|e| e.key(&key))?
            }
        };
        Ok((key, value))
    }

    /// The field's JSON value, or `None` when the JSON leaves it out.
    fn field_value(
        &self,
        field: &Field,
        read: Read<'_>,
        depth: usize,
    ) -> Result<Option<Value>, DecodeError> {
        let absent = || (!field.omit_empty).then_some(Value::Null);
        let value = match read {
            Read::Nothing if field.pointer || field.shape != Shape::Single => return Ok(absent()),
            Read::Nothing => match field.ty {
                FieldType::Scalar(scalar) => zero(scalar),
                FieldType::Message(ty) => self
                    .message(ty, &[], depth + 1)
                    .map_err(|e| e.field(field))?,
            },
            Read::Value(value) => value,
            Read::List(items) => Value::Array(items),
            Read::Map(map) => Value::Object(map),
            Read::Parts(parts) => match field.ty {
                FieldType::Message(ty) => self
                    .message(ty, &parts, depth + 1)
                    .map_err(|e| e.field(field))?,
                FieldType::Scalar(_) => Value::Null,
            },
        };
        let wrapper = matches!(field.ty, FieldType::Message(ty)
            if matches!(self.table.types[ty].layout, Layout::Wrapper(_)));
        let struct_like = matches!(field.ty, FieldType::Message(_)) && !wrapper;
        if field.omit_zero && (value.is_null() || is_empty(&value)) {
            return Ok(None);
        }
        if field.omit_empty && !field.pointer && !struct_like && is_empty(&value) {
            return Ok(None);
        }
        Ok(Some(value))
    }

    fn special(
        &self,
        special: Special,
        parts: &[Slice<'_>],
        depth: usize,
    ) -> Result<Value, DecodeError> {
        // Go's decoding of times and quantities starts over with each piece: the last counts.
        let last = parts.last().map(std::slice::from_ref).unwrap_or_default();
        match special {
            Special::Time | Special::MicroTime => {
                if last.iter().all(|p| p.bytes.is_empty()) {
                    return Ok(Value::Null);
                }
                let (mut seconds, mut nanos) = (0i64, 0i32);
                each_field(last, |f| {
                    match f.number {
                        1 => seconds = varint(f)? as i64,
                        2 => nanos = varint(f)? as i32,
                        _ => {}
                    }
                    Ok(())
                })?;
                let offset = last.first().map_or(0, |p| p.offset);
                time(special == Special::MicroTime, seconds, nanos)
                    .ok_or_else(|| DecodeError::at(offset, "a time whose year is not 0 to 9999"))
            }
            Special::Quantity => {
                let mut quantity = None;
                each_field(last, |f| {
                    if f.number == 1 {
                        quantity = Some(string(length_delimited(f)?));
                    }
                    Ok(())
                })?;
                match quantity {
                    None => Ok(Value::String("0".into())),
                    Some(q) if q.is_empty() => Err(DecodeError::at(
                        last.first().map_or(0, |p| p.offset),
                        "an empty quantity",
                    )),
                    Some(q) => Ok(Value::String(q)),
                }
            }
            Special::Duration => {
                let mut nanos = 0i64;
                each_field(parts, |f| {
                    if f.number == 1 {
                        nanos = varint(f)? as i64;
                    }
                    Ok(())
                })?;
                Ok(Value::String(text::go_duration(nanos)))
            }
            Special::IntOrString => {
                let (mut kind, mut int, mut string_value) = (0i64, 0i32, String::new());
                each_field(parts, |f| {
                    match f.number {
                        1 => kind = varint(f)? as i64,
                        2 => int = varint(f)? as i32,
                        3 => string_value = string(length_delimited(f)?),
                        _ => {}
                    }
                    Ok(())
                })?;
                match kind {
                    0 => Ok(Value::from(int)),
                    1 => Ok(Value::String(string_value)),
                    other => Err(DecodeError::at(
                        parts.first().map_or(0, |p| p.offset),
                        format!("type {other} is neither 0 (a number) nor 1 (a string)"),
                    )),
                }
            }
            Special::RawJson => {
                let mut raw: Option<Slice<'_>> = None;
                each_field(parts, |f| {
                    if f.number == 1 {
                        raw = Some(length_delimited(f)?);
                    }
                    Ok(())
                })?;
                match raw {
                    Some(raw) if !raw.bytes.is_empty() => serde_json::from_slice(raw.bytes)
                        .map_err(|e| DecodeError::at(raw.offset, format!("raw JSON: {e}"))),
                    _ => Ok(Value::Null),
                }
            }
            Special::SchemaOrBool | Special::SchemaOrArray | Special::SchemaOrStrings => {
                self.schema_or(special, parts, depth)
            }
            Special::Unused => Ok(Value::Null),
        }
    }

    /// The three forms a CRD schema takes in places: a schema, or a boolean, a list of
    /// schemas or a list of strings.
    fn schema_or(
        &self,
        special: Special,
        parts: &[Slice<'_>],
        depth: usize,
    ) -> Result<Value, DecodeError> {
        let offset = parts.first().map_or(0, |p| p.offset);
        let props = self
            .table
            .schema_props
            .ok_or_else(|| DecodeError::at(offset, "no JSONSchemaProps in the table"))?;
        let schema_field = if special == Special::SchemaOrBool {
            2
        } else {
            1
        };
        let mut schema = Vec::new();
        let mut allows = false;
        let mut items = Vec::new();
        each_field(parts, |f| {
            if f.number == schema_field {
                schema.push(length_delimited(f)?);
            } else if special == Special::SchemaOrBool && f.number == 1 {
                allows = varint(f)? != 0;
            } else if f.number == 2 {
                let element = if special == Special::SchemaOrArray {
                    FieldType::Message(props)
                } else {
                    FieldType::Scalar(Scalar::String)
                };
                self.element(element, f, depth, &mut items)?;
            }
            Ok(())
        })?;
        if special != Special::SchemaOrBool && !items.is_empty() {
            return Ok(Value::Array(items));
        }
        if !schema.is_empty() {
            return self.message(props, &schema, depth + 1);
        }
        Ok(if special == Special::SchemaOrBool {
            Value::Bool(allows)
        } else {
            Value::Null
        })
    }
}

/// A time as Kubernetes prints it: to the second (`Time`, whose protobuf decoding drops the
/// nanoseconds) or to the microsecond (`MicroTime`); `null` for Go's zero time.
fn time(micro: bool, seconds: i64, nanos: i32) -> Option<Value> {
    let (seconds, micros) = if micro {
        // Truncated toward zero to microseconds, then carried into the seconds.
        let nanos = i64::from(nanos - nanos % 1000);
        let seconds = seconds.checked_add(nanos.div_euclid(1_000_000_000))?;
        (seconds, (nanos.rem_euclid(1_000_000_000) / 1000) as u32)
    } else {
        (seconds, 0)
    };
    if seconds == ZERO_TIME && micros == 0 {
        return Some(Value::Null);
    }
    text::rfc3339(seconds, micro.then_some(micros)).map(Value::String)
}

fn length_delimited(f: WireField<'_>) -> Result<Slice<'_>, DecodeError> {
    match f.value {
        WireValue::Bytes(slice) => Ok(slice),
        other => Err(wrong_wire_type(f, "a length-delimited value", other)),
    }
}

fn varint(f: WireField<'_>) -> Result<u64, DecodeError> {
    match f.value {
        WireValue::Varint(v) => Ok(v),
        other => Err(wrong_wire_type(f, "a varint", other)),
    }
}

fn wrong_wire_type(f: WireField<'_>, expected: &str, found: WireValue<'_>) -> DecodeError {
    DecodeError::at(
        f.offset,
        format!(
            "field {} should be {expected}, not {}",
            f.number,
            found.describe()
        ),
    )
}

/// Text as Go's JSON encoding writes a Go string: bytes that are not UTF-8 become U+FFFD.
fn string(slice: Slice<'_>) -> String {
    String::from_utf8_lossy(slice.bytes).into_owned()
}

fn scalar_value(scalar: Scalar, f: WireField<'_>) -> Result<Value, DecodeError> {
    Ok(match scalar {
        Scalar::String => Value::String(string(length_delimited(f)?)),
        Scalar::Bytes => Value::String(text::base64(length_delimited(f)?.bytes)),
        Scalar::Bool => Value::Bool(varint(f)? != 0),
        // Go keeps the low 32 bits of the varint.
        Scalar::Int32 => Value::from(varint(f)? as i32),
        Scalar::Int64 => Value::from(varint(f)? as i64),
        Scalar::Double => {
            let WireValue::Fixed64(bits) = f.value else {
                return Err(wrong_wire_type(f, "a 64-bit value", f.value));
            };
            double(f64::from_bits(bits))
                .ok_or_else(|| DecodeError::at(f.offset, "a double that is not a JSON number"))?
        }
    })
}

/// A double as it reads back from Go's JSON: whole numbers print without a fraction (so
/// `serde_json` reads them as integers) until Go switches to exponents at 1e21.
fn double(value: f64) -> Option<Value> {
    if !value.is_finite() {
        return None;
    }
    if value.fract() == 0.0 && value.abs() < 1e21 {
        if value.abs() < 9.2e18 {
            return Some(Value::from(value as i64));
        }
        if value > 0.0 && value < 1.8e19 {
            return Some(Value::from(value as u64));
        }
    }
    serde_json::Number::from_f64(value).map(Value::Number)
}

/// The JSON of a scalar's zero value (a nil `[]byte` is `null`).
fn zero(scalar: Scalar) -> Value {
    match scalar {
        Scalar::String => Value::String(String::new()),
        Scalar::Bool => Value::Bool(false),
        Scalar::Int32 | Scalar::Int64 | Scalar::Double => Value::from(0),
        Scalar::Bytes => Value::Null,
    }
}

/// Whether Go's `omitempty` leaves the value out: false, 0, "", and empty lists and maps.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}
