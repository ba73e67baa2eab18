//! The patch schema: what the engine needs to know about each field.
//!
//! Kubernetes publishes patch metadata per field (strategy, merge key); everything else about a
//! type is irrelevant to strategic merge patch. The model therefore only describes *shapes*
//! (struct, map, list, primitive, opaque) and, per struct field, its patch metadata.
//!
//! The model has to live in two worlds:
//! - `static` items emitted by `#[derive(StrategicMerge)]`, so a typed struct and the `Value`
//!   engine share one description with no start-up cost. Recursive types (a `mergeItem` holding a
//!   list of `mergeItem`) are expressed with [`TypeRef::Static`], a function pointer to the
//!   other `static`, which can refer to itself.
//! - tables built at run time from OpenAPI documents ([`Schema`]), where recursion is an index
//!   into the table ([`TypeRef::Index`]).
//!
//! All strings and slices are `Cow<'static, _>` so the same types serve both: borrowed in a
//! `static`, owned when loaded.

use std::borrow::Cow;
use std::fmt;

use crate::json_text::same_bytes;

/// A name or key: borrowed in `static` schemas, owned in loaded ones.
pub type Str = Cow<'static, str>;

/// A reference from one type to another.
#[derive(Clone, Copy)]
pub enum TypeRef {
    /// A `static` type definition, reached through a function so that a definition can refer to
    /// itself or to a definition declared later (generic code can name `T::type_def`).
    Static(fn() -> &'static TypeDef),
    /// Position in the table of the [`Schema`] that owns the referring definition.
    Index(usize),
}

impl fmt::Debug for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Printing the target could recurse forever on recursive types: print its name only.
            TypeRef::Static(get) => write!(f, "Static({})", get().name()),
            TypeRef::Index(i) => write!(f, "Index({i})"),
        }
    }
}

/// The shape of a value, as far as patching cares.
#[derive(Debug, Clone)]
pub enum TypeDef {
    /// An object with known fields; unknown keys are patched without metadata.
    Struct(StructDef),
    /// An object whose values all have one type (`additionalProperties`, `BTreeMap<String, T>`).
    Map(TypeRef),
    /// A JSON array whose items have one type.
    List(TypeRef),
    /// A string, number, boolean (or a string-like enum).
    Primitive,
    /// Anything: no metadata below this point (`RawExtension`, `serde_json::Value`). Patched as
    /// plain strategic merge patch without metadata: maps merge, lists are replaced.
    Opaque,
    /// A whole Kubernetes object inside another (a CRD's `x-kubernetes-embedded-resource`),
    /// typed by its own `apiVersion` and `kind` where a [`KindSchemas`] attached to the node
    /// ([`Node::with_kinds`]) knows them, and by the declared type it holds otherwise.
    ///
    /// A [`Node`] never shows this variant: it resolves to the declared type and remembers that
    /// it is embedded ([`Node::is_embedded`]), so code that knows nothing of embedded resources
    /// treats it as the declared type.
    Embedded(TypeRef),
}

impl TypeDef {
    /// The shared "anything" definition, also used for fields a struct does not declare.
    pub const OPAQUE: &'static TypeDef = &TypeDef::Opaque;
    /// The shared primitive definition.
    pub const PRIMITIVE: &'static TypeDef = &TypeDef::Primitive;

    /// A short human name, for errors and debugging.
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Struct(s) => &s.name,
            TypeDef::Map(_) => "map",
            TypeDef::List(_) => "list",
            TypeDef::Primitive => "primitive",
            TypeDef::Opaque => "any",
            TypeDef::Embedded(_) => "embedded resource",
        }
    }
}

/// An object type with declared fields.
#[derive(Debug, Clone)]
pub struct StructDef {
    /// Type name (the OpenAPI definition name or the Rust type name).
    pub name: Str,
    /// Declared fields. Order is not significant.
    pub fields: Cow<'static, [FieldDef]>,
    /// Structs whose fields are inlined into this one (Go `json:",inline"`, serde `flatten`).
    /// Looked up after `fields`.
    pub inlined: Cow<'static, [TypeRef]>,
    /// Unions (KEP-1027) declared on this struct. Filled in by the unions work; the apply
    /// engine does not read it.
    pub unions: Cow<'static, [UnionDef]>,
    /// Whether members the struct does not declare are part of its data
    /// (`x-kubernetes-preserve-unknown-fields` in a CRD): they are patched without metadata,
    /// and diffing them is no error. A Go struct, and so every built-in type, has no such
    /// members: upstream refuses to diff objects or lists it does not declare.
    pub open: bool,
}

