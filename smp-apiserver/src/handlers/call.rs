//! The request as the handlers see it ([`Call`]): its state, the resource it names and
//! the steps every write shares (defaulting, admission, validation, the shape served). Every
//! handler stands on this module; it imports none of them.

/// How many times a write based on an object that changed meanwhile is tried again (patches
/// and unconditional updates apply to whatever is there then).
pub(crate) const RETRIES: usize = 64;

use http::HeaderMap;
use serde_json::Value;

use std::sync::Arc;

use crate::conversion::Shape;
use crate::custom::Served;
use crate::discovery::Resource;
use crate::registry::fields::Fields;
use crate::request::RequestInfo;
use crate::selector::FieldSelector;
use crate::state::State;
use crate::status::ApiError;
use crate::status::FieldError;
use crate::store::{ObjectKey, Stored};
use crate::validation::{self, FieldValidation};

/// The request, with the resource it names.
pub(crate) struct Call<'a> {
    pub(crate) state: &'a State,
    /// What is served, as the request found it.
    pub(crate) served: &'a Served,
    pub(crate) info: RequestInfo,
    /// The resource (for a subresource request, the main resource).
    pub(crate) resource: &'a Resource,
    /// What the request reaches: the resource, or its subresource (whose kind may be its
    /// own: `pods/eviction` takes an `Eviction`).
    pub(crate) endpoint: &'a Resource,
    pub(crate) headers: &'a HeaderMap,
    /// The `Warning` headers of the answer.
    pub(crate) warnings: std::cell::RefCell<Vec<String>>,
    /// What the resource's objects hold for field selectors.
    pub(crate) fields: Fields,
    /// The shape its objects are served in.
    pub(crate) shape: Shape,
}

/// How a request brought the object whose fields are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadAs {
    /// The body of a create or an update.
    Body,
    /// The object a JSON or merge patch made.
    Patched,
    /// A server-side apply configuration.
    Applied,
}

