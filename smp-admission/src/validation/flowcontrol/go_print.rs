//! A spec reported as a bad value, printed as the server prints it: Go's JSON of the internal
//! struct, which has no JSON tags, so members go by their Go names in declaration order, an
//! unset pointer or list prints `null` and an empty list `[]`.

use serde_json::Value;

use crate::validation::field::go_json;
use crate::validation::read;

/// Writes a struct's members in order, each by its Go name.
struct Writer<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Writer<'a> {
    fn open(out: &'a mut String) -> Self {
        out.push('{');
        Writer { out, first: true }
    }

    fn member(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push('"');
        self.out.push_str(name);
        self.out.push_str("\":");
        self.out
    }

    fn text(&mut self, name: &str, value: &str) {
        go_json(&Value::from(value), self.member(name));
    }

    fn int(&mut self, name: &str, value: i64) {
        let out = self.member(name);
        out.push_str(&value.to_string());
    }

    fn opt_int(&mut self, name: &str, value: Option<i64>) {
        let out = self.member(name);
        match value {
            Some(n) => out.push_str(&n.to_string()),
            None => out.push_str("null"),
        }
    }

    fn strings(&mut self, name: &str, holder: &Value, key: &str) {
        let list = holder.get(key).and_then(Value::as_array);
        let out = self.member(name);
        let Some(list) = list else {
            out.push_str("null");
            return;
        };
        out.push('[');
        for (i, item) in list.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            go_json(&Value::from(item.as_str().unwrap_or("")), out);
        }
        out.push(']');
    }

    /// A pointer to a struct: `null` when unset, else the struct `write` prints.
    fn pointer(&mut self, name: &str, value: Option<&Value>, write: fn(&Value, &mut String)) {
        let out = self.member(name);
        match value.filter(|v| v.is_object()) {
            Some(v) => write(v, out),
            None => out.push_str("null"),
        }
    }

    /// A struct held by value: always printed, its members zero when absent.
    fn inline(&mut self, name: &str, value: Option<&Value>, write: fn(&Value, &mut String)) {
        let out = self.member(name);
        write(value.unwrap_or(&Value::Null), out);
    }

    /// A list of structs: `null` when unset.
    fn list(&mut self, name: &str, holder: &Value, key: &str, write: fn(&Value, &mut String)) {
        let list = holder.get(key).and_then(Value::as_array);
        let out = self.member(name);
        let Some(list) = list else {
            out.push_str("null");
            return;
        };
        out.push('[');
        for (i, item) in list.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write(item, out);
        }
        out.push(']');
    }

    fn close(self) {
        self.out.push('}');
    }
}

/// A `FlowSchemaSpec`.
pub(super) fn flow_schema_spec(spec: &Value) -> String {
    let mut out = String::new();
    let mut w = Writer::open(&mut out);
    w.inline(
        "PriorityLevelConfiguration",
        spec.get("priorityLevelConfiguration"),
        |level, out| {
            let mut w = Writer::open(out);
            w.text("Name", read::text(level, "name"));
            w.close();
        },
    );
    w.int("MatchingPrecedence", read::int(spec, "matchingPrecedence"));
    w.pointer(
        "DistinguisherMethod",
        spec.get("distinguisherMethod"),
        |m, out| {
            let mut w = Writer::open(out);
            w.text("Type", read::text(m, "type"));
            w.close();
        },
    );
    w.list("Rules", spec, "rules", rule);
    w.close();
    out
}

fn rule(rule: &Value, out: &mut String) {
    let mut w = Writer::open(out);
    w.list("Subjects", rule, "subjects", subject);
    w.list("ResourceRules", rule, "resourceRules", |r, out| {
        let mut w = Writer::open(out);
        w.strings("Verbs", r, "verbs");
        w.strings("APIGroups", r, "apiGroups");
        w.strings("Resources", r, "resources");
        let scope = w.member("ClusterScope");
        scope.push_str(if read::flag(r, "clusterScope") {
            "true"
        } else {
            "false"
        });
        w.strings("Namespaces", r, "namespaces");
        w.close();
    });
    w.list("NonResourceRules", rule, "nonResourceRules", |r, out| {
        let mut w = Writer::open(out);
        w.strings("Verbs", r, "verbs");
        w.strings("NonResourceURLs", r, "nonResourceURLs");
        w.close();
    });
    w.close();
}