impl StructDef {
    /// A struct with the given fields and nothing inlined.
    pub const fn new(name: &'static str, fields: &'static [FieldDef]) -> StructDef {
        StructDef {
            name: Cow::Borrowed(name),
            fields: Cow::Borrowed(fields),
            inlined: Cow::Borrowed(&[]),
            unions: Cow::Borrowed(&[]),
            open: false,
        }
    }
}

impl StructDef {
    /// A struct whose JSON object also holds the fields of `inlined` (serde `flatten`).
    pub const fn with_inlined(
        name: &'static str,
        fields: &'static [FieldDef],
        inlined: &'static [TypeRef],
    ) -> StructDef {
        StructDef {
            name: Cow::Borrowed(name),
            fields: Cow::Borrowed(fields),
            inlined: Cow::Borrowed(inlined),
            unions: Cow::Borrowed(&[]),
            open: false,
        }
    }
}

impl StructDef {
    /// A struct with inlined structs and unions: the derive's constructor for `#[union]` types.
    /// A plain constructor rather than a builder because a `const fn` cannot drop the `Cow` a
    /// builder would replace.
    pub const fn with_unions(
        name: &'static str,
        fields: &'static [FieldDef],
        inlined: &'static [TypeRef],
        unions: &'static [UnionDef],
    ) -> StructDef {
        StructDef {
            name: Cow::Borrowed(name),
            fields: Cow::Borrowed(fields),
            inlined: Cow::Borrowed(inlined),
            unions: Cow::Borrowed(unions),
            open: false,
        }
    }
}

/// Whether a `static` struct definition declares the JSON field `name` (its own fields only).
/// A `const fn`, so the derive can check `merge_key`s at compile time.
pub const fn declares_field(def: &TypeDef, name: &str) -> bool {
    let TypeDef::Struct(s) = def else {
        return false;
    };
    let Cow::Borrowed(fields) = &s.fields else {
        return false;
    };
    let mut i = 0;
    while i < fields.len() {
        if let Cow::Borrowed(field) = &fields[i].name {
            if str_eq(field, name) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// `a == b` in a `const` context.
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Patch metadata of one struct field.
#[derive(Debug, Clone)]
pub struct FieldDef {
    /// The JSON name.
    pub name: Str,
    /// The field's type.
    pub ty: TypeRef,
    /// How the field is patched.
    pub strategy: Strategy,
    /// The key that identifies items of a merged list of objects.
    pub merge_key: Option<Str>,
    /// Multi-field "recommended" merge keys (`$patchMergeKey` proposal); empty when none.
    pub recommended: Cow<'static, [Str]>,
    /// Whether `recommended` is the list's own identity, used by apply and diff whether or not
    /// a patch carries `$patchMergeKey`: a CRD's `x-kubernetes-list-map-keys` of several
    /// fields. `false` for the proposal's keys, which apply follows only when asked.
    pub composite: bool,
    /// Whether a created patch leaves this replaced object out when it is unchanged. Upstream
    /// sends a replaced object in every patch (`false`, for built-in types); a CRD's
    /// `x-kubernetes-map-type: atomic`, which no upstream patch ever served, is sent only when
    /// it changed.
    pub omit_unchanged: bool,
}

impl FieldDef {
    /// A field with its patch metadata, usable in a `static`.
    pub const fn new(
        name: &'static str,
        ty: TypeRef,
        strategy: Strategy,
        merge_key: Option<&'static str>,
    ) -> FieldDef {
        FieldDef::with_recommended(name, ty, strategy, merge_key, &[])
    }
}

impl FieldDef {
    /// A field with multi-field "recommended" merge keys (the `$patchMergeKey` proposal):
    /// `merge_key` must be the first of them when the field has one.
    pub const fn with_recommended(
        name: &'static str,
        ty: TypeRef,
        strategy: Strategy,
        merge_key: Option<&'static str>,
        recommended: &'static [Str],
    ) -> FieldDef {
        FieldDef {
            composite: false,
            omit_unchanged: false,
            name: Cow::Borrowed(name),
            ty,
            strategy,
            merge_key: match merge_key {
                Some(k) => Some(Cow::Borrowed(k)),
                None => None,
            },
            recommended: Cow::Borrowed(recommended),
        }
    }
}

/// A union declared on a struct (KEP-1027): at most one of `members` is set, and the
/// discriminator, when there is one, names which.
///
/// The same shape serves `#[union]` structs and the inline ("deprecated") unions of a struct
/// whose other fields are not members: the engine only needs the members and the discriminator
/// within one JSON object, not how the Go or Rust source grouped them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionDef {
    /// JSON name of the discriminator field, if the union has one.
    pub discriminator: Option<Str>,
    /// Members: JSON field name and the discriminator value that selects it.
    pub members: Cow<'static, [UnionMember]>,
}

impl UnionDef {
    /// A union usable in a `static`.
    pub const fn new(
        discriminator: Option<&'static str>,
        members: &'static [UnionMember],
    ) -> UnionDef {
        UnionDef {
            discriminator: match discriminator {
                Some(d) => Some(Cow::Borrowed(d)),
                None => None,
            },
            members: Cow::Borrowed(members),
        }
    }

    /// The member a discriminator value selects; `None` for a value that selects none (an
    /// API's "Nothing" value).
    pub fn selected(&self, value: &str) -> Option<usize> {
        self.members
            .iter()
            .position(|m| m.discriminated_by == value)
    }
}

/// One member of a [`UnionDef`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnionMember {
    /// JSON name of the member field.
    pub field: Str,
    /// Discriminator value selecting this member.
    pub discriminated_by: Str,
}

impl UnionMember {
    /// A member usable in a `static`.
    pub const fn new(field: &'static str, discriminated_by: &'static str) -> UnionMember {
        UnionMember {
            field: Cow::Borrowed(field),
            discriminated_by: Cow::Borrowed(discriminated_by),
        }
    }
}

/// How a field is patched: a base strategy plus the `retainKeys` flag.
///
/// Kubernetes writes this as `merge`, `replace`, `retainKeys` or `merge,retainKeys` (the Go tag
/// uses `|`, OpenAPI uses `,`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Strategy {
    /// Merge or replace; `Default` is "not stated" (maps merge, lists are replaced).
    pub base: BaseStrategy,
    /// Whether `$retainKeys` is expected on this field (or on each item of a merged list).
    pub retain_keys: bool,
}

