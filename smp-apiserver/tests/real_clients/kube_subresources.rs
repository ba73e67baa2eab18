//! The subresources discovery lists, each answered as kube-apiserver v1.34 answers it: a
//! service account's `token` and the reviews that read tokens back, a pod's `eviction`
//! (held back by a PodDisruptionBudget), `binding`, `log`, `exec`, `attach` and `portforward`
//! (with no kubelet behind any node), and the authorization reviews of a server that allows
//! everything.

use base64::Engine as _;
use k8s_openapi::api::authentication::v1::{
    SelfSubjectReview, TokenRequest, TokenRequestSpec, TokenReview, TokenReviewSpec,
};
use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
    SelfSubjectRulesReview, SelfSubjectRulesReviewSpec, SubjectAccessReview,
    SubjectAccessReviewSpec,
};
use k8s_openapi::api::core::v1::{Pod, ServiceAccount};
use k8s_openapi::api::policy::v1::PodDisruptionBudget;
use kube::api::{Api, EvictParams, LogParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::support::{clients, raw, status};

fn pod(name: &str) -> Pod {
    serde_json::from_value(json!({
        "metadata": {"name": name, "labels": {"app": "web"}},
        "spec": {"containers": [{"name": "main", "image": "nginx"}]},
    }))
    .unwrap()
}

/// The claims of a JWT (its middle part), as JSON.
fn claims(token: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT has three parts");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

fn review(token: &str, audiences: Option<Vec<String>>) -> TokenReview {
    TokenReview {
        spec: TokenReviewSpec {
            token: Some(token.to_owned()),
            audiences,
        },
        ..Default::default()
    }
}

/// A TokenRequest is answered with a token the server signed (ES256, the key's id in the
/// header) whose claims are the service token's (`pkg/serviceaccount/claims.go`): issuer,
/// audiences, an expiry `expirationSeconds` after issue, the account in `kubernetes.io`; a
/// TokenReview (no name needed) authenticates it as the account, for its audiences only, and
/// stops doing so once the account is gone.
#[tokio::test]
async fn a_service_account_token_is_signed_and_reviewed() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let accounts: Api<ServiceAccount> = Api::default_namespaced(client.clone());
        accounts
            .create(
                &PostParams::default(),
                &serde_json::from_value(json!({"metadata": {"name": "robot"}})).unwrap(),
            )
            .await
            .unwrap();
        let account = accounts.get("robot").await.unwrap();
        let request = TokenRequest {
            spec: TokenRequestSpec {
                audiences: vec!["vault".into()],
                expiration_seconds: Some(3600),
                bound_object_ref: None,
            },
            ..Default::default()
        };
        let answer: TokenRequest = accounts
            .create_subresource("token", "robot", &PostParams::default(), &request)
            .await
            .unwrap();
        let issued = answer.status.expect("a token");
        let header: Value = serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(issued.token.split('.').next().unwrap())
                .unwrap(),
        )
        .unwrap();
        assert_eq!(header["alg"], "ES256", "{how}");
        assert!(header["kid"].as_str().is_some_and(|k| !k.is_empty()));
        let claims = claims(&issued.token);
        assert_eq!(claims["aud"], json!(["vault"]), "{how}");
        assert_eq!(
            claims["iss"],
            "https://kubernetes.default.svc.cluster.local"
        );
        assert_eq!(claims["sub"], "system:serviceaccount:default:robot");
        assert_eq!(
            claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
            3600
        );
        assert_eq!(claims["iat"], claims["nbf"]);
        assert_eq!(
            claims["kubernetes.io"]["serviceaccount"],
            json!({"name": "robot", "uid": account.metadata.uid.clone().unwrap()})
        );
        assert_eq!(claims["kubernetes.io"]["namespace"], "default");
        assert_eq!(
            issued.expiration_timestamp.0.as_second(),
            claims["exp"].as_i64().unwrap()
        );

        let reviews: Api<TokenReview> = Api::all(client.clone());
        let pp = PostParams::default();
        let good = reviews
            .create(&pp, &review(&issued.token, Some(vec!["vault".into()])))
            .await
            .unwrap()
            .status
            .unwrap();
        assert_eq!(good.authenticated, Some(true), "{how}");
        assert_eq!(good.audiences, Some(vec!["vault".into()]));
        let user = good.user.unwrap();
        assert_eq!(
            user.username.as_deref(),
            Some("system:serviceaccount:default:robot")
        );
        assert_eq!(
            user.groups.unwrap(),
            [
                "system:serviceaccounts",
                "system:serviceaccounts:default",
                "system:authenticated"
            ]
        );
        assert_eq!(user.uid, account.metadata.uid);

        // For the API's own audience, the token (made for vault) is not good.
        let other = reviews
            .create(&pp, &review(&issued.token, None))
            .await
            .unwrap()
            .status
            .unwrap();
        assert_eq!(other.authenticated, None, "{how}");
        assert!(other.error.is_some_and(|e| !e.is_empty()));

        let forged = reviews
            .create(&pp, &review("a.b.c", None))
            .await
            .unwrap()
            .status
            .unwrap();
        assert_eq!(forged.error.as_deref(), Some("invalid bearer token"));

        accounts.delete("robot", &Default::default()).await.unwrap();
        let gone = reviews
            .create(&pp, &review(&issued.token, Some(vec!["vault".into()])))
            .await
            .unwrap()
            .status
            .unwrap();
        assert_eq!(gone.authenticated, None, "{how}");

        // A review must carry a token (`pkg/registry/authentication/tokenreview`).
        let empty = raw(
            &client,
            "POST",
            "/apis/authentication.k8s.io/v1/tokenreviews",
            "application/json",
            Some(
                json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
                "spec": {}}),
            ),
        )
        .await;
        assert_eq!(
            status(&empty),
            (
                400,
                "BadRequest",
                "token is required for TokenReview in authentication"
            )
        );
    }
}

