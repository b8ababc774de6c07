//! Offline kubeconfig problems of an import report, each class under a rule of its own (never
//! `cluster-unreachable`: nothing was contacted):
//! - `cluster-kubeconfig-invalid`: the client refuses the kubeconfig as written (a dangling
//!   context, cluster or user; no or a bad server URL; certificate material that is not PEM, not
//!   a certificate, expired or not yet valid; a key that does not match its certificate; CA
//!   together with `insecure-skip-tls-verify`; ...);
//! - `cluster-insecure-tls`: `insecure-skip-tls-verify: true` (loadable, but the server is not
//!   authenticated), or the server certificate does not name the host the client verifies;
//! - `cluster-kubeconfig-warning`: loadable with caveats (a Rancher-proxied endpoint and its
//!   token, plugins, several authentication methods, credentials dropped over plain http).
//!
//! Evidence is written for people: the problem's own text, the context and entry it is about,
//! and its kind id; never a Rust Debug name.

use cube_model::import::{ImportReport, KubeconfigProblem, ProblemSeverity};

use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ClusterKubeconfigInvalid,
    "cluster-kubeconfig-invalid",
    Import,
    Error,
    "A kubeconfig given to import a cluster is refused by the client as written, before any connection: the selected context names a cluster or user that does not exist (a typo), the cluster has no or an unparseable server URL, certificate-authority or client certificate data is not PEM, holds no certificate, is expired or not yet valid, the client key does not match its certificate, or certificate-authority is combined with insecure-skip-tls-verify. Offline problems, not an unreachable server.",
    check_invalid
);

declare_rule!(
    ClusterInsecureTls,
    "cluster-insecure-tls",
    Import,
    Warning,
    "A kubeconfig turns TLS verification off (insecure-skip-tls-verify: true): the connection works but the API server is not authenticated, so credentials can be sent to anyone on the path. Also fires when the server certificate, read once connected, does not name the host the client verifies (the connection only works while verification is off).",
    check_insecure
);

declare_rule!(
    ClusterKubeconfigWarning,
    "cluster-kubeconfig-warning",
    Import,
    Warning,
    "A kubeconfig loads but with caveats the importer should know: a Rancher-proxied endpoint (`/k8s/clusters/<id>`: connectivity, RBAC and token expiry are Rancher's), exec or auth-provider plugins, several authentication methods at once, credentials that client-go drops over plain http, impersonation.",
    check_warning
);

/// Kinds reported by `cluster-insecure-tls` (cube-cluster `ProblemKind` ids).
const INSECURE: &[&str] = &["insecure-skip-tls-verify", "server-name-not-in-certificate"];

/// Kinds reported elsewhere: the CA key used as client identity is an over-privilege.
const ELSEWHERE: &[&str] = &["ca-key-as-client-identity"];

fn place(p: &KubeconfigProblem) -> String {
    if p.context.is_empty() {
        return "kubeconfig file".to_owned();
    }
    let context = format!("context {:?}", p.context);
    if p.subject.is_empty() || p.subject == context {
        context
    } else {
        format!("{context}, {}", p.subject)
    }
}

fn evidence(r: &ImportReport, p: &KubeconfigProblem) -> Evidence {
    let mut text = format!("{}: {}", place(p), p.message);
    if !p.suggestion.is_empty() {
        text.push_str(&format!(" ({})", p.suggestion));
    }
    Evidence::field(
        format!("Cluster/{}", r.cluster_name),
        format!("kubeconfig.{}", p.kind),
        text,
    )
}

fn server(r: &ImportReport) -> String {
    if r.server.is_empty() {
        String::new()
    } else {
        format!(" at {}", r.server)
    }
}

fn check_invalid(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let errors: Vec<&KubeconfigProblem> = r
            .kubeconfig_problems
            .iter()
            .filter(|p| p.severity == ProblemSeverity::Error)
            .filter(|p| {
                !INSECURE.contains(&p.kind.as_str()) && !ELSEWHERE.contains(&p.kind.as_str())
            })
            .collect();
        let Some(first) = errors.first() else {
            continue;
        };
        let kinds: std::collections::BTreeSet<&str> =
            errors.iter().map(|p| p.kind.as_str()).collect();
        let remedy = if kinds
            .iter()
            .any(|k| k.starts_with("dangling") || *k == "current-context-not-found")
        {
            "`kubectl config get-contexts` and `kubectl config view --minify`: point the context at an existing cluster and user entry (the suggestion names the nearest existing name)"
        } else if kinds
            .iter()
            .any(|k| k.starts_with("certificate") || k.starts_with("key"))
        {
            "export fresh credentials from the cluster (`kubeadm kubeconfig user`, or the admin.conf of a control-plane node), check the clocks, and replace the certificate data named in the evidence"
        } else {
            "`kubectl config view --minify` and fix the field named in the evidence; the client refuses the file before connecting"
        };
        out.push(
            Finding::new(
                ClusterKubeconfigInvalid::ID,
                Severity::Error,
                Subject::cluster(&r.cluster_name),
                format!(
                    "kubeconfig of cluster {}{} is refused before any connection: {}{}",
                    r.cluster_name,
                    server(r),
                    first.message,
                    if errors.len() > 1 {
                        format!(" (and {} more problem(s))", errors.len() - 1)
                    } else {
                        String::new()
                    }
                ),
            )
            .with_evidences(errors.iter().map(|p| evidence(r, p)))
            .with_remedy(remedy),
        );
    }
    out
}

