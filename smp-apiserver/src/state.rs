//! What every request works on: the store, what is served, the options, the cluster's
//! identity, and the door through which the server's own components make requests.
//!
//! It stands below the handlers, the registries, the controllers and the server, and imports
//! none of them: a component that writes as a client goes through [`State::internal`].

use std::sync::RwLock;

use serde_json::Value;
use smp_ssa::managedfields::Clock;

use crate::custom::{self, Served};
use crate::identity::Identity;
use crate::object;
use crate::status::ApiError;
use crate::store::Store;

/// How the server answers its own components' requests (see [`State::internal`]).
pub(crate) type InternalDoor = fn(&State, Internal<'_>) -> Result<Value, ApiError>;

/// A request of the server's own components.
pub(crate) struct Internal<'a> {
    /// `create`, `delete` or `patch`.
    pub(crate) verb: &'static str,
    pub(crate) api_version: &'a str,
    pub(crate) plural: &'a str,
    pub(crate) namespace: &'a str,
    pub(crate) name: &'a str,
    pub(crate) content_type: &'static str,
    pub(crate) body: &'a [u8],
    /// Who asks (its first word names the field manager).
    pub(crate) user_agent: &'static str,
    /// The query's options.
    pub(crate) query: &'a [(&'a str, &'a str)],
}

/// How the server behaves.
#[derive(Debug, Clone)]
pub struct Options {
    /// The largest request body taken, in bytes (the API server's limit is 3 MiB).
    pub max_body: usize,
    /// Where time stamps come from.
    pub clock: Clock,
    /// Whether custom resources take strategic merge patches, merged by the patch strategies
    /// of their CRD's schema (`x-kubernetes-list-type`, `x-kubernetes-patch-merge-key`, ...)
    /// as smp merges them. The API server refuses them (415 Unsupported Media Type), and so does
    /// this server unless this is set.
    pub custom_resource_strategic_merge: bool,
    /// How often a watch that allows bookmarks (`allowWatchBookmarks`) gets one, with the
    /// latest revision (the API server sends them about once a minute).
    pub bookmark_interval: std::time::Duration,
    /// Whether the garbage collector's work is done, as kube-controller-manager's garbage
    /// collector does it on a cluster: dependents whose owners are gone are deleted, an owner
    /// deleted in the foreground waits for its dependents, an orphaning one takes its owner
    /// references off them (on by default; envtest, which runs no controllers, has none).
    pub garbage_collection: bool,
    /// Whether built-in objects get the defaults kube-apiserver v1.34 gives them when it
    /// decodes a write (`smp_admission::defaulting`: a Deployment's strategy, a container's
    /// pull policy, quantities in canonical form...), before its field manager records the
    /// write (on by default; off stores objects as written).
    pub defaulting: bool,
    /// Whether built-in objects are validated as kube-apiserver v1.34 validates them on create
    /// and update (`smp_admission::validation`), an invalid write answered with its 422 and
    /// nothing stored (on by default; off stores whatever decodes).
    pub validation: bool,
    /// The admission plugins run on built-in objects (`smp_admission::admission`): the
    /// mutating ones on create (a Pod's service account token, priority and tolerations, a
    /// claim's default StorageClass...), PodSecurity after validation on create and update
    /// (a namespace's `pod-security.kubernetes.io/*` labels, with kube-apiserver's default
    /// configuration); all of kube-apiserver's default ones unless changed.
    pub admission: smp_admission::admission::Plugins,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_body: 3 * 1024 * 1024,
            clock: Clock::System,
            custom_resource_strategic_merge: false,
            bookmark_interval: std::time::Duration::from_secs(60),
            garbage_collection: true,
            defaulting: true,
            validation: true,
            admission: smp_admission::admission::Plugins::all(),
        }
    }
}

pub(crate) struct State {
    /// How requests of the server's own components are answered: `handlers::internal`,
    /// which the server gives here (the handlers stand above this module, which reaches them
    /// only through this door).
    internal: InternalDoor,
    pub(crate) store: Store,
    /// What is served now: replaced when a CRD is written.
    served: RwLock<Served>,
    pub(crate) options: Options,
    /// Held while the controllers work (one at a time).
    pub(crate) controllers: std::sync::Mutex<()>,
    /// The cluster's CA and token signing key.
    pub(crate) identity: Identity,
    /// Held while a Service is created, from picking its addresses to recording them.
    pub(crate) allocator: std::sync::Mutex<()>,
}

impl State {
    /// A state with the built-in resources served and nothing stored.
    pub(crate) fn new(options: Options, internal: InternalDoor) -> State {
        State {
            internal,
            store: Store::default(),
            served: RwLock::new(Served::builtin()),
            options,
            controllers: std::sync::Mutex::new(()),
            allocator: std::sync::Mutex::new(()),
            identity: Identity::new().expect("the system gives randomness for the cluster's key"),
        }
    }

    /// A request of the server's own components (its controllers, its start, a registry's
    /// follow-up writes), answered as any client's.
    pub(crate) fn internal(&self, request: Internal<'_>) -> Result<Value, ApiError> {
        (self.internal)(self, request)
    }

    /// What is served now.
    pub(crate) fn served(&self) -> Served {
        self.served
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// After a write to CRDs: new CRDs given their status, the objects of those gone removed,
    /// and what is served made again from the store.
    pub(crate) fn crds_changed(&self) {
        let before = self.served();
        let (crds, _) = self.store.list(custom::CRDS, None, None);
        for (key, stored) in crds {
            if custom::needs_status(&stored.object) {
                let mut crd = (*stored.object).clone();
                crd["status"] = custom::established(&crd, &self.options.clock.now());
                // Changed meanwhile: that write brings its own refresh.
                let _ = self.store.replace(&key, stored.revision, crd);
            }
        }
        let after = Served::from_store(&self.store, self.options.custom_resource_strategic_merge);
        let names: std::collections::BTreeSet<&str> =
            after.crds.iter().map(|c| object::meta(c, "name")).collect();
        for gone in before
            .crds
            .iter()
            .filter(|c| !names.contains(object::meta(c, "name")))
        {
            custom::remove_objects(&self.store, gone);
        }
        *self.served.write().unwrap_or_else(|e| e.into_inner()) = after;
    }
}
