//! Loading a [`crate::Schema`] from OpenAPI v2/v3 documents. (In progress.)