/// A token request's expiry is checked as the server's validation checks it (at least ten
/// minutes), and the token of the default account names the pod it is bound to.
#[tokio::test]
async fn a_token_is_bound_to_a_pod() {
    let clients = clients().await;
    let client = clients.memory.clone();
    let pods: Api<Pod> = Api::default_namespaced(client.clone());
    // The account's name as the ServiceAccount admission plugin would set it.
    let mut bound = pod("bound");
    bound.spec.as_mut().unwrap().service_account_name = Some("default".into());
    let created = pods.create(&PostParams::default(), &bound).await.unwrap();
    let accounts: Api<ServiceAccount> = Api::default_namespaced(client.clone());
    let short = raw(
        &client,
        "POST",
        "/api/v1/namespaces/default/serviceaccounts/default/token",
        "application/json",
        Some(
            json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
            "spec": {"expirationSeconds": 60}}),
        ),
    )
    .await;
    let (code, reason, message) = status(&short);
    assert_eq!((code, reason), (422, "Invalid"));
    assert!(
        message.contains("spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes"),
        "{message}"
    );
    let request: TokenRequest = serde_json::from_value(json!({
        "spec": {"audiences": [], "boundObjectRef": {"kind": "Pod", "apiVersion": "v1",
            "name": "bound", "uid": created.metadata.uid.clone().unwrap()}},
    }))
    .unwrap();
    let answer: TokenRequest = accounts
        .create_subresource("token", "default", &PostParams::default(), &request)
        .await
        .unwrap();
    let token = answer.status.unwrap().token;
    let claims = claims(&token);
    assert_eq!(claims["kubernetes.io"]["pod"]["name"], "bound");
    // No audiences asked: the API's own.
    assert_eq!(
        claims["aud"],
        json!(["https://kubernetes.default.svc.cluster.local"])
    );
    let reviews: Api<TokenReview> = Api::all(client.clone());
    let user = reviews
        .create(&PostParams::default(), &review(&token, None))
        .await
        .unwrap()
        .status
        .unwrap()
        .user
        .unwrap();
    let extra = user.extra.unwrap();
    assert_eq!(extra["authentication.kubernetes.io/pod-name"], ["bound"]);
    // Once the pod is gone, so is the token.
    pods.delete("bound", &Default::default()).await.unwrap();
    let after = reviews
        .create(&PostParams::default(), &review(&token, None))
        .await
        .unwrap()
        .status
        .unwrap();
    assert_eq!(after.authenticated, None);
}

