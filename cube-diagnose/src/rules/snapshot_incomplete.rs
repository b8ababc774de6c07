//! `snapshot-incomplete`: part of the cluster could not be read (a kind refused or failing, a
//! limit hit), so what is absent from the snapshot is not known to be absent.

use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    SnapshotIncomplete,
    "snapshot-incomplete",
    Import,
    Warning,
    "Part of the picture could not be read: an input was not recognised at all (no objects, no known message), a live list answered 403 Forbidden, 404 or 5xx, a dump held an API error (kind: Status) instead of a list, or a limit (objects per snapshot, YAML alias expansions, pages, time) was hit. Rules never conclude absence from a kind that could not be read (they say 'could not be read' instead), and the programs exit with 3 (incomplete picture) instead of 0. Grant the missing list permissions (or dump the kinds), or raise the limit named.",
    check
);

declare_rule!(
    SnapshotCoverage,
    "snapshot-coverage",
    Import,
    Info,
    "An object dump holds Node objects but no Pods (and names the other kinds the rules read that it lacks: ResourceQuota, LimitRange, PriorityClass, DaemonSet, Event): the pod-, quota- and device-plugin rules had nothing to read, so a clean result covers the nodes only and is not an all-clear for the cluster. Dump the missing kinds (`kubectl get pods,resourcequotas,limitranges,daemonsets,events -A -o json`, `kubectl get priorityclasses -o json`) and run again. Not said for pastes (`describe`, tables, logs), which are partial by nature. An empty list of Nodes (a complete `NodeList` with no item) is a warning: no pod can run there, or the list was filtered or taken from another context.",
    coverage
);

/// Kinds the rules read besides Node, with what they are read for.
const COVERED_KINDS: [(&str, &str); 6] = [
    ("Pod", "pending and bound pods, requests, GPU pods"),
    ("ResourceQuota", "quota use and GPU quotas"),
    ("LimitRange", "defaults and limits"),
    ("PriorityClass", "priority and preemption"),
    ("DaemonSet", "device-plugin placement"),
    ("Event", "scheduler and kubelet messages"),
];