fn check_insecure(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let found: Vec<&KubeconfigProblem> = r
            .kubeconfig_problems
            .iter()
            .filter(|p| INSECURE.contains(&p.kind.as_str()))
            .collect();
        if found.is_empty() {
            continue;
        }
        let severity = if found.iter().any(|p| p.severity == ProblemSeverity::Error) {
            Severity::Error
        } else {
            Severity::Warning
        };
        let contexts: std::collections::BTreeSet<&str> = found
            .iter()
            .map(|p| p.context.as_str())
            .filter(|c| !c.is_empty())
            .collect();
        out.push(
            Finding::new(
                ClusterInsecureTls::ID,
                severity,
                Subject::cluster(&r.cluster_name),
                format!(
                    "cluster {}{}: TLS verification of the API server is off or would fail ({})",
                    r.cluster_name,
                    server(r),
                    if contexts.is_empty() {
                        "the selected context".to_owned()
                    } else {
                        format!("context(s) {}", contexts.into_iter().collect::<Vec<_>>().join(", "))
                    }
                ),
            )
            .with_evidences(found.iter().map(|p| evidence(r, p)))
            .with_remedy("remove insecure-skip-tls-verify and put the cluster CA in certificate-authority-data (`kubectl config view --raw` on a control-plane node, or /etc/kubernetes/pki/ca.crt); connect with a name in the serving certificate's SANs or set tls-server-name"),
        );
    }
    out
}

fn check_warning(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let found: Vec<&KubeconfigProblem> = r
            .kubeconfig_problems
            .iter()
            .filter(|p| p.severity != ProblemSeverity::Error)
            .filter(|p| {
                !INSECURE.contains(&p.kind.as_str()) && !ELSEWHERE.contains(&p.kind.as_str())
            })
            .collect();
        let Some(first) = found.first() else {
            continue;
        };
        let severity = if found.iter().any(|p| p.severity == ProblemSeverity::Warning) {
            Severity::Warning
        } else {
            Severity::Info
        };
        let rancher = found.iter().any(|p| p.kind == "rancher-proxy");
        out.push(
            Finding::new(
                ClusterKubeconfigWarning::ID,
                severity,
                Subject::cluster(&r.cluster_name),
                format!(
                    "kubeconfig of cluster {}{} loads with caveats: {}{}",
                    r.cluster_name,
                    server(r),
                    first.message,
                    if found.len() > 1 {
                        format!(" (and {} more)", found.len() - 1)
                    } else {
                        String::new()
                    }
                ),
            )
            .with_evidences(found.iter().map(|p| evidence(r, p)))
            .with_remedy(if rancher {
                "a Rancher-proxied endpoint is governed by Rancher (its certificate, its token expiry, its RBAC mapping): import the downstream cluster's own endpoint with a dedicated ServiceAccount where possible, or keep the Rancher token's expiry in mind"
            } else {
                "review the listed caveats (`kubectl config view --minify`); prefer one authentication method, a dedicated ServiceAccount token and https"
            }),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_model::import::ConnectionClass;
    use cube_model::snapshot::ClusterSnapshot;

    fn problem(sev: ProblemSeverity, kind: &str, ctx: &str, msg: &str) -> KubeconfigProblem {
        KubeconfigProblem {
            severity: sev,
            kind: kind.into(),
            context: ctx.into(),
            subject: "cluster \"prod\"".into(),
            message: msg.into(),
            suggestion: String::new(),
        }
    }

    fn run(r: ImportReport) -> Vec<Finding> {
        let snap = ClusterSnapshot::new();
        let ctx = Context::new(&snap).with_import(r);
        crate::Engine::new().run(&ctx).findings
    }

    #[test]
    fn each_class_under_its_own_rule_and_never_unreachable() {
        let mut r = ImportReport::new("prod", "https://192.0.2.1:6443");
        r.connection.class = ConnectionClass::NotChecked;
        r.kubeconfig_problems = vec![
            problem(
                ProblemSeverity::Error,
                "dangling-cluster",
                "a",
                "context \"a\" refers to cluster \"prdo\", which does not exist",
            ),
            problem(
                ProblemSeverity::Warning,
                "insecure-skip-tls-verify",
                "b",
                "TLS verification is disabled",
            ),
            problem(
                ProblemSeverity::Info,
                "rancher-proxy",
                "c",
                "server is a Rancher proxy",
            ),
        ];
        let f = run(r);
        let ids: Vec<&str> = f.iter().map(|x| x.rule_id.as_str()).collect();
        assert!(ids.contains(&"cluster-kubeconfig-invalid"), "{ids:?}");
        assert!(ids.contains(&"cluster-insecure-tls"), "{ids:?}");
        assert!(ids.contains(&"cluster-kubeconfig-warning"), "{ids:?}");
        assert!(!ids.contains(&"cluster-unreachable"), "{ids:?}");
        for x in &f {
            let text = format!("{} {:?} {}", x.message, x.evidence, x.remedy);
            assert!(!text.contains("curl -vk"), "{text}");
            assert!(
                !text.contains("ConfigInvalid") && !text.contains("NotChecked"),
                "{text}"
            );
        }
    }
}