/// The merge/replace part of a [`Strategy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BaseStrategy {
    /// No strategy stated: objects merge, lists are replaced.
    #[default]
    Default,
    /// Lists merge (by merge key for objects, as a set for primitives); objects merge.
    Merge,
    /// The patch value replaces the field whole.
    Replace,
}

impl Strategy {
    /// No strategy stated.
    pub const DEFAULT: Strategy = Strategy {
        base: BaseStrategy::Default,
        retain_keys: false,
    };
    /// `merge`.
    pub const MERGE: Strategy = Strategy {
        base: BaseStrategy::Merge,
        retain_keys: false,
    };
    /// `replace`.
    pub const REPLACE: Strategy = Strategy {
        base: BaseStrategy::Replace,
        retain_keys: false,
    };
    /// `retainKeys`.
    pub const RETAIN_KEYS: Strategy = Strategy {
        base: BaseStrategy::Default,
        retain_keys: true,
    };
    /// `merge,retainKeys`.
    pub const MERGE_RETAIN_KEYS: Strategy = Strategy {
        base: BaseStrategy::Merge,
        retain_keys: true,
    };

    /// Whether lists under this strategy merge.
    pub fn merges_lists(self) -> bool {
        self.base == BaseStrategy::Merge
    }

    /// Parses the Kubernetes spelling: strategies separated by `,` or `|`, at most one of
    /// `merge`/`replace` plus optionally `retainKeys`.
    pub fn parse(text: &str) -> Result<Strategy, StrategyParseError> {
        let mut out = Strategy::DEFAULT;
        let mut base_seen = false;
        for part in text.split([',', '|']).map(str::trim) {
            match part {
                "retainKeys" if !out.retain_keys => out.retain_keys = true,
                "merge" | "replace" if !base_seen => {
                    base_seen = true;
                    out.base = if part == "merge" {
                        BaseStrategy::Merge
                    } else {
                        BaseStrategy::Replace
                    };
                }
                "" if text.trim().is_empty() => {}
                _ => {
                    return Err(StrategyParseError {
                        text: text.to_owned(),
                    });
                }
            }
        }
        Ok(out)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = match self.base {
            BaseStrategy::Default => None,
            BaseStrategy::Merge => Some("merge"),
            BaseStrategy::Replace => Some("replace"),
        };
        match (base, self.retain_keys) {
            (None, false) => Ok(()),
            (None, true) => f.write_str("retainKeys"),
            (Some(b), false) => f.write_str(b),
            (Some(b), true) => write!(f, "{b},retainKeys"),
        }
    }
}