/// A running, ready pod as its kubelet reports it.
async fn running(pods: &Api<Pod>, name: &str) {
    pods.patch_status(
        name,
        &PatchParams::default(),
        &Patch::Merge(json!({"status": {"phase": "Running",
            "conditions": [{"type": "Ready", "status": "True"}]}})),
    )
    .await
    .unwrap();
}

/// An eviction deletes its pod unless the pod's budget allows no disruption: then 429 with
/// the eviction REST's message and a `DisruptionBudget` cause (`pkg/registry/core/pod/storage/
/// eviction.go`); allowed, it spends one disruption and records the pod in the budget.
#[tokio::test]
async fn an_eviction_respects_the_disruption_budget() {
    let clients = clients().await;
    // Without retries: kube's client tries a 429 again.
    for (how, client) in [
        ("in memory", clients.memory.clone()),
        ("over HTTP", clients.http_once.clone()),
    ] {
        let pods: Api<Pod> = Api::default_namespaced(client.clone());
        let pp = PostParams::default();
        for name in ["a", "b"] {
            pods.create(&pp, &pod(name)).await.unwrap();
            running(&pods, name).await;
        }
        let budgets: Api<PodDisruptionBudget> = Api::default_namespaced(client.clone());
        budgets
            .create(
                &pp,
                &serde_json::from_value(json!({"metadata": {"name": "web"},
                    "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}}}))
                .unwrap(),
            )
            .await
            .unwrap();
        // What the disruption controller would write: two healthy, one needed, none spare.
        let budget_status = |allowed: i32| {
            Patch::Merge(
                json!({"status": {"observedGeneration": 1, "currentHealthy": 2,
                "desiredHealthy": 1, "expectedPods": 2, "disruptionsAllowed": allowed}}),
            )
        };
        budgets
            .patch_status("web", &PatchParams::default(), &budget_status(0))
            .await
            .unwrap();
        let refused = pods.evict("a", &EvictParams::default()).await.unwrap_err();
        let kube::Error::Api(refusal) = refused else {
            panic!("{how}: {refused}");
        };
        assert_eq!(refusal.code, 429, "{how}");
        assert_eq!(refusal.reason, "TooManyRequests");
        assert_eq!(
            refusal.message,
            "Cannot evict pod as it would violate the pod's disruption budget."
        );
        let cause = &refusal.details.as_ref().unwrap().causes[0];
        assert_eq!(cause.reason, "DisruptionBudget");
        assert_eq!(
            cause.message,
            "The disruption budget web needs 1 healthy pods and has 2 currently"
        );
        assert!(pods.get_opt("a").await.unwrap().is_some());

        budgets
            .patch_status("web", &PatchParams::default(), &budget_status(1))
            .await
            .unwrap();
        let done = pods.evict("a", &EvictParams::default()).await.unwrap();
        assert_eq!(
            done.status,
            Some(kube::core::response::StatusSummary::Success)
        );
        assert!(pods.get_opt("a").await.unwrap().is_none(), "{how}");
        let spent = budgets.get_status("web").await.unwrap().status.unwrap();
        assert_eq!(spent.disruptions_allowed, 0);
        assert!(spent.disrupted_pods.unwrap().contains_key("a"));

        // A pod no budget selects goes at once.
        let mut lone = pod("lone");
        lone.metadata.labels = None;
        pods.create(&pp, &lone).await.unwrap();
        pods.evict("lone", &EvictParams::default()).await.unwrap();
        assert!(pods.get_opt("lone").await.unwrap().is_none());
        pods.delete("b", &Default::default()).await.unwrap();
        budgets.delete("web", &Default::default()).await.unwrap();
    }
}

/// A Binding (what a scheduler posts) sets the pod's node and its `PodScheduled` condition;
/// binding a bound pod is a conflict (`pkg/registry/core/pod/storage`'s `assignPod`).
#[tokio::test]
async fn a_binding_assigns_the_node() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let pods: Api<Pod> = Api::default_namespaced(client.clone());
        pods.create(&PostParams::default(), &pod("p"))
            .await
            .unwrap();
        let binding = json!({"apiVersion": "v1", "kind": "Binding",
            "metadata": {"name": "p"}, "target": {"kind": "Node", "name": "n1"}});
        let bound = raw(
            &client,
            "POST",
            "/api/v1/namespaces/default/pods/p/binding",
            "application/json",
            Some(binding.clone()),
        )
        .await;
        assert_eq!(bound.code, 201, "{how}: {}", bound.text);
        assert_eq!(bound.body["status"], "Success");
        let pod = pods.get("p").await.unwrap();
        assert_eq!(pod.spec.unwrap().node_name.as_deref(), Some("n1"), "{how}");
        let conditions = pod.status.unwrap().conditions.unwrap();
        assert!(
            conditions
                .iter()
                .any(|c| c.type_ == "PodScheduled" && c.status == "True")
        );
        let again = raw(
            &client,
            "POST",
            "/api/v1/namespaces/default/pods/p/binding",
            "application/json",
            Some(binding),
        )
        .await;
        assert_eq!(
            status(&again),
            (
                409,
                "Conflict",
                "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n1\""
            ),
            "{how}"
        );
    }
}

/// A pod on no node has an empty log and refuses exec, attach and port forwarding with 400;
/// on a node whose kubelet does not answer (there is none), the server's 500 names the
/// address it dialled (`pkg/registry/core/pod/strategy.go`'s locations, the kubelet client).
#[tokio::test]
async fn streams_of_a_pod_with_no_kubelet() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let pods: Api<Pod> = Api::default_namespaced(client.clone());
        pods.create(&PostParams::default(), &pod("s"))
            .await
            .unwrap();
        assert_eq!(pods.logs("s", &LogParams::default()).await.unwrap(), "");
        for sub in [
            "exec?command=ls",
            "attach?stdout=true",
            "portforward?ports=80",
        ] {
            let answer = raw(
                &client,
                "POST",
                &format!("/api/v1/namespaces/default/pods/s/{sub}"),
                "",
                None,
            )
            .await;
            assert_eq!(
                status(&answer),
                (400, "BadRequest", "pod s does not have a host assigned"),
                "{how}: {sub}"
            );
        }
        let wrong = raw(
            &client,
            "GET",
            "/api/v1/namespaces/default/pods/s/log?container=other",
            "",
            None,
        )
        .await;
        assert_eq!(
            status(&wrong),
            (400, "BadRequest", "container other is not valid for pod s")
        );

        // On a node with an address and no kubelet: bound as the scheduler binds it (a pod's
        // `nodeName` cannot be patched: `ValidatePodUpdate` refuses it).
        let binding = json!({"apiVersion": "v1", "kind": "Binding",
            "metadata": {"name": "s"}, "target": {"kind": "Node", "name": "n1"}});
        let bound = raw(
            &client,
            "POST",
            "/api/v1/namespaces/default/pods/s/binding",
            "application/json",
            Some(binding),
        )
        .await;
        assert_eq!(bound.code, 201, "{how}: {}", bound.text);
        let missing = pods.logs("s", &LogParams::default()).await.unwrap_err();
        let kube::Error::Api(missing) = missing else {
            panic!("{how}: {missing}");
        };
        assert_eq!(
            (missing.code, missing.message.as_str()),
            (404, "nodes \"n1\" not found")
        );
        let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(client.clone());
        nodes
            .create(
                &PostParams::default(),
                &serde_json::from_value(json!({"metadata": {"name": "n1"},
                    "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.9"}]}}))
                .unwrap(),
            )
            .await
            .unwrap();
        let log = raw(
            &client,
            "GET",
            "/api/v1/namespaces/default/pods/s/log?tailLines=5",
            "",
            None,
        )
        .await;
        assert_eq!(
            status(&log),
            (
                // A dial error is no API status: 500 with no reason (`ErrorToAPIStatus`).
                500,
                "",
                "Get \"https://10.0.0.9:10250/containerLogs/default/s/main?tailLines=5\": \
                 dial tcp 10.0.0.9:10250: connect: connection refused"
            ),
            "{how}"
        );
        let exec = raw(
            &client,
            "POST",
            "/api/v1/namespaces/default/pods/s/exec?command=ls&stdout=true",
            "",
            None,
        )
        .await;
        assert_eq!(
            status(&exec).2,
            "error dialing backend: dial tcp 10.0.0.9:10250: connect: connection refused"
        );
        nodes.delete("n1", &Default::default()).await.unwrap();
    }
}

