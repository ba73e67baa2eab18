//! The members of a container its checks read, gathered in one walk (`read::view!`): the
//! container checks of `containers.rs` and the probe and hook checks of `probes.rs` share it.

use crate::validation::read;

read::view! {
    /// The members of a container that its checks read.
    pub(super) struct Container {
        name: "name",
        image: "image",
        termination_message_policy: "terminationMessagePolicy",
        ports: "ports",
        env: "env",
        env_from: "envFrom",
        volume_mounts: "volumeMounts",
        volume_devices: "volumeDevices",
        image_pull_policy: "imagePullPolicy",
        resources: "resources",
        resize_policy: "resizePolicy",
        security_context: "securityContext",
        lifecycle: "lifecycle",
        liveness_probe: "livenessProbe",
        readiness_probe: "readinessProbe",
        startup_probe: "startupProbe",
        restart_policy: "restartPolicy",
        restart_policy_rules: "restartPolicyRules",
    }
}