/// A patch strategy string that is not one Kubernetes defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyParseError {
    /// The rejected text.
    pub text: String,
}

impl fmt::Display for StrategyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid patch strategy {:?}: expected `merge`, `replace`, `retainKeys` or `merge,retainKeys`",
            self.text
        )
    }
}

impl std::error::Error for StrategyParseError {}

/// A schema built at run time: a table of type definitions and the root type.
///
/// Definitions refer to each other by [`TypeRef::Index`] into `types`; they may also point at
/// `static` definitions with [`TypeRef::Static`].
#[derive(Debug, Clone)]
pub struct Schema {
    types: Vec<TypeDef>,
    root: TypeRef,
}

impl Schema {
    /// A schema from a table and the root reference. Returns `None` if any `Index` points
    /// outside the table, so that lookups never fail later.
    pub fn from_table(types: Vec<TypeDef>, root: TypeRef) -> Option<Schema> {
        let in_range = |r: &TypeRef| match r {
            TypeRef::Index(i) => *i < types.len(),
            TypeRef::Static(_) => true,
        };
        let refs_ok = types.iter().all(|t| match t {
            TypeDef::Struct(s) => {
                s.fields.iter().all(|f| in_range(&f.ty)) && s.inlined.iter().all(in_range)
            }
            TypeDef::Map(r) | TypeDef::List(r) | TypeDef::Embedded(r) => in_range(r),
            TypeDef::Primitive | TypeDef::Opaque => true,
        });
        (refs_ok && in_range(&root)).then_some(Schema { types, root })
    }

    /// A schema that knows nothing: every object merges, every list is replaced, as in JSON
    /// merge patch (directives still apply).
    pub fn untyped() -> Schema {
        Schema {
            types: Vec::new(),
            root: TypeRef::Static(|| TypeDef::OPAQUE),
        }
    }

    /// The type table.
    pub fn types(&self) -> &[TypeDef] {
        &self.types
    }

    /// The root type, ready for the engine.
    pub fn root(&self) -> Node<'_> {
        Node::resolve(&self.types, self.root)
    }
}

/// Where an embedded resource (`x-kubernetes-embedded-resource`) finds the schema of its own
/// `apiVersion` and `kind`.
///
/// Attach one to the root node with [`Node::with_kinds`]. A [`CrdCatalog`] knows custom
/// resources, `smp_types::BuiltInKinds` the built-in kinds, and a pair `(a, b)` asks `a`, then
/// `b`.
///
/// `Sync` so that a [`Node`] can be shared by threads that patch documents side by side.
///
/// [`CrdCatalog`]: crate::openapi::crd::CrdCatalog
pub trait KindSchemas: Sync {
    /// The schema of objects of `kind` in `api_version` (`v1`, `apps/v1`, `example.com/v1`),
    /// if this source knows it.
    fn schema_of(&self, api_version: &str, kind: &str) -> Option<Node<'_>>;
}

impl<T: KindSchemas + ?Sized> KindSchemas for &T {
    fn schema_of(&self, api_version: &str, kind: &str) -> Option<Node<'_>> {
        (**self).schema_of(api_version, kind)
    }
}

impl<A: KindSchemas, B: KindSchemas> KindSchemas for (A, B) {
    fn schema_of(&self, api_version: &str, kind: &str) -> Option<Node<'_>> {
        self.0
            .schema_of(api_version, kind)
            .or_else(|| self.1.schema_of(api_version, kind))
    }
}

