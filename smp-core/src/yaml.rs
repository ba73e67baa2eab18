//! YAML input. (In progress.)
