//! Reading a set through serde, from any deserializer (a `serde_json::Value` already read with
//! its object, say). [`super::from_str`] reads text faster with its own reader.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::super::element::PathElement;
use super::super::set::{Builder, Set};

impl<'de> Deserialize<'de> for Set {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Set, D::Error> {
        let mut set = Builder::default();
        deserializer.deserialize_map(Level { set: &mut set })?;
        Ok(set.finish())
    }
}

/// One object of the document, its elements added to `set` as one level. It gives whether it
/// holds `"."`.
struct Level<'b> {
    set: &'b mut Builder,
}

impl<'de> Visitor<'de> for Level<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a FieldsV1 object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let start = self.set.mark();
        let mut dot = false;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "." {
                dot = true;
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            match PathElement::from_key(&key).map_err(de::Error::custom)? {
                Some(element) => {
                    let at = self.set.open(element);
                    let dot = map.next_value_seed(Level {
                        set: &mut *self.set,
                    })?;
                    let member = dot || !self.set.has_below(at);
                    self.set.close(at, member);
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        self.set.end_level(start);
        Ok(dot)
    }
}

impl<'de> DeserializeSeed<'de> for Level<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_map(self)
    }
}