/// A resolved position in a schema: a definition plus the table its indices refer to.
///
/// This is what the engine walks. It is `Copy` and a few words wide, so passing it down the
/// recursion costs nothing.
#[derive(Clone, Copy)]
pub struct Node<'s> {
    table: &'s [TypeDef],
    def: &'s TypeDef,
    /// Whether [`Node::field`] reports recommended merge keys (false below
    /// [`Node::without_recommended_keys`]).
    recommended: bool,
    /// Whether `def` is the declared type of an embedded resource ([`TypeDef::Embedded`]).
    embedded: bool,
    /// Where embedded resources below find their kinds' schemas.
    kinds: Option<&'s dyn KindSchemas>,
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Node({})", self.def.name())
    }
}

impl<'s> Node<'s> {
    /// A node for a `static` definition (derived types).
    ///
    /// Typed code asks for it for every item it diffs, so it is built in place rather than
    /// resolved from a reference.
    #[inline]
    pub fn of_static(def: &'static TypeDef) -> Node<'static> {
        Node {
            table: &[],
            def: TypeDef::OPAQUE,
            recommended: true,
            embedded: false,
            kinds: None,
        }
        .at_def(def)
    }

    /// This node and every node below it with no recommended merge keys: lists merge by their
    /// merge key alone, as upstream's schema says. Patch creation uses it unless asked to emit
    /// `$patchMergeKey` ([`PatchMergeKey`](crate::PatchMergeKey)).
    pub fn without_recommended_keys(self) -> Node<'s> {
        Node {
            recommended: false,
            ..self
        }
    }

    /// This node, whose embedded resources (here or below) are typed by their own `apiVersion`
    /// and `kind` as `kinds` knows them. Without it they are typed by what their schema
    /// declares.
    pub fn with_kinds(self, kinds: &'s dyn KindSchemas) -> Node<'s> {
        Node {
            kinds: Some(kinds),
            ..self
        }
    }

    /// The "knows nothing" node.
    pub fn opaque() -> Node<'static> {
        Node::of_static(TypeDef::OPAQUE)
    }

    /// `def` at this node's table, an embedded resource's declared type standing for it.
    fn at_def(self, def: &'s TypeDef) -> Node<'s> {
        let mut node = Node {
            def,
            embedded: false,
            ..self
        };
        // The loader never nests the variant; a bound keeps a hand-built cycle finite.
        for _ in 0..8 {
            let TypeDef::Embedded(declared) = node.def else {
                break;
            };
            node = Node {
                embedded: true,
                ..node.follow_plain(*declared)
            };
        }
        if matches!(node.def, TypeDef::Embedded(_)) {
            node.def = TypeDef::OPAQUE;
        }
        node
    }

    fn resolve(table: &'s [TypeDef], r: TypeRef) -> Node<'s> {
        Node {
            table,
            def: TypeDef::OPAQUE,
            recommended: true,
            embedded: false,
            kinds: None,
        }
        .follow(r)
    }

    /// The node `r` points to, without looking through an embedded resource.
    fn follow_plain(self, r: TypeRef) -> Node<'s> {
        match r {
            TypeRef::Static(get) => Node {
                table: &[],
                def: get(),
                ..self
            },
            // `Schema::from_table` checked every index; a stray index (a hand-built static
            // pointing into a table it is not part of) degrades to "no metadata", not a panic.
            TypeRef::Index(i) => match self.table.get(i) {
                Some(def) => Node { def, ..self },
                None => Node {
                    table: &[],
                    def: TypeDef::OPAQUE,
                    ..self
                },
            },
        }
    }

    pub(crate) fn follow(self, r: TypeRef) -> Node<'s> {
        let at = self.follow_plain(r);
        at.at_def(at.def)
    }