/// See [`SnapshotCoverage`] (fresh-user report F37: a dump of Nodes only scored 100/100).
fn coverage(ctx: &Context<'_>) -> Vec<Finding> {
    use cube_model::snapshot::KindStatus;
    let snap = ctx.snapshot();
    // a complete list of Nodes with none in it (`kubectl get nodes -o json` of a cluster whose
    // nodes never joined, or of the wrong context, or filtered by a selector): not an
    // all-clear, nothing can run there
    if snap.nodes.is_empty() && matches!(snap.kind_status("Node"), KindStatus::Listed) {
        return vec![
            Finding::new(
                SnapshotCoverage::ID,
                Severity::Warning,
                Subject::cluster(""),
                "the input's list of Nodes is empty: the cluster has no node, so no pod can be scheduled (its nodes never joined or were deleted), or the list was filtered (`-l <selector>`) or taken from another cluster's context; a clean result here says nothing about a cluster's health".to_owned(),
            )
            .with_remedy("`kubectl config current-context` and `kubectl get nodes -o wide` (no selector): join the nodes (`kubeadm token create --print-join-command` on a control-plane node; k3s/rke2: the agent's token and server URL) or dump the right cluster"),
        ];
    }
    // a dump with no object and no typed list at all (`{"kind":"List","items":[]}`, `items:
    // null`; an empty `PodList` says there are no pods and stays quiet): nothing was
    // analysed, which is no all-clear
    // (the dump's own text is kept as a log without a signal: only such texts may be there)
    let only_dumps = !ctx.logs().is_empty()
        && ctx
            .logs()
            .iter()
            .all(|l| empty_generic_list(&l.text) && l.signals_shared().is_empty());
    if snap.object_count() == 0
        && only_dumps
        && snap.missing_kinds.is_empty()
        && snap.kinds_listed.is_empty()
    {
        return vec![
            Finding::new(
                SnapshotCoverage::ID,
                Severity::Warning,
                Subject::cluster(""),
                "the input holds no object at all (an empty List): no rule had anything to read, so a clean result says nothing about a cluster's health".to_owned(),
            )
            .with_remedy("dump the cluster's objects: `kubectl get nodes,pods,daemonsets,resourcequotas,limitranges,events -A -o json` (and `kubectl get priorityclasses -o json`), from the intended context (`kubectl config current-context`)"),
        ];
    }
    // cloud node pools read (cube_model::cloudpool) and no Node, DaemonSet or Pod: whether
    // their GPUs are advertised is unknown, which is no all-clear (the pools alone were read
    // as nothing before they were read at all)
    if !snap.cloud_pools.is_empty()
        && snap.nodes.is_empty()
        && snap.daemon_sets.is_empty()
        && snap.pods.is_empty()
        && !snap.kinds_listed.contains("DaemonSet")
    {
        let pools: Vec<&cube_model::cloudpool::CloudPool> = snap.cloud_pools.iter().collect();
        return vec![
            Finding::new(
                SnapshotCoverage::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "the input names GPU node pool(s) {} but no Node, DaemonSet or Pod: whether the pools' GPUs are advertised (a device plugin running there) is not shown, so a clean result says nothing about them",
                    cube_model::cloudpool::list(&pools)
                ),
            )
            .with_remedy("pass the cluster's view too: `kubectl get daemonsets -A`, `kubectl get nodes -o wide` and `kubectl describe node <gpu node>` (Allocatable)"),
        ];
    }
    let pasted = |m: &cube_model::objects::ObjectMeta| {
        m.annotations
            .keys()
            .any(|k| k.starts_with("cube-model.invalid/"))
    };
    if snap.nodes.is_empty()
        || !ctx.logs().is_empty()
        || snap.nodes.iter().any(|n| pasted(&n.metadata))
        || !matches!(snap.kind_status("Pod"), KindStatus::NotGiven)
    {
        return Vec::new();
    }
    let absent: Vec<&(&str, &str)> = COVERED_KINDS
        .iter()
        .filter(|(k, _)| matches!(snap.kind_status(k), KindStatus::NotGiven))
        .collect();
    let names: Vec<&str> = absent.iter().map(|(k, _)| *k).collect();
    vec![
        Finding::new(
            SnapshotCoverage::ID,
            Severity::Info,
            Subject::cluster(""),
            format!(
                "the input holds {} Node(s) but no {}: the rules that read them had nothing to look at, so a clean result covers the nodes only and says nothing about pods, quotas or device plugins",
                snap.nodes.len(),
                names.join(", ")
            ),
        )
        .with_evidences(
            absent
                .iter()
                .map(|(k, why)| Evidence::field(*k, "in the input", format!("none ({why})"))),
        )
        .with_remedy(format!(
            "dump the missing kinds too and run again: `kubectl get {} -A -o json`",
            names
                .iter()
                .map(|k| resource_of(k))
                .collect::<Vec<_>>()
                .join(",")
        )),
    ]
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    // a whole input nothing recognised: what it says is unknown, never an all-clear
    for log in ctx.logs().iter().filter(|l| l.unrecognised) {
        let first: Vec<String> = log
            .text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(1)
            .map(str::to_owned)
            .collect();
        // read, but only command lines the CLI refused (Inputs::push_log)
        let usage_only = log
            .signals()
            .iter()
            .any(crate::rules::log_catalog::is_cli_usage);
        let (message, remedy) = if usage_only {
            (
                format!(
                    "input {} holds only command lines the CLI itself refused (usage errors): nothing in it tells about the cluster, so the picture is incomplete and the absence of findings is not an all-clear",
                    log.source
                ),
                "run the corrected command and pass its output (`kubectl get <kind> -A -o yaml`, `kubectl describe`), or the log of the failing component",
            )
        } else {
            (
                format!(
                    "input {} was not recognised (no Kubernetes objects, no known log, error or scheduler message): nothing was read from it, so the picture is incomplete and the absence of findings is not an all-clear",
                    log.source
                ),
                "pass the objects themselves (`kubectl get <kind> -A -o yaml`, `kubectl describe`), or the full log with its error lines; a message this tool does not know is worth reading yourself",
            )
        };
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::log(&log.source),
                message,
            )
            .with_evidences(first.iter().map(|l| {
                let line = log.origins.first().map_or(1, |o| o.line);
                Evidence::log(log.source.clone(), line, l)
            }))
            .with_remedy(remedy),
        );
    }
    if !snap.missing_kinds.is_empty() {
        let kinds: Vec<&str> = snap.missing_kinds.keys().map(String::as_str).collect();
        let everything = kinds.len() >= 10;
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "{} kind(s) could not be read ({}): nothing is concluded from their absence, and findings that need them are missing{}",
                    kinds.len(),
                    kinds.join(", "),
                    if everything {
                        "; the picture is mostly unknown"
                    } else {
                        ""
                    }
                ),
            )
            .with_evidences(
                snap.missing_kinds
                    .iter()
                    .map(|(kind, why)| Evidence::field(kind.as_str(), "list", why.as_str())),
            )
            .with_remedy(missing_remedy(&snap.missing_kinds)),
        );
    }
    for hit in &snap.limits_hit {
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!("a limit was hit while reading: {hit}"),
            )
            .with_evidence(Evidence::field(
                hit.subject.as_str(),
                hit.limit.key(),
                hit.observed.map_or_else(
                    || format!("limit {}", hit.max),
                    |o| format!("{o} > {}", hit.max),
                ),
            ))
            .with_remedy(hit.limit.how_to_raise()),
        );
    }
    // items, documents and objects of the input that were not kept (salvage skipped them)
    let skipped: Vec<&cube_model::snapshot::LoadProblem> = snap
        .skipped()
        .filter(|p| !p.message.contains(" object(s) not kept: "))
        .collect();
    if !skipped.is_empty() {
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "{} item(s), document(s) or object(s) of the input could not be read and were skipped: what they held is not in the picture",
                    // identical problems past the first few are folded into one (their count)
                    skipped.iter().map(|p| p.count()).sum::<usize>()
                ),
            )
            .with_evidences(skipped.iter().map(|p| {
                let mut at = p.file.clone();
                at.push_str(&format!(" document {}", p.document));
                if let Some(i) = p.item {
                    at.push_str(&format!(" item {i}"));
                }
                Evidence::field(at, "skipped", p.message.as_str())
            }))
            .with_remedy(
                "fix the input at the places named (or dump it again with `kubectl get -o json`) and run again",
            ),
        );
    }
    // fields the rules read (spec, status, labels) dropped from kept objects: the objects are
    // in the picture, what those fields said is not (fresh-user report F16: a node whose
    // Ready condition is wrongly typed must not read as healthy)
    let dropped: Vec<&cube_model::snapshot::LoadProblem> = snap
        .problems
        .iter()
        .filter(|p| !p.is_skip())
        .filter(|p| {
            p.field.is_empty()
                || p.field.starts_with("spec")
                || p.field.starts_with("status")
                || p.field.starts_with("metadata.labels")
        })
        .collect();
    if !dropped.is_empty() {
        let objects: std::collections::BTreeSet<&str> =
            dropped.iter().map(|p| p.object.as_str()).collect();
        out.push(
            Finding::new(
                SnapshotIncomplete::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "{} field(s) that the rules read could not be read and were dropped from {} object(s) ({}): what they said is unknown, so no conclusion about them is an all-clear",
                    dropped.iter().map(|p| p.count()).sum::<usize>(),
                    objects.len(),
                    objects.iter().take(5).copied().collect::<Vec<_>>().join(", ")
                ),
            )
            .with_evidences(dropped.iter().map(|p| {
                Evidence::field(
                    format!("{} document {}", p.file, p.document),
                    if p.field.is_empty() { "field" } else { p.field.as_str() },
                    format!("{}: {}", p.object, p.message),
                )
            }))
            .with_remedy(
                "fix the fields named (or dump the objects again with `kubectl get -o json`, which writes them with their API types) and run again",
            ),
        );
    }
    out
}