fn subject(subject: &Value, out: &mut String) {
    fn named(v: &Value, out: &mut String) {
        let mut w = Writer::open(out);
        w.text("Name", read::text(v, "name"));
        w.close();
    }
    let mut w = Writer::open(out);
    w.text("Kind", read::text(subject, "kind"));
    w.pointer("User", subject.get("user"), named);
    w.pointer("Group", subject.get("group"), named);
    w.pointer("ServiceAccount", subject.get("serviceAccount"), |a, out| {
        let mut w = Writer::open(out);
        w.text("Namespace", read::text(a, "namespace"));
        w.text("Name", read::text(a, "name"));
        w.close();
    });
    w.close();
}

/// A `PriorityLevelConfigurationSpec`.
pub(super) fn priority_level_spec(spec: &Value) -> String {
    let mut out = String::new();
    let mut w = Writer::open(&mut out);
    w.text("Type", read::text(spec, "type"));
    w.pointer("Limited", spec.get("limited"), |l, out| {
        let mut w = Writer::open(out);
        w.int(
            "NominalConcurrencyShares",
            read::int(l, "nominalConcurrencyShares"),
        );
        w.inline("LimitResponse", l.get("limitResponse"), |r, out| {
            let mut w = Writer::open(out);
            w.text("Type", read::text(r, "type"));
            w.pointer("Queuing", r.get("queuing"), |q, out| {
                let mut w = Writer::open(out);
                w.int("Queues", read::int(q, "queues"));
                w.int("HandSize", read::int(q, "handSize"));
                w.int("QueueLengthLimit", read::int(q, "queueLengthLimit"));
                w.close();
            });
            w.close();
        });
        w.opt_int("LendablePercent", read::opt_int(l, "lendablePercent"));
        w.opt_int(
            "BorrowingLimitPercent",
            read::opt_int(l, "borrowingLimitPercent"),
        );
        w.close();
    });
    w.pointer("Exempt", spec.get("exempt"), |e, out| {
        let mut w = Writer::open(out);
        w.opt_int(
            "NominalConcurrencyShares",
            read::opt_int(e, "nominalConcurrencyShares"),
        );
        w.opt_int("LendablePercent", read::opt_int(e, "lendablePercent"));
        w.close();
    });
    w.close();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn specs_print_with_go_member_names() {
        let spec = json!({"priorityLevelConfiguration": {"name": "exempt"},
            "matchingPrecedence": 1, "rules": [{"subjects": [{"kind": "Group",
            "group": {"name": "system:masters"}}], "nonResourceRules": [{"verbs": ["*"],
            "nonResourceURLs": ["/"]}]}]});
        assert_eq!(
            flow_schema_spec(&spec),
            r#"{"PriorityLevelConfiguration":{"Name":"exempt"},"MatchingPrecedence":1,"DistinguisherMethod":null,"Rules":[{"Subjects":[{"Kind":"Group","User":null,"Group":{"Name":"system:masters"},"ServiceAccount":null}],"ResourceRules":null,"NonResourceRules":[{"Verbs":["*"],"NonResourceURLs":["/"]}]}]}"#
        );
        let level = json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 42,
            "lendablePercent": 0, "limitResponse": {"type": "Reject"}}});
        assert_eq!(
            priority_level_spec(&level),
            r#"{"Type":"Limited","Limited":{"NominalConcurrencyShares":42,"LimitResponse":{"Type":"Reject","Queuing":null},"LendablePercent":0,"BorrowingLimitPercent":null},"Exempt":null}"#
        );
        assert!(
            flow_schema_spec(&json!(null)).starts_with(
                r#"{"PriorityLevelConfiguration":{"Name":""},"MatchingPrecedence":0,"#
            )
        );
    }
}