    /// The definition. For an embedded resource, its declared type.
    pub fn def(self) -> &'s TypeDef {
        self.def
    }

    /// Whether this node is an embedded resource (`x-kubernetes-embedded-resource`), whose
    /// own `apiVersion` and `kind` may type it ([`Node::typed_as`]).
    pub fn is_embedded(self) -> bool {
        self.embedded
    }

    /// The node for an object of `apiVersion` and `kind` at this position: for an embedded
    /// resource whose kind the attached [`KindSchemas`] knows, that kind's schema; otherwise
    /// this node.
    pub fn typed_as(self, api_version: Option<&str>, kind: Option<&str>) -> Node<'s> {
        let (true, Some(kinds), Some(api_version), Some(kind)) =
            (self.embedded, self.kinds, api_version, kind)
        else {
            return self;
        };
        match kinds.schema_of(api_version, kind) {
            Some(found) => Node {
                recommended: self.recommended,
                kinds: self.kinds,
                ..found
            },
            None => self,
        }
    }

    /// Metadata for the member `name` of an object at this node.
    ///
    /// Structs answer with the declared field (searching inlined structs too), maps with their
    /// value type, anything else (and undeclared fields) with "opaque, default strategy".
    pub fn field(self, name: &str) -> FieldMeta<'s> {
        match self.def {
            TypeDef::Struct(s) => self
                .struct_field(s, name, 0)
                .unwrap_or_else(FieldMeta::unknown),
            TypeDef::Map(value) => FieldMeta {
                node: self.follow(*value),
                strategy: Strategy::DEFAULT,
                merge_key: None,
                recommended: &[],
                composite: false,
                directive: false,
                omit_unchanged: false,
                declared: true,
            },
            _ => FieldMeta::unknown(),
        }
    }

    /// Whether the object at this node keeps members its schema does not declare as data
    /// ([`StructDef::open`]; maps and opaque values hold anything).
    pub fn keeps_unknown_members(self) -> bool {
        match self.def {
            TypeDef::Struct(s) => s.open,
            _ => true,
        }
    }

    fn struct_field(self, s: &'s StructDef, name: &str, depth: u8) -> Option<FieldMeta<'s>> {
        // Compared in place: most names are short, and a `memcmp` call costs more.
        let name_bytes = name.as_bytes();
        if let Some(f) = s
            .fields
            .iter()
            .find(|f| same_bytes(f.name.as_bytes(), name_bytes))
        {
            return Some(FieldMeta {
                node: self.follow(f.ty),
                strategy: f.strategy,
                merge_key: f.merge_key.as_deref(),
                // A composite identity is the list's own, not the proposal's: kept either way.
                recommended: if self.recommended || f.composite {
                    &f.recommended
                } else {
                    &[]
                },
                composite: f.composite,
                directive: self.recommended,
                omit_unchanged: f.omit_unchanged,
                declared: true,
            });
        }
        // Inlining cycles would be a schema bug; a small bound keeps lookups total anyway.
        if depth >= 16 {
            return None;
        }
        s.inlined.iter().find_map(|r| {
            let inner = self.follow(*r);
            match inner.def {
                TypeDef::Struct(is) => inner.struct_field(is, name, depth + 1),
                _ => None,
            }
        })
    }

    /// The unions of the object at this node: its own, then those of inlined structs (their
    /// members sit in the same JSON object). Empty for anything but a struct.
    pub fn unions(self) -> Vec<&'s UnionDef> {
        let mut out = Vec::new();
        self.collect_unions(&mut out, 0);
        out
    }

    fn collect_unions(self, out: &mut Vec<&'s UnionDef>, depth: u8) {
        let TypeDef::Struct(s) = self.def else {
            return;
        };
        out.extend(s.unions.iter());
        // The bound of `struct_field`: an inlining cycle is a schema bug.
        if depth < 16 {
            for r in s.inlined.iter() {
                self.follow(*r).collect_unions(out, depth + 1);
            }
        }
    }

    /// The item type when this node is used as a list.
    ///
    /// A non-list node used as a list stands for its own items: upstream's `mergeItemPtr` is
    /// declared as a single `mergeItem` and patched as a list of them, and every upstream
    /// schema variant accepts that.
    pub fn items(self) -> Node<'s> {
        match self.def {
            TypeDef::List(item) => self.follow(*item),
            _ => self,
        }
    }

    /// The definition of the root of a static node. Convenience for tests.
    pub fn is_opaque(self) -> bool {
        matches!(self.def, TypeDef::Opaque)
    }
}

impl<'s> From<&'s Schema> for Node<'s> {
    fn from(schema: &'s Schema) -> Node<'s> {
        schema.root()
    }
}