/// The authorization reviews of a server that authorizes everything: every access allowed,
/// every rule granted; the requester of an unauthenticated call is anonymous.
#[tokio::test]
async fn access_reviews_allow_everything() {
    let clients = clients().await;
    for (how, client) in clients.each() {
        let pp = PostParams::default();
        let attributes = ResourceAttributes {
            namespace: Some("default".into()),
            verb: Some("delete".into()),
            resource: Some("pods".into()),
            ..Default::default()
        };
        let own: Api<SelfSubjectAccessReview> = Api::all(client.clone());
        let answer = own
            .create(
                &pp,
                &SelfSubjectAccessReview {
                    spec: SelfSubjectAccessReviewSpec {
                        resource_attributes: Some(attributes.clone()),
                        non_resource_attributes: None,
                    },
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert!(answer.status.unwrap().allowed, "{how}");

        let theirs: Api<SubjectAccessReview> = Api::all(client.clone());
        let answer = theirs
            .create(
                &pp,
                &SubjectAccessReview {
                    spec: SubjectAccessReviewSpec {
                        user: Some("jane".into()),
                        resource_attributes: Some(attributes),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert!(answer.status.unwrap().allowed);

        let rules: Api<SelfSubjectRulesReview> = Api::all(client.clone());
        let answer = rules
            .create(
                &pp,
                &SelfSubjectRulesReview {
                    spec: SelfSubjectRulesReviewSpec {
                        namespace: Some("default".into()),
                    },
                    ..Default::default()
                },
            )
            .await
            .unwrap()
            .status
            .unwrap();
        assert_eq!(answer.resource_rules[0].verbs, ["*"]);
        assert_eq!(answer.resource_rules[0].resources, Some(vec!["*".into()]));
        assert!(!answer.incomplete);

        // Neither attributes: the review is invalid.
        let invalid = raw(
            &client,
            "POST",
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            "application/json",
            Some(json!({"apiVersion": "authorization.k8s.io/v1",
                "kind": "SelfSubjectAccessReview", "spec": {}})),
        )
        .await;
        assert_eq!(status(&invalid).0, 422);

        let whoami: Api<SelfSubjectReview> = Api::all(client.clone());
        let me = whoami
            .create(&pp, &SelfSubjectReview::default())
            .await
            .unwrap()
            .status
            .unwrap()
            .user_info
            .unwrap();
        assert_eq!(me.username.as_deref(), Some("system:anonymous"), "{how}");
    }
}