impl Call<'_> {
    /// What tokens are checked against.
    pub(crate) fn authority(&self) -> crate::serviceaccount::Authority<'_> {
        crate::serviceaccount::Authority {
            store: &self.state.store,
            signer: &self.state.identity.tokens,
            now: self.state.options.clock.seconds(),
        }
    }

    /// Where the named object is kept.
    pub(crate) fn key(&self, name: &str) -> ObjectKey {
        ObjectKey {
            resource: self
                .shape
                .storage_resource(&self.resource.group, self.resource.plural()),
            namespace: self.info.namespace.clone(),
            name: name.to_owned(),
        }
    }

    /// The media type of the request's body (`Content-Type` without its parameters,
    /// lowercase; "" without one).
    pub(crate) fn media_type(&self) -> String {
        self.headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default()
    }

    /// The object the request names, as stored now, in the shape it is served in.
    pub(crate) fn current(&self) -> Result<Stored, ApiError> {
        let name = &self.info.name;
        let stored = self
            .state
            .store
            .get(&self.key(name))
            .ok_or_else(|| self.not_found(name))?;
        Ok(self.served_shape(stored))
    }

    /// A stored object in the shape the resource serves; a custom resource with its CRD's
    /// defaults, as the server's storage decoder applies them to every object it reads
    /// (`Options::defaulting`).
    pub(crate) fn served_shape(&self, stored: Stored) -> Stored {
        let stored = match self.shape {
            Shape::Plain => stored,
            shape => Stored::new(
                Arc::new(shape.render(&stored.object).into_owned()),
                stored.revision,
            ),
        };
        if !self.state.options.defaulting || self.resource.names.is_none() {
            return stored;
        }
        let read = self
            .served
            .definitions
            .definition_of(&stored.object)
            .and_then(|definition| definition.default_on_read(&stored.object));
        match read {
            Some(read) => Stored::new(Arc::new(read), stored.revision),
            None => stored,
        }
    }

    /// The CRDs a watch reads its objects' defaults from: a custom resource's, with
    /// `Options::defaulting`.
    pub(crate) fn read_defaults(&self) -> Option<Arc<smp_admission::customresource::Definitions>> {
        (self.state.options.defaulting && self.resource.names.is_some())
            .then(|| self.served.definitions.clone())
    }

    /// What the admission plugins read of the cluster: the store and the served resources.
    fn cluster(&self) -> StoreCluster<'_> {
        StoreCluster {
            store: &self.state.store,
            resources: &self.served.resources,
        }
    }

    pub(crate) fn not_found(&self, name: &str) -> ApiError {
        ApiError::not_found(
            &self.resource.group,
            &self.resource.qualified(),
            &self.resource.resource,
            name,
        )
    }

    /// Fills in the defaults of an object being written, as decoding it on the server does
    /// (`Options::defaulting`): a built-in object's scheme defaults; a custom resource's
    /// structural schema's (after the `null`s it neither allows nor defaults are dropped, as
    /// the custom resource handler's decoding does; `validate_fields` has pruned it).
    pub(crate) fn default_object(&self, object: &mut Value) {
        if !self.state.options.defaulting {
            return;
        }
        if self.resource.names.is_some() {
            if let Some(definition) = self.served.definitions.definition_of(object) {
                // A version the CRD lacks was refused when the request was routed.
                let _ = definition.decode_nulls(object);
                let _ = definition.default(object);
            }
            return;
        }
        {
            // An object without a type was refused when it was read; nothing to default.
            let _ = smp_admission::defaulting::default_object(object);
            // The decoded struct holds its by-value members, so the field manager of a create
            // or an update sees them (`f:resources: {}`) as it does on the server.
            smp_admission::printing::print_as_go(object);
        }
    }

    /// Runs the mutating admission plugins on a built-in object being created, reading the
    /// service accounts, classes and limit ranges the store holds (`Options::admission`). A
    /// plugin's refusal is the server's 403.
    pub(crate) fn admit_create(&self, object: &mut Value) -> Result<(), ApiError> {
        if self.resource.names.is_some() {
            return Ok(());
        }
        let cluster = self.cluster();
        smp_admission::admission::admit_create(
            object,
            &self.info.namespace,
            &cluster,
            &self.state.options.admission,
        )
        .map_err(|e| {
            ApiError::forbidden(e.to_string()).about(&self.resource.group, &e.resource, &e.name)
        })
    }

    /// A built-in object as the server encodes its Go structs back before storing it
    /// (`smp_admission::printing`: empty structs held by value as `{}`, quantities canonical),
    /// with `Options::defaulting`.
    pub(crate) fn print_as_go(&self, object: &mut Value) {
        if self.state.options.defaulting && self.resource.names.is_none() {
            smp_admission::printing::print_as_go(object);
        }
    }

    /// What the kind's registry strategy does to an object being created
    /// (`smp_admission::strategy`: a Pod starts `Pending` with its QoS class), with
    /// `Options::defaulting`.
    pub(crate) fn prepare_for_create(&self, object: &mut Value) {
        if self.state.options.defaulting && self.resource.names.is_none() {
            smp_admission::strategy::prepare_for_create(object);
            let now = self.state.options.clock.now();
            crate::registry::persistent_volumes::stamp_on_create(object, &now);
            self.record_requester(object);
        }
    }

    /// A CertificateSigningRequest names who asked for it: the strategy's `PrepareForCreate`
    /// (`pkg/registry/certificates/certificates/strategy.go`) writes the requesting user's
    /// name, uid, groups and extra into the spec, after dropping what the client wrote there
    /// (which `smp_admission::strategy` has done).
    fn record_requester(&self, object: &mut Value) {
        if self.resource.group != "certificates.k8s.io"
            || self.resource.kind != "CertificateSigningRequest"
        {
            return;
        }
        let user = crate::serviceaccount::requester(self.authority(), self.headers);
        if let (Some(spec), Value::Object(info)) = (
            object.get_mut("spec").and_then(Value::as_object_mut),
            user.to_json(),
        ) {
            spec.extend(info);
        }
    }

    /// What the kind's registry strategy does to an object being replaced through its main
    /// endpoint (`smp_admission::strategy::prepare_for_update`: gated fields the old object did
    /// not use dropped), with `Options::defaulting`.
    pub(crate) fn prepare_for_update(&self, object: &mut Value, old: &Value) {
        if self.state.options.defaulting
            && self.resource.names.is_none()
            && self.writes_main_object()
        {
            smp_admission::strategy::prepare_for_update(object, old);
        }
    }

    /// Whether this write's object is validated here: a built-in kind whose rules
    /// `smp_admission::validation` has, with `Options::validation`.
    pub(crate) fn validates(&self) -> bool {
        self.state.options.validation
            && self.resource.names.is_none()
            // A status write is validated by its own strategy's rules (`validates_status`).
            && self.writes_main_object()
            && smp_admission::validation::covered(&self.resource.api_version(), &self.resource.kind)
    }

    /// Whether this write is of a CustomResourceDefinition's main endpoint, validated as the
    /// server's CRD strategy validates it (`Options::validation`).
    fn validates_crd(&self) -> bool {
        self.state.options.validation
            && self.resource.names.is_none()
            && self.info.subresource.is_empty()
            && self.resource.group == "apiextensions.k8s.io"
            && self.resource.kind == "CustomResourceDefinition"
    }

    /// Refuses an object being created that the server's validation refuses (the kind's
    /// `Validate*` run by the registry's `BeforeCreate`), with its 422.
    pub(crate) fn validate_create(&self, object: &Value) -> Result<(), ApiError> {
        if self.validates_crd() {
            // The strategy's `PrepareForCreate` records the storage version the checks expect.
            let mut crd = object.clone();
            smp_admission::customresourcedefinition::prepare_for_create(&mut crd);
            let errors = smp_admission::customresourcedefinition::validate_create(&crd);
            return self.refuse(object, &errors);
        }
        if let Some(definition) = self.custom_definition(object) {
            let errors = definition.errors_on_create(object).unwrap_or_default();
            return self.refuse(object, &errors);
        }
        if !self.validates() {
            return Ok(());
        }
        let errors = smp_admission::validation::errors_on_create(object).unwrap_or_default();
        self.refuse(object, &errors)?;
        // What the strategy's `WarningsOnCreate` says of a valid object.
        self.warn(smp_admission::warnings::warnings_on_create(object));
        Ok(())
    }

    /// Runs the validating admission plugins on a built-in object that passed validation, as
    /// the server does after `BeforeCreate` / `BeforeUpdate` (`Options::admission`), in its
    /// order: LimitRanger refuses a Pod or a claim outside its namespace's LimitRanges (403,
    /// `plugin/pkg/admission/limitranger`); PodSecurity refuses a Pod its namespace's enforced
    /// level forbids (403) and warns about what its warn level forbids
    /// (`plugin/pkg/admission/security/podsecurity`); PersistentVolumeClaimResize refuses a
    /// claim that grows unbound or without a class allowing expansion (403,
    /// `plugin/pkg/admission/storage/persistentvolume/resize`), which the server runs after
    /// PodSecurity; running it before changes no answer, since PodSecurity reads no claims.
    pub(crate) fn validate_admission(
        &self,
        object: &Value,
        old: Option<&Value>,
    ) -> Result<(), ApiError> {
        if self.resource.names.is_some() {
            return self.run_policies(object, old, false);
        }
        let plugins = &self.state.options.admission;
        let namespace = self.info.namespace.as_str();
        let cluster = self.cluster();
        let forbidden = |e: smp_admission::admission::Forbidden| {
            ApiError::forbidden(e.to_string()).about(&self.resource.group, &e.resource, &e.name)
        };
        if plugins.limit_ranger {
            let subresource = self.info.subresource.as_str();
            smp_admission::admission::validate_limits(
                object,
                old,
                namespace,
                subresource,
                &cluster,
            )
            .map_err(forbidden)?;
        }
        if plugins.persistent_volume_claim_resize
            && let Some(old) = old
        {
            let subresource = self.info.subresource.as_str();
            smp_admission::admission::validate_claim_resize(object, old, subresource, &cluster)
                .map_err(forbidden)?;
        }
        if !plugins.pod_security {
            return Ok(());
        }
        use smp_admission::admission::pod_security::{self, Refusal, Request};
        let request = match old {
            Some(old) => Request::update(object, old, namespace),
            None => Request::create(object, namespace),
        }
        .with_subresource(&self.info.subresource);
        let decision =
            pod_security::validate(&request, &cluster, &pod_security::Options::default());
        match decision.refusal {
            None => self.warn(decision.warnings),
            Some(Refusal::Forbidden(e)) => return Err(forbidden(e)),
            Some(Refusal::Invalid(errors)) => return self.refuse(object, &errors),
        }
        self.run_policies(object, old, false)
    }

    /// The admission policies on a delete of `current` (`deleteValidation`, which the
    /// server's store runs once the preconditions hold, before it deletes or marks anything).
    pub(crate) fn validate_delete(&self, current: &Value) -> Result<(), ApiError> {
        self.run_policies(current, None, true)
    }

    /// The ValidatingAdmissionPolicy plugin, which the server runs after the other validating
    /// plugins, on built-in and custom resources alike
    /// (`smp_admission::validating_admission_policy`), with `Options::admission`: a refusal
    /// is the status its validation's reason names, a `Warn` binding's failures warnings. On a
    /// create, an update (`old`), or a delete of `object` (`deleting`).
    fn run_policies(
        &self,
        object: &Value,
        old: Option<&Value>,
        deleting: bool,
    ) -> Result<(), ApiError> {
        use smp_admission::validating_admission_policy::{self as policies, Request};
        if !self.state.options.admission.validating_admission_policy {
            return Ok(());
        }
        let cluster = self.cluster();
        if !policies::any_policy(&cluster) {
            return Ok(());
        }
        let user = crate::serviceaccount::requester(self.authority(), self.headers);
        let version = &self.resource.version;
        let (group, plural, namespace) = (
            &self.resource.group,
            self.resource.plural(),
            &self.info.namespace,
        );
        let mut request = if deleting {
            Request::delete(object, group, version, plural, namespace)
        } else {
            Request::create(object, group, version, plural, namespace)
        };
        if let Some(old) = old {
            request = request.updating(old);
        }
        request.subresource = &self.info.subresource;
        request.kind = &self.resource.kind;
        request.user_info = user.to_json();
        request.dry_run = self.dry_run();
        let decision = policies::validate(&request, &cluster);
        if let Some(denial) = decision.denial {
            return Err(ApiError::policy_denied(
                denial.code,
                denial.reason,
                &self.resource.qualified(),
                request.name,
                &denial.message,
            )
            .about(&self.resource.group, self.resource.plural(), request.name)
            .with_cause(&denial.message));
        }
        self.warn(decision.warnings);
        Ok(())
    }

    /// Adds warnings to the answer's `Warning` headers.
    fn warn(&self, texts: Vec<String>) {
        self.warnings
            .borrow_mut()
            .extend(texts.iter().map(|w| validation::warning_header(w)));
    }

    /// The CRD of a custom resource whose status subresource is being written, when writes
    /// are validated (apiextensions-apiserver `status_strategy.go`).
    fn custom_status_definition(
        &self,
        object: &Value,
    ) -> Option<&smp_admission::customresource::Definition> {
        if !self.state.options.validation
            || self.resource.names.is_none()
            || self.info.subresource != "status"
        {
            return None;
        }
        self.served.definitions.definition_of(object)
    }

    /// The CRD of a custom resource being written through its main endpoint or its scale, when
    /// its writes are validated (`Options::validation`). Its strategy (apiextensions-apiserver
    /// `pkg/registry/customresource`) checks the root metadata, the schema's constraints and
    /// its set and map lists (status writes: `custom_status_definition`).
    fn custom_definition(
        &self,
        object: &Value,
    ) -> Option<&smp_admission::customresource::Definition> {
        if !self.state.options.validation
            || self.resource.names.is_none()
            || !self.writes_main_object()
        {
            return None;
        }
        self.served.definitions.definition_of(object)
    }

    /// Whether this write goes through the kind's main strategy: a write of the object itself,
    /// or of its `scale` (whose registry writes the new count through the main store, so the
    /// kind's update rules run: `pkg/registry/apps/deployment/storage`'s `ScaleREST`,
    /// apiextensions-apiserver's `customresource` `ScaleREST`).
    fn writes_main_object(&self) -> bool {
        matches!(self.info.subresource.as_str(), "" | "scale")
    }

    /// Refuses an update that the server's validation refuses (`Validate*Update`, run by the
    /// registry's `BeforeUpdate` with the stored object as the old one).
    pub(crate) fn validate_update(&self, object: &Value, old: &Value) -> Result<(), ApiError> {
        if self.validates_crd() {
            let mut crd = object.clone();
            smp_admission::customresourcedefinition::prepare_for_update(&mut crd, old);
            let errors = smp_admission::customresourcedefinition::validate_update(&crd, old);
            return self.refuse(object, &errors);
        }
        let checked = match self.custom_definition(object) {
            Some(definition) => Some(definition.check_update(object, old).unwrap_or_default()),
            None => self.custom_status_definition(object).map(|definition| {
                definition
                    .check_status_update(object, old)
                    .unwrap_or_default()
            }),
        };
        if let Some(checked) = checked {
            // A rule that still fails over what the update left alone is a warning.
            self.warnings.borrow_mut().extend(
                checked
                    .warnings
                    .iter()
                    .map(|w| validation::warning_header(w)),
            );
            return self.refuse(object, &checked.errors);
        }
        if self.validates_status() {
            let errors =
                smp_admission::validation::errors_on_status_update(object, old).unwrap_or_default();
            return self.refuse(object, &errors);
        }
        if !self.validates() {
            return Ok(());
        }
        let errors = smp_admission::validation::errors_on_update(object, old).unwrap_or_default();
        self.refuse(object, &errors)?;
        // What the strategy's `WarningsOnUpdate` says of a valid update.
        self.warn(smp_admission::warnings::warnings_on_update(object, old));
        Ok(())
    }

    /// Whether this write is to a built-in kind's status endpoint whose rules
    /// `smp_admission::validation` has (`Validate<Kind>StatusUpdate`), with
    /// `Options::validation`.
    fn validates_status(&self) -> bool {
        self.state.options.validation
            && self.resource.names.is_none()
            && self.info.subresource == "status"
            && smp_admission::validation::covers_status(
                &self.resource.api_version(),
                &self.resource.kind,
            )
    }

    fn refuse(
        &self,
        object: &Value,
        errors: &[smp_admission::validation::FieldError],
    ) -> Result<(), ApiError> {
        if errors.is_empty() {
            return Ok(());
        }
        let fields: Vec<FieldError> = errors
            .iter()
            .map(|e| FieldError {
                field: e.field.clone(),
                reason: e.kind.reason(),
                body: e.body(),
            })
            .collect();
        let name = object
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        Err(ApiError::invalid_fields(
            &self.resource.group,
            &self.resource.kind,
            name,
            &fields,
        ))
    }

    /// Drops from `object` the fields its type does not declare, or refuses them, as the
    /// request's `fieldValidation` says; `read` is how the request brought the object, which
    /// decides the form of a `Strict` refusal.
    pub(crate) fn validate_fields(&self, object: &mut Value, read: ReadAs) -> Result<(), ApiError> {
        let mode = FieldValidation::parse(self.query("fieldValidation"))?;
        let gvk = smp_ssa::schema::Gvk::of(&self.resource.api_version(), &self.resource.kind);
        let builtin = smp_ssa::builtin::schema();
        let found = match builtin.kind(&gvk) {
            Some(ty) => Some((builtin, ty)),
            None => self
                .served
                .schema
                .as_deref()
                .and_then(|schema| schema.kind(&gvk).map(|ty| (schema, ty))),
        };
        let Some((schema, ty)) = found else {
            return Ok(());
        };
        // A patch's refusal quotes the patched object as it was before the fields were dropped.
        let before =
            (mode == FieldValidation::Strict && read == ReadAs::Patched).then(|| object.clone());
        let mut unknown = validation::drop_unknown(schema, ty, object);
        // A custom resource's embedded resources decode as resources: their metadata as an
        // ObjectMeta (apiextensions-apiserver `schema/objectmeta`, run by the decoder).
        if let Some(definition) = self.served.definitions.definition_of(object) {
            match definition.coerce_embedded(object) {
                Ok(dropped) => unknown.extend(dropped),
                Err(e) => {
                    let kind = &self.resource.kind;
                    let version = &self.resource.version;
                    return Err(ApiError::bad_request(format!(
                        "{kind} in version {version:?} cannot be handled as a {kind}: {e}"
                    )));
                }
            }
        }
        match mode {
            _ if unknown.is_empty() => Ok(()),
            FieldValidation::Strict => Err(match (read, before) {
                (ReadAs::Body, _) => {
                    validation::strict_body_error(object, &self.resource.kind, &unknown)
                }
                (ReadAs::Patched, Some(before)) => {
                    ApiError::invalid_patch(&before, &validation::strict_message(&unknown))
                }
                _ => validation::strict_error(&unknown),
            }),
            FieldValidation::Warn => {
                let mut warnings = self.warnings.borrow_mut();
                warnings.extend(unknown.iter().map(|f| validation::warning(f)));
                Ok(())
            }
            FieldValidation::Ignore => Ok(()),
        }
    }

    pub(crate) fn query(&self, key: &str) -> Option<&str> {
        self.info.query.get(key).map(String::as_str)
    }

    /// Whether the request is a dry run (`dryRun=All`): answered, not stored. (Other values
    /// were refused with the request's options.)
    pub(crate) fn dry_run(&self) -> bool {
        self.query("dryRun") == Some("All")
    }

    /// The generation rule of the resource's kind.
    pub(crate) fn generation(
        &self,
    ) -> (
        crate::registry::generation::OnCreate,
        crate::registry::generation::OnUpdate,
    ) {
        use crate::registry::generation;
        match &self.fields {
            Fields::Custom { .. } => generation::custom(
                self.served
                    .resources
                    .get(
                        &self.resource.group,
                        &self.resource.version,
                        &format!("{}/status", self.resource.plural()),
                    )
                    .is_some(),
            ),
            Fields::Builtin { .. } => {
                generation::builtin(&self.resource.group, self.resource.plural())
            }
        }
    }
}

