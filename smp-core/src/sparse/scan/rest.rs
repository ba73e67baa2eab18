//! The members of a live object that the patch does not name, copied together.
//!
//! An object the patch reaches is read member by member, and the engine looks only at the
//! members the patch names. Each other member used to stand in the object's map as its own
//! placeholder, with a key `String` to allocate, a map entry to insert, and later to find and
//! drop. Here they are copied as in copy mode, into one list of members in key order under a
//! single placeholder, which the object's map holds under a hidden name; the writer merges
//! that list with the map's own members by key.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::copy::{CopiedKey, key_bytes};
use super::{Invalid, Scanner};

/// The unnamed members of an object being read: those from `base` on the scanner's member
/// stack, and the escaped keys from `keys_base` on.
pub(in crate::sparse) struct Rest {
    base: usize,
    keys_base: usize,
    in_order: bool,
}

impl<'a> Scanner<'a> {
    /// Starts collecting the unnamed members of the object being read.
    pub(in crate::sparse) fn rest(&self) -> Rest {
        Rest {
            base: self.members.len(),
            keys_base: self.keys.len(),
            in_order: true,
        }
    }

    /// The key's text.
    pub(in crate::sparse) fn key_text(&self, key: &CopiedKey) -> Result<Cow<'a, str>, Invalid> {
        let (from, to) = (key.range.0 as usize, key.range.1 as usize);
        if to <= self.text.len() {
            return self.text.get(from..to).map(Cow::Borrowed).ok_or(Invalid);
        }
        let bytes = key_bytes(self.bytes, &self.keys, key.range);
        String::from_utf8(bytes.to_vec())
            .map(Cow::Owned)
            .map_err(|_| Invalid)
    }

    /// Forgets the copy of `key`: its member is read another way.
    pub(in crate::sparse) fn uncopy_key(&mut self, key: &CopiedKey) {
        self.canon.truncate(key.start);
    }

    /// Copies the value of `key`'s member into `rest`.
    pub(in crate::sparse) fn copy_into(
        &mut self,
        rest: &mut Rest,
        key: CopiedKey,
    ) -> Result<(), Invalid> {
        self.copy_value()?;
        self.push_member(key, rest.base, &mut rest.in_order);
        Ok(())
    }

    /// Puts the members of `rest` into `map` in key order (a repeated key is an error), under
    /// one placeholder named `name`, or, when `map` has a member of that name already (one
    /// the text holds), each under its own.
    pub(in crate::sparse) fn close_rest(
        &mut self,
        rest: Rest,
        map: &mut Map<String, Value>,
        name: &str,
    ) -> Result<(), Invalid> {
        let result = self.place_rest(&rest, map, name);
        self.members.truncate(rest.base);
        self.keys.truncate(rest.keys_base);
        result
    }

    fn place_rest(
        &mut self,
        rest: &Rest,
        map: &mut Map<String, Value>,
        name: &str,
    ) -> Result<(), Invalid> {
        if self.members.len() == rest.base {
            return Ok(());
        }
        if !rest.in_order {
            self.sort_members(rest.base)?;
        }
        let members = self.members.get(rest.base..).unwrap_or_default();
        if !map.contains_key(name) {
            let placeholder = self
                .canon
                .members_placeholder(members.iter().map(|m| m.span));
            map.insert(name.to_owned(), self.or_collision(placeholder));
            return Ok(());
        }
        for at in rest.base..self.members.len() {
            let m = self.members[at];
            let key = key_bytes(self.bytes, &self.keys, m.key);
            let key = String::from_utf8(key.to_vec()).map_err(|_| Invalid)?;
            let value = self.canon.value_of(m.span).ok_or(Invalid)?;
            let placeholder = self.canon.placeholder_of(value);
            if map.insert(key, self.or_collision(placeholder)).is_some() {
                return Err(Invalid);
            }
        }
        Ok(())
    }
}
