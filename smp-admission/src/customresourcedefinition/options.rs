//! What the CRD checks require (upstream's `validationOptions`): on create, everything; on
//! update, what the old CRD already met, so that a CRD stored under older rules can still be
//! changed.

/// The requirements of one CRD write.
#[derive(Debug, Clone)]
pub struct ValidationOptions {
    /// `default`s may be written.
    pub allow_defaults: bool,
    /// `type` must be one of the six OpenAPI types.
    pub require_valid_property_type: bool,
    /// The schema must be structural.
    pub require_structural: bool,
    /// A `default` must hold no member its schema would prune.
    pub require_pruned_defaults: bool,
    /// The items of a `set` list must be atomic.
    pub require_atomic_set_type: bool,
    /// Map-list keys must be required or defaulted, and set and map items not nullable.
    pub require_map_list_keys_map_set: bool,
    /// Every version must have a schema.
    pub require_open_api_schema: bool,
    /// A conversion webhook must accept a `ConversionReview` version the server speaks.
    pub require_recognized_conversion_review_version: bool,
    /// A conversion webhook's `caBundle` need not hold a certificate (before the CRD is
    /// established, or when the old one held none either).
    pub allow_invalid_ca_bundle: bool,
}

impl ValidationOptions {
    /// The options of a CRD's create.
    pub fn for_create() -> ValidationOptions {
        ValidationOptions {
            allow_defaults: true,
            require_valid_property_type: true,
            require_structural: true,
            require_pruned_defaults: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set: true,
            require_open_api_schema: true,
            require_recognized_conversion_review_version: true,
            allow_invalid_ca_bundle: true,
        }
    }
}