/// The request's field selector, its labels as the resource names them (400 otherwise).
pub(crate) fn field_selector(call: &Call<'_>) -> Result<FieldSelector, ApiError> {
    FieldSelector::parse(call.query("fieldSelector").unwrap_or(""))?
        .convert(|label| call.fields.convert(label))
}

/// How a resource's field selectors read its objects: a custom resource's by its CRD's
/// selectable fields for the version asked for.
pub(super) fn fields_of(served: &Served, resource: &Resource) -> Fields {
    let crd = served.crds.iter().find(|crd| {
        crd.pointer("/spec/group")
            .and_then(serde_json::Value::as_str)
            == Some(&resource.group)
            && crd
                .pointer("/spec/names/plural")
                .and_then(serde_json::Value::as_str)
                == Some(resource.plural())
    });
    match crd {
        Some(crd) => Fields::of_crd(crd, &resource.version),
        None => Fields::Builtin {
            group: resource.group.clone(),
            version: resource.version.clone(),
            plural: resource.plural().to_owned(),
            namespaced: resource.namespaced,
        },
    }
}

/// The store as the admission plugins read the cluster; the served resources name the
/// resource of a kind (the admission policies' parameters).
struct StoreCluster<'a> {
    store: &'a crate::store::Store,
    resources: &'a crate::discovery::Resources,
}

impl smp_admission::admission::Cluster for StoreCluster<'_> {
    fn get(&self, resource: &str, namespace: &str, name: &str) -> Option<Value> {
        let key = crate::store::ObjectKey {
            resource: resource.to_owned(),
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        };
        self.store.get(&key).map(|s| (*s.object).clone())
    }

    fn list(&self, resource: &str, namespace: &str) -> Vec<Value> {
        let namespace = (!namespace.is_empty()).then_some(namespace);
        let (items, _) = self.store.list(resource, namespace, None);
        items
            .into_iter()
            .map(|(_, s)| (*s.object).clone())
            .collect()
    }

    fn resource_for(&self, api_version: &str, kind: &str) -> Option<(String, bool)> {
        let found = self.resources.of_kind(api_version, kind)?;
        Some((
            format!("{}/{}", found.group, found.plural()),
            found.namespaced,
        ))
    }
}
