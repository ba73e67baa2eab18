//! The items of a set or list map, named by their path elements: the key fields of a list map's
//! item (or the defaults of those it omits), or a set's value.

use serde_json::Value;

use crate::fieldpath::{KeyValue, PathElement};
use crate::schema::{ListKind, Schema, TypeRef};

/// The element that names `child`, an item of a list of `kind` whose items are of type `item`.
pub(crate) fn element(
    schema: &Schema,
    kind: &ListKind,
    item: TypeRef,
    child: &Value,
) -> Result<PathElement, String> {
    match kind {
        ListKind::Map(keys) => {
            let object = match child {
                Value::Null => {
                    return Err("associative list with keys may not have a null element".into());
                }
                Value::Object(object) => object,
                _ => {
                    return Err("associative list with keys may not have non-map elements".into());
                }
            };
            let item_type = schema.resolve(item).map;
            let mut fields = Vec::with_capacity(keys.len());
            for name in keys {
                let value = match object.get(name) {
                    Some(v) => KeyValue::from(v),
                    None => {
                        let default = item_type
                            .and_then(|m| m.field(name))
                            .and_then(|f| f.default.as_ref())
                            .map(KeyValue::from);
                        default.ok_or_else(|| {
                            format!(
                                "associative list with keys has an element that omits key field {name:?} (and doesn't have default value)"
                            )
                        })?
                    }
                };
                fields.push((name.as_str(), value));
            }
            Ok(PathElement::key(fields))
        }
        _ => match child {
            Value::Object(_) => {
                Err("associative list without keys has an element that's a map type".into())
            }
            Value::Array(_) => Err("not supported: associative list with lists as elements".into()),
            Value::Null => {
                Err("associative list without keys has an element that's an explicit null".into())
            }
            scalar => Ok(PathElement::Value(scalar.clone())),
        },
    }
}

/// A list's items by element: each item's element in list order, and a lookup by element
/// (`n log n` to build, `log n` to ask), so that matching two lists' items is never quadratic.
pub(crate) struct Index<'v> {
    /// The list.
    list: &'v [Value],
    /// Each item's element and the item, in list order.
    pub(crate) items: Vec<(PathElement, &'v Value)>,
    /// Positions in `items`, sorted by element (items of one element in list order).
    sorted: Vec<usize>,
}

impl<'v> Index<'v> {
    /// The index of `list`'s items; the errors of those that have no element, by position.
    pub(crate) fn new(
        schema: &Schema,
        kind: &ListKind,
        item: TypeRef,
        list: &'v [Value],
    ) -> (Index<'v>, Vec<(usize, String)>) {
        let mut items = Vec::with_capacity(list.len());
        let mut errors = Vec::new();
        for (i, child) in list.iter().enumerate() {
            match element(schema, kind, item, child) {
                Ok(e) => items.push((e, child)),
                Err(message) => errors.push((i, message)),
            }
        }
        let mut sorted: Vec<usize> = (0..items.len()).collect();
        sorted.sort_by(|a, b| items[*a].0.cmp(&items[*b].0));
        (
            Index {
                list,
                items,
                sorted,
            },
            errors,
        )
    }

    /// The items named `element`, in list order.
    pub(crate) fn get<'a>(
        &'a self,
        element: &'a PathElement,
    ) -> impl Iterator<Item = &'v Value> + 'a {
        let start = self.sorted.partition_point(|i| self.items[*i].0 < *element);
        self.sorted[start..]
            .iter()
            .take_while(move |i| self.items[**i].0 == *element)
            .map(|i| self.items[*i].1)
    }

    /// The item named `element` if there is exactly one; `Some(None)` if there are several.
    pub(crate) fn one(&self, element: &PathElement) -> Option<Option<&'v Value>> {
        let mut found = self.get(element);
        let first = found.next()?;
        Some(found.next().is_none().then_some(first))
    }

    /// Where `item` (one of the list's own) stands in the list, found from its address.
    pub(crate) fn position(&self, item: Option<&Value>) -> Option<usize> {
        let item = item?;
        let offset = (item as *const Value as usize).wrapping_sub(self.list.as_ptr() as usize);
        let at = offset / std::mem::size_of::<Value>();
        self.list
            .get(at)
            .filter(|found| std::ptr::eq(*found, item))
            .map(|_| at)
    }

    /// Whether an item is named `element`.
    pub(crate) fn has(&self, element: &PathElement) -> bool {
        self.get(element).next().is_some()
    }
}