impl From<&'static TypeDef> for Node<'static> {
    fn from(def: &'static TypeDef) -> Node<'static> {
        Node::of_static(def)
    }
}

/// What the engine learns about one member of an object.
#[derive(Debug, Clone, Copy)]
pub struct FieldMeta<'s> {
    /// The member's type.
    pub node: Node<'s>,
    /// Its strategy.
    pub strategy: Strategy,
    /// Its merge key, if any.
    pub merge_key: Option<&'s str>,
    /// Its recommended (multi-field) merge keys; empty when none.
    pub recommended: &'s [Str],
    /// Whether `recommended` identifies the list's items always (see [`FieldDef::composite`]).
    pub composite: bool,
    /// Whether created patches put `$patchMergeKey` on the items of this list (false under
    /// [`Node::without_recommended_keys`]).
    pub directive: bool,
    /// See [`FieldDef::omit_unchanged`].
    pub omit_unchanged: bool,
    /// False when the schema does not declare the member.
    pub declared: bool,
}

impl FieldMeta<'_> {
    fn unknown<'a>() -> FieldMeta<'a> {
        FieldMeta {
            node: Node::opaque(),
            strategy: Strategy::DEFAULT,
            merge_key: None,
            recommended: &[],
            composite: false,
            directive: false,
            omit_unchanged: false,
            declared: false,
        }
    }
}

mod compare;
pub(crate) mod embedded;

pub use compare::compare;

#[cfg(test)]
mod tests {
    use super::*;

    // A static table is what the derive emits: fields in their own `static`, so that no
    // temporary with a destructor appears in a constant expression.
    static ITEM_FIELDS: [FieldDef; 2] = [
        FieldDef::new(
            "name",
            TypeRef::Static(|| TypeDef::PRIMITIVE),
            Strategy::DEFAULT,
            None,
        ),
        FieldDef::new(
            "children",
            TypeRef::Static(|| &ITEM_LIST),
            Strategy::MERGE,
            Some("name"),
        ),
    ];
    static ITEM: TypeDef = TypeDef::Struct(StructDef::new("item", &ITEM_FIELDS));
    static ITEM_LIST: TypeDef = TypeDef::List(TypeRef::Static(|| &ITEM));

    #[test]
    fn recursive_static_schema_resolves() {
        let root = Node::of_static(&ITEM);
        let children = root.field("children");
        assert!(children.declared);
        assert_eq!(children.merge_key, Some("name"));
        assert!(children.strategy.merges_lists());
        let grand = children.node.items().field("children");
        assert_eq!(grand.merge_key, Some("name"));
        assert!(!root.field("nope").declared);
    }

    #[test]
    fn runtime_table_with_recursion() {
        let item = TypeDef::Struct(StructDef {
            name: "item".into(),
            fields: vec![FieldDef {
                name: "kids".into(),
                ty: TypeRef::Index(1),
                strategy: Strategy::MERGE,
                merge_key: Some("name".into()),
                recommended: Cow::Borrowed(&[]),
                composite: false,
                omit_unchanged: false,
            }]
            .into(),
            inlined: Cow::Borrowed(&[]),
            unions: Cow::Borrowed(&[]),
            open: false,
        });
        let schema = Schema::from_table(
            vec![item, TypeDef::List(TypeRef::Index(0))],
            TypeRef::Index(0),
        )
        .unwrap();
        let kids = schema.root().field("kids");
        assert_eq!(kids.node.items().field("kids").merge_key, Some("name"));
        assert!(
            Schema::from_table(vec![TypeDef::List(TypeRef::Index(7))], TypeRef::Index(0)).is_none()
        );
    }

    #[test]
    fn strategy_spellings() {
        assert_eq!(Strategy::parse("merge").unwrap(), Strategy::MERGE);
        assert_eq!(
            Strategy::parse("merge,retainKeys").unwrap(),
            Strategy::MERGE_RETAIN_KEYS
        );
        assert_eq!(
            Strategy::parse("retainKeys|merge").unwrap(),
            Strategy::MERGE_RETAIN_KEYS
        );
        assert_eq!(
            Strategy::parse("retainKeys").unwrap(),
            Strategy::RETAIN_KEYS
        );
        assert_eq!(Strategy::parse("replace").unwrap(), Strategy::REPLACE);
        assert_eq!(Strategy::parse("").unwrap(), Strategy::DEFAULT);
        assert!(Strategy::parse("merge,replace").is_err());
        assert!(Strategy::parse("merge,merge").is_err());
        assert!(Strategy::parse("bogus").is_err());
        assert_eq!(Strategy::MERGE_RETAIN_KEYS.to_string(), "merge,retainKeys");
    }
}