/// Why a kind could not be read, by class of the reason text (fresh-user report F6: an RBAC
/// grant is the remedy of a 403 only). The reason texts are cube-cluster's
/// (`forbidden: ...`, `not found: ...`, `<Reason> (<code>): ...` of an API Status, the HTTP
/// client's transport errors and the limits' `raise it with --limit`), or a dump's `kind:
/// Status` item (`<Reason> (<code>): <message>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum MissingClass {
    /// A bound of the read policy (body size, pages, time, objects).
    Limit,
    /// 403 Forbidden: the reading account lacks list permission.
    Forbidden,
    /// 401 Unauthorized: the credentials are refused.
    Unauthorized,
    /// 404: the API server does not serve the kind.
    NotFound,
    /// 429: the API server throttled the reads (API Priority and Fairness).
    Throttled,
    /// 5xx: the API server or etcd behind it failed to answer.
    ServerError,
    /// 3xx: something answered with a redirect (a proxy, a load balancer, a wrong URL path).
    Redirect,
    /// No answer in time.
    Timeout,
    /// TLS failed.
    Tls,
    /// The connection was refused, reset or closed.
    Connection,
    /// Anything else.
    Other,
}

fn missing_class(why: &str) -> MissingClass {
    let w = why.to_ascii_lowercase();
    let code = |c: &str| w.contains(&format!("({c})")) || w.contains(&format!(" {c} "));
    if w.starts_with("forbidden") || code("403") || w.contains(" is forbidden") {
        MissingClass::Forbidden
    } else if code("401") || w.contains("unauthorized") {
        MissingClass::Unauthorized
    } else if w.starts_with("not found") || code("404") || w.contains("notfound") {
        MissingClass::NotFound
    } else if code("429") || w.contains("toomanyrequests") || w.contains("too many requests") {
        MissingClass::Throttled
    } else if ["500", "502", "503", "504"].iter().any(|c| code(c))
        || w.contains("internalerror")
        || w.contains("serviceunavailable")
        || w.contains("etcdserver")
    {
        MissingClass::ServerError
    } else if ["301", "302", "303", "307", "308"].iter().any(|c| code(c)) || w.contains("redirect")
    {
        MissingClass::Redirect
    } else if w.contains("certificate") || w.contains("x509") || w.contains("tls") {
        MissingClass::Tls
    } else if w.contains("timed out")
        || w.contains("timeout")
        || w.contains("no complete answer within")
    {
        MissingClass::Timeout
    } else if w.contains("raise it with --limit")
        || w.contains("pages-per-list")
        || w.contains("--limit ")
        || w.contains("collection deadline")
    {
        MissingClass::Limit
    } else if w.contains("reset")
        || w.contains("refused")
        || w.contains("connection closed")
        || w.contains("broken pipe")
        || w.contains("eof")
        || w.contains("sendrequest")
    {
        MissingClass::Connection
    } else {
        MissingClass::Other
    }
}

