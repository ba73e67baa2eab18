//! The batch group (`batch/v1`): `pkg/apis/batch/validation` as the Job and CronJob
//! registry strategies of kube-apiserver v1.34 call it.

mod cron;
mod cronjob;
mod job;
mod policies;
mod status;
mod timezone;
mod zones;

use super::kind_rules::{KindRules, StatusRules};

/// The batch kinds whose rules are here.
pub(crate) static KINDS: &[KindRules] = &[
    KindRules {
        group: "batch",
        kind: "Job",
        namespaced: true,
        create: job::job,
        update: job::job_update,
    },
    KindRules {
        group: "batch",
        kind: "CronJob",
        namespaced: true,
        create: cronjob::cron_job,
        update: cronjob::cron_job_update,
    },
];

/// The batch kinds whose status endpoint's rules are here.
pub(crate) static STATUS: &[StatusRules] = &[
    StatusRules {
        group: "batch",
        kind: "Job",
        update: status::job_status_update,
    },
    StatusRules {
        group: "batch",
        kind: "CronJob",
        update: status::cron_job_status_update,
    },
];