/// One remedy per cause class, each naming its kinds.
fn missing_remedy(missing: &std::collections::BTreeMap<String, String>) -> String {
    let mut by: std::collections::BTreeMap<MissingClass, Vec<&str>> =
        std::collections::BTreeMap::new();
    for (kind, why) in missing {
        by.entry(missing_class(why)).or_default().push(kind);
    }
    // Bootstrap tokens are Secrets of type bootstrap.kubernetes.io/token in kube-system
    // (k8s.io/cluster-bootstrap/token/api): their own dump command, never `secrets -A` (every
    // Secret of every namespace written to a file to read a few tokens: fresh-user G8)
    let dump = |kinds: &[&str]| {
        let mut cmds = Vec::new();
        let others: Vec<String> = kinds
            .iter()
            .filter(|k| **k != "BootstrapToken")
            .map(|k| resource_of(k))
            .collect();
        if !others.is_empty() {
            cmds.push(format!("`kubectl get {} -A -o json`", others.join(",")));
        }
        if kinds.contains(&"BootstrapToken") {
            cmds.push(BOOTSTRAP_DUMP.to_owned());
        }
        cmds.join(" and ")
    };
    let every = by.len() == 1;
    by.iter()
        .map(|(class, kinds)| {
            // one cause for every kind: said once, not the kind list again
            let k = if every && kinds.len() > 3 {
                format!("all {} kinds", kinds.len())
            } else {
                kinds.join(", ")
            };
            match class {
                MissingClass::Limit => format!("{k}: raise the limit named in the evidence (`--limit KEY=N`)"),
                MissingClass::Forbidden => forbidden_remedy(&k, kinds, &dump(kinds)),
                MissingClass::Unauthorized => format!("{k}: the API server refuses the credentials (401): renew the token or client certificate in the kubeconfig"),
                MissingClass::NotFound => format!("{k}: the API server does not serve them (404: the API group is turned off, or the server is older or newer than the path read); no permission is missing; pass dumps if another source has them"),
                MissingClass::Throttled => format!("{k}: the API server throttled the reads (429 Too Many Requests, API Priority and Fairness): run again later or with fewer readers at once; `kubectl get --raw /metrics | grep apiserver_flowcontrol_rejected_requests_total` shows the rejections"),
                MissingClass::ServerError => format!("{k}: the API server (or etcd behind it) failed to answer (5xx): check the control plane (`kubectl get --raw '/readyz?verbose'`, the kube-apiserver and etcd logs) and run again; no permission is missing"),
                MissingClass::Redirect => format!("{k}: something answered with a redirect (3xx), not the API server: the server URL points at a proxy, a load balancer or a web page (check `server:` in the kubeconfig and the proxy settings); the redirect is not followed, so credentials do not travel"),
                MissingClass::Timeout => format!("{k}: no answer in time: check that the API server is reachable and not overloaded (`kubectl get --raw '/readyz?verbose' --request-timeout=10s`), then run again (if it is merely slow, raise the limit named in the evidence)"),
                MissingClass::Tls => format!("{k}: TLS to the API server failed: see cluster-tls-untrusted (the CA in the kubeconfig, the server name, the clocks)"),
                MissingClass::Connection => format!("{k}: the connection was refused, reset or closed: check the network path to the API server (a firewall, a proxy or a load balancer cutting connections, `curl -vk <server>/version`) and run again"),
                MissingClass::Other => format!("{k}: read the reason in the evidence and run again, or pass dumps of them ({})", dump(kinds)),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The dump of bootstrap tokens alone (kubeadm stores them as Secrets of this type in
/// kube-system: k8s.io/cluster-bootstrap/token/api `SecretTypeBootstrapToken`).
const BOOTSTRAP_DUMP: &str = "`kubectl get secrets -n kube-system --field-selector type=bootstrap.kubernetes.io/token -o json`";

/// The remedy of kinds the reading account may not list. The ClusterRole `view` and
/// cube-cluster's `console-readonly` profile grant no Secrets by design (kubernetes
/// plugin/pkg/auth/authorizer/rbac/bootstrappolicy: `view` excludes secrets), so for
/// bootstrap tokens they are not named (fresh-user G43): a Role in kube-system that may list
/// Secrets is (RBAC cannot narrow it to one Secret type), or their own dump.
fn forbidden_remedy(k: &str, kinds: &[&str], dump: &str) -> String {
    let others = kinds.iter().any(|k| *k != "BootstrapToken");
    let mut parts = Vec::new();
    if others {
        parts.push("give the reading account list permission on them (e.g. the ClusterRole `view` bound cluster-wide, or cube-cluster's console-readonly profile)".to_owned());
    }
    if kinds.contains(&"BootstrapToken") {
        parts.push("bootstrap tokens are Secrets in kube-system, which `view` and console-readonly never grant: bind a Role in kube-system that may list secrets (`kubectl create role bootstrap-token-reader -n kube-system --verb=list --resource=secrets`, then a RoleBinding to the reading account; RBAC cannot narrow it to bootstrap tokens), or skip them if no join problem is diagnosed".to_owned());
    }
    format!("{k}: {}, or pass dumps of them ({dump})", parts.join("; "))
}

/// A `kind: List` whose `items` is empty or null, in JSON or YAML (`kubectl get ... -o json`
/// of nothing with a generic List, or a hand-made dump).
fn empty_generic_list(text: &str) -> bool {
    let t = text.trim();
    if t.starts_with('{') {
        return serde_json::from_str::<serde_json::Value>(t).is_ok_and(|v| {
            v.get("kind").and_then(serde_json::Value::as_str) == Some("List")
                && v.get("items")
                    .is_none_or(|i| i.is_null() || i.as_array().is_some_and(Vec::is_empty))
        });
    }
    let lines: Vec<&str> = t.lines().map(str::trim_end).collect();
    let keys: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with([' ', '\t', '-', '#']) && !l.is_empty())
        .collect();
    keys.contains(&"kind: List")
        && keys
            .iter()
            .any(|k| matches!(*k, "items: []" | "items: null" | "items: ~" | "items:"))
        && !lines
            .iter()
            .any(|l| l.starts_with("- ") || l.starts_with("  -"))
}

/// `ResourceQuota` -> `resourcequotas` (for the remedy's kubectl command).
fn resource_of(kind: &str) -> String {
    match kind {
        "PriorityClass" => "priorityclasses".to_owned(),
        "StorageClass" => "storageclasses".to_owned(),
        "BootstrapToken" => "secrets".to_owned(),
        k => format!("{}s", k.to_ascii_lowercase()),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Context, Engine};

    #[test]
    fn an_empty_list_of_anything_is_no_all_clear() {
        for text in [
            r#"{"kind":"List","apiVersion":"v1","items":[]}"#,
            "apiVersion: v1\nkind: List\nitems: null\n",
        ] {
            let f = crate::rules::testutil::run_rule("snapshot-coverage", text);
            assert_eq!(f.len(), 1, "{text}: {f:#?}");
            assert_eq!(f[0].severity, crate::Severity::Warning);
            assert!(f[0].message.contains("no object at all"));
        }
    }

    /// Fresh-user report F6: the remedy follows the cause class of each kind's reason.
    #[test]
    fn an_empty_node_list_is_no_all_clear() {
        let f = crate::rules::testutil::run_rule(
            "snapshot-coverage",
            r#"{"kind":"NodeList","apiVersion":"v1","items":[]}"#,
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Warning);
        assert!(f[0].message.contains("empty"));
        // a List of something else, or no list, says nothing about nodes
        assert!(
            crate::rules::testutil::run_rule(
                "snapshot-coverage",
                r#"{"kind":"PodList","apiVersion":"v1","items":[]}"#
            )
            .is_empty()
        );
    }

    #[test]
    fn remedy_by_cause_class() {
        use super::{MissingClass as C, missing_class};
        for (why, class) in [
            (
                "forbidden: resourcequotas is forbidden: User \"x\" cannot list",
                C::Forbidden,
            ),
            ("Forbidden (403): nodes is forbidden", C::Forbidden),
            (
                "not found: the server could not find the requested resource",
                C::NotFound,
            ),
            (
                "InternalError (500): etcdserver: request timed out",
                C::ServerError,
            ),
            (
                "ServiceUnavailable (503): the server is currently unable to handle the request",
                C::ServerError,
            ),
            (
                "TooManyRequests (429): too many requests, please try again later",
                C::Throttled,
            ),
            ("/api/v1/nodes: the server answered (302): ", C::Redirect),
            (
                "/api/v1/nodes: no complete answer within 5 s; raise it with --limit request-time-secs=N",
                C::Timeout,
            ),
            (
                "client error (SendRequest): connection reset by peer",
                C::Connection,
            ),
            ("invalid peer certificate: UnknownIssuer", C::Tls),
            (
                "incomplete: the objects-per-snapshot limit of 10 was reached (raise it with --limit objects-per-snapshot=N)",
                C::Limit,
            ),
        ] {
            assert_eq!(missing_class(why), class, "{why}");
        }
        let mut snap = cube_model::ClusterSnapshot::new();
        snap.missing_kinds
            .insert("Node".into(), "ServiceUnavailable (503): overloaded".into());
        snap.missing_kinds
            .insert("Pod".into(), "forbidden: pods is forbidden".into());
        let r = Engine::new().run(&Context::new(&snap));
        let f: Vec<_> = r.by_rule("snapshot-incomplete").collect();
        assert!(
            f[0].remedy
                .contains("Node: the API server (or etcd behind it) failed")
                && f[0]
                    .remedy
                    .contains("Pod: give the reading account list permission"),
            "{}",
            f[0].remedy
        );
    }

    #[test]
    fn missing_kinds_are_a_finding_and_exit_3() {
        let mut snap = cube_model::ClusterSnapshot::new();
        snap.missing_kinds.insert(
            "ResourceQuota".into(),
            "forbidden: resourcequotas is forbidden".into(),
        );
        let r = Engine::new().run(&Context::new(&snap));
        let f: Vec<_> = r.by_rule("snapshot-incomplete").collect();
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("ResourceQuota"), "{}", f[0].message);
        assert!(f[0].remedy.contains("resourcequotas"), "{}", f[0].remedy);
        assert_eq!(r.exit_code(), 3);
        assert!(r.incomplete);
    }

    /// Cloud GPU pools alone (JSON or gcloud's YAML) say nothing about the device plugin:
    /// no all-clear.
    #[test]
    fn cloud_gpu_pools_alone_are_no_all_clear() {
        for text in [
            r#"[{"agentPoolProfiles":[{"count":1,"name":"gpu","vmSize":"Standard_NC6"}]}]"#,
            "- name: gpu-pool\n  initialNodeCount: 1\n  config:\n    machineType: n1-standard-4\n    accelerators:\n    - acceleratorCount: \"1\"\n      acceleratorType: nvidia-tesla-t4\n",
        ] {
            let f = crate::rules::testutil::run_rule("snapshot-coverage", text);
            assert_eq!(f.len(), 1, "{text}: {f:#?}");
            assert_eq!(f[0].severity, crate::Severity::Warning);
            assert!(f[0].message.contains("GPU node pool"), "{}", f[0].message);
        }
    }
}
