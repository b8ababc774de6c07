//! Cluster-join agents failing on their own credentials: a 401 in the text of a multi-cluster
//! tool is about the credential that tool holds for (or in) the member cluster, never about
//! the user's kubeconfig.
//!
//! Two sides, told apart by whose log or view the text is:
//!
//! - **The hub's stored credential for a member** (cluster-unauthorized, subject the member):
//!   Argo CD's cluster Secret holding the `argocd-manager` ServiceAccount token that `argocd
//!   cluster add` created in the member (argoproj/argo-cd util/clusterauth/clusterauth.go;
//!   `argocd cluster list` prints STATUS `Failed` with the sync error as MESSAGE,
//!   cmd/argocd/commands/cluster.go printClusterTable and controller/clusterinfoupdater.go;
//!   argocd-server turns a Kubernetes 401 into gRPC `Unauthenticated`, util/grpc/errors.go
//!   kubeErrToGRPC), Karmada's Push-mode health check with the token `karmadactl join` stored
//!   (karmada-io/karmada pkg/controllers/status/cluster_status_controller.go `Failed to do
//!   cluster health check for cluster`), Rancher's health check of a downstream cluster with the
//!   `cattle` ServiceAccount token its cattle-cluster-agent handed over (rancher/rancher
//!   pkg/controllers/managementuser/healthsyncer/healthsyncer.go (pkg/controllers/user/healthsyncer before v2.6) `Failed to communicate with API server during namespace check`; the agent
//!   reads that token in pkg/agent/cluster/cluster.go and Rancher replaces its stored copy when
//!   the agent connects with another, pkg/tunnelserver `updated service account token for
//!   cluster`).
//! - **The agent in the member, rejected with its own credential** (agent-registration-failed,
//!   subject the agent's log): Rancher's cattle-cluster-agent / cattle-node-agent (its `cattle`
//!   ServiceAccount against the downstream API server), karmada-agent in Pull mode (the client
//!   certificate of its karmada-kubeconfig Secret against karmada-apiserver, cmd/agent/app),
//!   Open Cluster Management's klusterlet (its hub-kubeconfig-secret against the hub).
//!
//! Each attributed [`SignalKind::Unauthorized`] signal gets the details `agent`, `agent_side`
//! (`hub` or `member`), `member` (when the text names it), `agent_cause` and `agent_remedy`;
//! hub-side signals are about `Cluster/<member>`.
//!
//! Also here: a Rancher agent log whose errors are followed by remotedialer's `Connected to
//! proxy` (rancher/remotedialer client.go ConnectToProxyWithDialer) and no later error has
//! reconnected: its earlier connection errors are history, kept as one info signal.

use std::collections::BTreeMap;

use super::{Signal, SignalKind};
use crate::Subject;

/// A cluster-join agent or hub a text is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Joiner {
    /// Argo CD's application controller / server with its stored cluster Secret (hub).
    ArgoCd,
    /// Rancher's health check with the cattle token it stored for the downstream cluster (hub).
    RancherServer,
    /// Karmada's controller-manager with the token `karmadactl join` stored (hub, Push mode).
    KarmadaPush,
    /// Rancher's cattle-cluster-agent / cattle-node-agent (member).
    RancherAgent,
    /// karmada-agent (member, Pull mode).
    KarmadaAgent,
    /// Open Cluster Management's klusterlet registration agent (member).
    Klusterlet,
}

impl Joiner {
    fn hub(self) -> bool {
        matches!(
            self,
            Joiner::ArgoCd | Joiner::RancherServer | Joiner::KarmadaPush
        )
    }
    fn name(self) -> &'static str {
        match self {
            Joiner::ArgoCd => "Argo CD (argocd-application-controller / argocd-server)",
            Joiner::RancherServer => "Rancher (its health check of the downstream cluster)",
            Joiner::KarmadaPush => "karmada-controller-manager (Push mode)",
            Joiner::RancherAgent => "Rancher's cattle-cluster-agent",
            Joiner::KarmadaAgent => "karmada-agent (Pull mode)",
            Joiner::Klusterlet => "the klusterlet (Open Cluster Management)",
        }
    }
    /// Cause and remedy, `m` the member's name (or a description of it).
    fn says(self, m: &str) -> (String, String) {
        match self {
            Joiner::ArgoCd => (
                format!(
                    "Argo CD's own credential for the member cluster {m} is rejected (401): the bearer token of the argocd-manager ServiceAccount that `argocd cluster add` created in {m} (kube-system unless --system-namespace said otherwise), stored in Argo CD's cluster Secret (argocd namespace, label argocd.argoproj.io/secret-type=cluster); the ServiceAccount or its token Secret was deleted or rotated, or {m} was rebuilt with a new ServiceAccount signing key. The user's kubeconfig and `argocd login` are not involved"
                ),
                format!(
                    "register the cluster again so Argo CD stores a valid token: with a kubeconfig context for {m}, `argocd cluster add <context> --upsert` (re-creates argocd-manager and its token Secret if they are gone); if the argocd-manager ServiceAccount still exists, `argocd cluster rotate-auth <server>` issues it a new token; then `argocd cluster list` shows the cluster Successful (Argo CD before v1.8 kept an old token until `kubectl -n argocd rollout restart statefulset argocd-application-controller`)"
                ),
            ),
            Joiner::RancherServer => (
                format!(
                    "Rancher's own credential for the downstream cluster {m} is rejected (401): the token of the cattle ServiceAccount (cattle-system) that cattle-cluster-agent handed to Rancher, which Rancher uses for its health check; the downstream cluster was restored from a backup or rebuilt (new ServiceAccount signing key) or the token's Secret was deleted. The user's kubeconfig is not involved"
                ),
                "on the downstream cluster restart the agent so it creates a fresh token for the cattle ServiceAccount and hands it to Rancher when it connects (Rancher replaces its stored copy): `kubectl -n cattle-system rollout restart deploy/cattle-cluster-agent`; if the agent cannot connect either, re-run the registration command Rancher shows for the cluster (Cluster Management > the cluster > Registration: `kubectl apply -f https://<rancher>/v3/import/<token>.yaml`)".to_owned(),
            ),
            Joiner::KarmadaPush => (
                format!(
                    "Karmada's own credential for the member cluster {m} is rejected (401): the token of the ServiceAccount `karmadactl join` created in the member's karmada-cluster namespace, stored in a Secret of karmada-cluster on the Karmada control plane (deleted by an unjoin, rotated, or the member rebuilt); the user's kubeconfig is not involved"
                ),
                format!(
                    "join the member again so Karmada stores a valid token: `karmadactl unjoin {m} --kubeconfig=<karmada-apiserver.config>`, then `karmadactl join {m} --kubeconfig=<karmada-apiserver.config> --cluster-kubeconfig=<member kubeconfig>`; or register the member in Pull mode (`karmadactl register`), whose agent renews its own credential"
                ),
            ),
            Joiner::RancherAgent => (
                format!(
                    "Rancher's cattle-cluster-agent in {m} is rejected (401) by that cluster's own API server with its own credential, the token of the cattle ServiceAccount (cattle-system) it runs as: the token was deleted or rotated, or the cluster was restored or rebuilt with another ServiceAccount signing key; Rancher loses the cluster until the agent works. The user's kubeconfig is not involved"
                ),
                "restart the agent so it gets a fresh ServiceAccount token: `kubectl -n cattle-system rollout restart deploy/cattle-cluster-agent` (and `kubectl -n cattle-system rollout restart ds/cattle-node-agent` where it exists); if it is still rejected, re-run the registration command Rancher shows for the cluster (Cluster Management > the cluster > Registration), which re-creates the cattle ServiceAccount and the agent".to_owned(),
            ),
            Joiner::KarmadaAgent => (
                format!(
                    "karmada-agent in the member cluster {m} is rejected (401) by karmada-apiserver with its own credential, the client certificate in its karmada-kubeconfig Secret (karmada-system of the member) that `karmadactl register` issued: the certificate expired (agents before v1.4 do not rotate it), or the Karmada control plane was re-installed with a new CA. The user's kubeconfig is not involved"
                ),
                format!(
                    "register the member again: on the Karmada control plane `karmadactl token create --print-register-command --kubeconfig=<karmada-apiserver.config>`, then on {m} `karmadactl unregister <name> ...` (or delete the karmada-agent Deployment and the karmada-kubeconfig Secret in karmada-system) and run the printed `karmadactl register` command; with karmada-agent v1.4 or later the certificate is rotated before it expires (`--cert-rotation-checking-interval`)"
                ),
            ),
            Joiner::Klusterlet => (
                format!(
                    "the klusterlet's registration agent in {m} is rejected (401) by the hub with its own credential, the client certificate in hub-kubeconfig-secret (open-cluster-management-agent) issued when the cluster was accepted: it expired without renewal, or the hub was re-installed. The user's kubeconfig is not involved"
                ),
                "make the klusterlet bootstrap again: `kubectl -n open-cluster-management-agent delete secret hub-kubeconfig-secret` on the managed cluster (the registration agent re-registers with its bootstrap-hub-kubeconfig), then on the hub `clusteradm accept --clusters <name>`; if the bootstrap token expired too, re-run the `clusteradm join` command printed by `clusteradm get token` on the hub".to_owned(),
            ),
        }
    }
}

/// The Argo CD `argocd cluster list` table (cmd/argocd/commands/cluster.go printClusterTable:
/// `SERVER NAME VERSION STATUS MESSAGE PROJECT`): the rows' 0-based line indexes with server,
/// name and status.
struct ArgoRow {
    line: usize,
    server: String,
    name: String,
    status: String,
}

fn argocd_rows(text: &str) -> Vec<ArgoRow> {
    let mut out = Vec::new();
    let mut in_table = false;
    for (i, l) in text.lines().enumerate() {
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.len() >= 5
            && words[..4] == ["SERVER", "NAME", "VERSION", "STATUS"]
            && words.contains(&"MESSAGE")
        {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        if words.is_empty() || !words[0].starts_with("http") {
            in_table = false;
            continue;
        }
        // the status is the first of Argo CD's ConnectionStatus words after the server
        // (pkg/apis/application/v1alpha1/types.go: Successful, Failed, Unknown); the name and
        // version cells before it may be empty
        let Some(at) = words
            .iter()
            .position(|w| matches!(*w, "Successful" | "Failed" | "Unknown"))
        else {
            continue;
        };
        let name = if at >= 2 { words[1] } else { "" };
        out.push(ArgoRow {
            line: i,
            server: words[0].to_owned(),
            name: name.to_owned(),
            status: words[at].to_owned(),
        });
    }
    out
}

/// The clusters of the `argocd cluster list` tables in `text` when every one connects: STATUS
/// `Successful`, or `Unknown` with the controller's own note that a cluster without
/// applications is not monitored (controller/clusterinfoupdater.go `Cluster has no
/// applications and is not being monitored.`). `None` when the text holds no such table or a
/// cluster failed (then its row's message is classified on its own).
pub(crate) fn argocd_all_connected(text: &str) -> Option<(&'static str, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let rows = argocd_rows(text);
    if rows.is_empty() {
        return None;
    }
    let mut names = Vec::new();
    for r in &rows {
        let unmonitored = r.status == "Unknown"
            && lines.get(r.line).is_some_and(|l| {
                l.contains("Cluster has no applications and is not being monitored.")
            });
        if r.status != "Successful" && !unmonitored {
            return None;
        }
        names.push(if r.name.is_empty() {
            r.server.clone()
        } else {
            r.name.clone()
        });
    }
    Some(("Argo CD cluster list", names))
}

/// The agent a line (or, failing that, the whole text) is about, with the member it names.
fn agent_of(line: &str, text: &Whole) -> Option<Joiner> {
    // the user's own Argo CD session (server/server.go `invalid session: %v`) is the user's
    // credential, not the cluster Secret's
    if line.contains("invalid session") {
        return None;
    }
    // `argocd cluster add` itself (REST config invalid: the new token is refused at once) is
    // the registration, not a stored credential gone stale
    if line.contains("REST config invalid") || text.argocd_add {
        return None;
    }
    if line.contains("during namespace check") {
        return Some(Joiner::RancherServer);
    }
    if line.contains("ComparisonError")
        || line.contains("failed to sync cluster")
        || line.contains("failed to get cluster info for")
        || (line.contains("code = Unauthenticated") && text.argocd)
    {
        return Some(Joiner::ArgoCd);
    }
    if text.karmada_agent {
        return Some(Joiner::KarmadaAgent);
    }
    if line.contains("Failed to do cluster health check for cluster")
        || (line.contains("cluster_status_controller") && text.karmada)
    {
        return Some(Joiner::KarmadaPush);
    }
    if text.klusterlet {
        return Some(Joiner::Klusterlet);
    }
    if text.rancher_agent {
        return Some(Joiner::RancherAgent);
    }
    if text.argocd {
        return Some(Joiner::ArgoCd);
    }
    None
}

/// What the whole text says about its origin.
struct Whole {
    argocd: bool,
    argocd_add: bool,
    karmada: bool,
    karmada_agent: bool,
    klusterlet: bool,
    rancher_agent: bool,
}

impl Whole {
    fn scan(text: &str) -> Self {
        let lower = text.to_ascii_lowercase();
        Whole {
            argocd: lower.contains("argocd ")
                || lower.contains("argocd-application-controller")
                || lower.contains("argocd-server")
                || lower.contains("argoproj.io"),
            argocd_add: lower.contains("argocd cluster add"),
            karmada: lower.contains("karmada"),
            karmada_agent: lower.contains("karmada-agent"),
            klusterlet: lower.contains("klusterlet")
                || lower.contains("open-cluster-management-agent")
                || lower.contains("hub-kubeconfig-secret"),
            rancher_agent: lower.contains("cattle-cluster-agent")
                || lower.contains("cattle-node-agent")
                || lower.contains("/v3/connect")
                || lower.contains("cattle-credentials"),
        }
    }
}

/// The member a line names for `agent`, else the text's (an Argo CD table row, `Server:` of
/// `argocd app get`, a Rancher cluster id, `--context` of the command).
fn member_of(agent: Joiner, line_idx: usize, line: &str, text: &str, rows: &[ArgoRow]) -> String {
    let by_server = |server: &str| -> String {
        rows.iter()
            .find(|r| r.server == server && !r.name.is_empty())
            .map_or_else(|| server.to_owned(), |r| r.name.clone())
    };
    match agent {
        Joiner::ArgoCd => {
            if let Some(r) = rows.iter().find(|r| r.line == line_idx) {
                return if r.name.is_empty() {
                    r.server.clone()
                } else {
                    r.name.clone()
                };
            }
            for key in ["failed to sync cluster ", "failed to get cluster info for "] {
                if let Some(p) = line.find(key) {
                    let server = line[p + key.len()..]
                        .trim_start_matches(['"', '\\'])
                        .split(['"', '\\', ' ', ':'])
                        .next()
                        .unwrap_or("");
                    // `https` alone: the URL was split at its scheme
                    let rest = &line[p + key.len()..];
                    let url: String = rest
                        .trim_start_matches(['"', '\\'])
                        .chars()
                        .take_while(|c| !matches!(c, '"' | '\\' | ' '))
                        .collect();
                    let url = url.trim_end_matches(':');
                    if !server.is_empty() && url.starts_with("http") {
                        return by_server(url);
                    }
                }
            }
            // one failed row: the text is about it
            let failed: Vec<&ArgoRow> = rows.iter().filter(|r| r.status == "Failed").collect();
            if let [r] = failed.as_slice() {
                return if r.name.is_empty() {
                    r.server.clone()
                } else {
                    r.name.clone()
                };
            }
            if let Some(server) = text.lines().find_map(|l| {
                l.trim_start()
                    .strip_prefix("Server:")
                    .map(|s| s.trim().to_owned())
            }) && server.starts_with("http")
            {
                return by_server(&server);
            }
            String::new()
        }
        Joiner::KarmadaPush => {
            if let Some(p) = line.find("for cluster ") {
                let name: String = line[p + "for cluster ".len()..]
                    .chars()
                    .take_while(|c| !matches!(c, ',' | ' ' | '"'))
                    .collect();
                if !name.is_empty() {
                    return name;
                }
            }
            super::quoted_after(line, "cluster=").unwrap_or_default()
        }
        Joiner::RancherServer => text
            .split_whitespace()
            .find(|w| {
                let w = w.trim_matches(['"', '\'']);
                (w.starts_with("c-m-") || w.starts_with("c-")) && w.len() >= 7 && w.len() <= 12
            })
            .map(|w| w.trim_matches(['"', '\'']).to_owned())
            .unwrap_or_default(),
        Joiner::RancherAgent | Joiner::KarmadaAgent | Joiner::Klusterlet => text
            .split_whitespace()
            .skip_while(|w| *w != "--context")
            .nth(1)
            .or_else(|| {
                text.split_whitespace()
                    .find_map(|w| w.strip_prefix("--context="))
            })
            .map(str::to_owned)
            .unwrap_or_default(),
    }
}

/// Rancher's agent checks the chain its server-url serves against the CA it was given before it
/// connects (rancher/rancher cmd/agent/main.go: `Issuer of last certificate found in chain
/// (...) does not match with CA certificate Issuer (...)`, `Certficate's Subject (...) does
/// not match with previous certificate Issuer (...)`), then fails on the same certificate with
/// Go's x509 error (`level=fatal msg="Get \"https://<server-url>\": x509: ...`). One cause:
/// the x509 signals of that agent log become further lines of the CA-check finding (same
/// catalog entry, so agent-registration-failed counts and quotes them), never a second finding
/// with the client kubeconfig's remedy.
fn rancher_ca_check(out: &mut [Signal], text: &str) {
    let Some(entry) = out
        .iter()
        .map(|s| s.detail("entry"))
        .find(|e| {
            matches!(
                *e,
                "rancher.agent-issuer-mismatch" | "rancher.agent-chain-order"
            )
        })
        .map(str::to_owned)
    else {
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    for s in out.iter_mut().filter(|s| {
        matches!(
            s.kind,
            SignalKind::TlsUntrusted | SignalKind::TlsNameMismatch | SignalKind::TlsExpired
        )
    }) {
        let raw = lines.get(s.line.saturating_sub(1)).copied().unwrap_or("");
        if !raw.contains("x509") {
            continue;
        }
        s.details
            .insert("tls_kind".to_owned(), format!("{:?}", s.kind));
        s.kind = SignalKind::Known;
        s.details.insert("entry".to_owned(), entry.clone());
    }
}

/// karmada-agent (or another Karmada component) failing TLS because karmada-apiserver's
/// certificate is past its NotAfter: the Karmada control plane's certificates, issued by
/// `karmadactl init` with `--cert-validity-period` (default 365 days,
/// karmada-io/karmada pkg/karmadactl/cmdinit/cmdinit.go) and kept in the `karmada-cert` Secret
/// of karmada-system (pkg/karmadactl/options/global.go) and /etc/karmada/pki, are not renewed
/// by any Karmada component. The signal gets `karmada_apiserver` so cluster-tls-untrusted
/// names them, not the client's kubeconfig or kubeadm.
fn karmada_server_cert(out: &mut [Signal], text: &str) {
    let lower = text.to_ascii_lowercase();
    if !lower.contains("karmada") {
        return;
    }
    let lines: Vec<&str> = text.lines().collect();
    for s in out.iter_mut().filter(|s| s.kind == SignalKind::TlsExpired) {
        let raw = lines.get(s.line.saturating_sub(1)).copied().unwrap_or("");
        if raw.contains(".karmada.io/")
            || raw.contains("karmada-apiserver")
            || raw.contains("karmada-cluster")
            || lower.contains("karmada-agent")
        {
            s.details
                .insert("karmada_apiserver".to_owned(), "true".to_owned());
        }
    }
}

/// The identities `karmadactl register` and a bootstrapping karmada-agent act as on
/// karmada-apiserver (karmada-io/karmada pkg/karmadactl/register/register.go: the bootstrap
/// token authenticates as `system:bootstrap:<token id>` in the group
/// `system:bootstrappers:karmada:default-cluster-token`, pkg/karmadactl/util/bootstraptoken/
/// bootstraptoken.go DefaultGroups; from v1.12 the RBAC of the agent is created through a
/// certificate for `system:karmada:agent:rbac-generator`, register.go AgentRBACGenerator).
const KARMADA_RBAC_GENERATOR: &str = "system:karmada:agent:rbac-generator";

/// A Karmada registration text (`karmadactl register`, `kubectl karmada register`, its
/// `[karmada-agent-start]` phase lines, karmada-agent's own log).
fn karmada_register_text(lower: &str) -> bool {
    lower.contains("karmadactl register")
        || lower.contains("karmada register")
        || lower.contains("[karmada-agent-start]")
        || lower.contains("karmada-agent")
}

/// `get clusters`, `create certificatesigningrequests`, `get leases in karmada-cluster`; `do
/// what it asked` when the line named nothing.
fn forbidden_what(s: &Signal) -> String {
    if s.detail("verb").is_empty() && s.detail("resource").is_empty() {
        return "do what it asked (the answer names neither the verb nor the resource)".to_owned();
    }
    format!(
        "{} {}{}",
        s.detail("verb"),
        s.detail("resource"),
        match s.detail("scope") {
            "" | "cluster" => String::new(),
            ns => format!(" in {ns}"),
        }
    )
}

/// `Forbidden`, `error: Forbidden`, `Error: Forbidden`, `Error from server (Forbidden)`: a 403
/// with no message of its own (client-go's StatusError text for a body without a Status).
fn bare_forbidden(text: &str) -> bool {
    let t = text.trim().trim_end_matches('.');
    let t = t
        .strip_prefix("error:")
        .or_else(|| t.strip_prefix("Error:"))
        .unwrap_or(t)
        .trim();
    matches!(
        t,
        "Forbidden" | "forbidden" | "Error from server (Forbidden)"
    )
}

/// Pull-mode registration refused by karmada-apiserver's RBAC, and the bootstrap token of a
/// Karmada registration.
///
/// - A 403 for the bootstrap identities (`system:bootstrap:<id>` in a Karmada registration
///   text, `system:karmada:agent:rbac-generator` anywhere): the token authenticated, but the
///   Karmada control plane lacks the bootstrap RBAC that `karmadactl init` and the Helm chart
///   create (pkg/karmadactl/cmdinit/bootstraptoken/agent/tlsbootstrap.go: ClusterRoleBindings
///   `system:karmada:agent-bootstrap` to `system:node-bootstrapper`,
///   `system:karmada:agent-autoapprove-bootstrap`, `system:karmada:agent-autoapprove-certificate-
///   rotation`; pkg/karmadactl/cmdinit/karmada/rbac.go grantAccessPermissionToAgentRBACGenerator
///   `system:karmada:agent-rbac-generator`; charts/karmada/templates/
///   _karmada_bootstrap_token_configuration.tpl): a control plane installed by karmada-operator,
///   by hand, or by an older karmadactl, or a token not made by `karmadactl token create` (its
///   group is not Karmada's). The signal becomes the agent's own (agent-registration-failed,
///   `agent_side` member), never the user's RBAC (cluster-forbidden); `system:anonymous` on
///   kube-public/cluster-info stays cluster-forbidden's own reading.
/// - A bootstrap token signal (no JWS signature, unknown or expired token) in a Karmada
///   registration text gets `join_tool` `karmadactl register`: the remedy is Karmada's token,
///   not kubeadm's, though the discovery texts are kubeadm's own code copied
///   (register.go getClusterInfoFromControlPlane / validateClusterInfoToken).
fn karmada_bootstrap(out: &mut [Signal], text: &str) {
    let lower = text.to_ascii_lowercase();
    let register = lower.contains("karmada") && karmada_register_text(&lower);
    for s in out.iter_mut() {
        // a bare `Forbidden` (karmadactl printing a 403 whose body named no user, `error:
        // Forbidden`) in a registration text: the same refusal, its identity unnamed
        if register && s.kind == SignalKind::Unrecognised && bare_forbidden(&s.text) {
            s.kind = SignalKind::RbacForbidden;
            for k in ["closest", "closest_template", "score", "marked"] {
                s.details.remove(k);
            }
            s.details
                .insert("user".to_owned(), "system:bootstrap:<token id>".to_owned());
        }
        match s.kind {
            SignalKind::RbacForbidden => {
                let user = s.detail("user").to_owned();
                // the registered agent's own identity (register.go generateAgentUserName:
                // `system:karmada:agent:<cluster>`, bound by the ClusterRoleBinding
                // `system:karmada:<cluster>:agent` that registration creates)
                if let Some(cluster) = user
                    .strip_prefix("system:karmada:agent:")
                    .filter(|c| !c.is_empty() && user != KARMADA_RBAC_GENERATOR)
                {
                    let what = forbidden_what(s);
                    s.object = Some(Subject::cluster(cluster));
                    s.details
                        .insert("agent".to_owned(), "karmada-agent".to_owned());
                    s.details
                        .insert("agent_side".to_owned(), "member".to_owned());
                    s.details.insert(
                        "agent_cause".to_owned(),
                        format!("karmada-apiserver refuses the karmada-agent of member {cluster} (it authenticates as {user} with its client certificate) to {what}: the RBAC that registration created for it on the Karmada control plane (ClusterRole and ClusterRoleBinding `system:karmada:{cluster}:agent`, Role and RoleBinding in its execution namespace karmada-es-{cluster}) was deleted, or the agent is newer than that RBAC. The user's kubeconfig is not involved"),
                    );
                    s.details.insert(
                        "agent_remedy".to_owned(),
                        format!("on karmada-apiserver check `kubectl get clusterrolebinding system:karmada:{cluster}:agent` and `kubectl -n karmada-es-{cluster} get rolebinding`; register the member again to re-create them: `karmadactl unregister {cluster} ...` on the member, then the command printed by `karmadactl token create --print-register-command --kubeconfig=<karmada-apiserver.config>`"),
                    );
                    continue;
                }
                let generator = user == KARMADA_RBAC_GENERATOR;
                if !(generator || (register && user.starts_with("system:bootstrap:"))) {
                    continue;
                }
                let what = forbidden_what(s);
                let cause = format!(
                    "karmada-apiserver authenticates the registration as {user} but its RBAC does not let it {what}: the Karmada control plane lacks the bootstrap RBAC that `karmadactl init` and the Helm chart create for Pull-mode registration (installed by karmada-operator, by hand, or by an older karmadactl than the one registering), or the token was not made by `karmadactl token create` (its group is not system:bootstrappers:karmada:default-cluster-token). The user's kubeconfig is not involved"
                );
                let remedy = "on karmada-apiserver (`--kubeconfig=<karmada-apiserver.config>`) check the bootstrap RBAC: `kubectl get clusterrolebinding system:karmada:agent-bootstrap system:karmada:agent-autoapprove-bootstrap system:karmada:agent-autoapprove-certificate-rotation system:karmada:agent-rbac-generator`; create what is missing as karmada's Helm chart does (templates/_karmada_bootstrap_token_configuration.tpl: the group system:bootstrappers:karmada:default-cluster-token bound to system:node-bootstrapper and to system:karmada:certificatesigningrequest:autoapprover, the user system:karmada:agent:rbac-generator bound to system:karmada:agent-rbac-generator), or use a karmadactl of the control plane's version; then make a token with `karmadactl token create --print-register-command --kubeconfig=<karmada-apiserver.config>` and register with the printed command".to_owned();
                s.details
                    .insert("agent".to_owned(), "karmada-agent".to_owned());
                s.details
                    .insert("agent_side".to_owned(), "member".to_owned());
                s.details.insert("agent_cause".to_owned(), cause);
                s.details.insert("agent_remedy".to_owned(), remedy);
            }
            SignalKind::JoinTokenUnknown | SignalKind::JoinTokenSecretMismatch if register => {
                s.details
                    .insert("join_tool".to_owned(), "karmadactl register".to_owned());
            }
            _ => {}
        }
    }
}

/// The cluster an `argocd cluster add` command line registers: `--name` when given, else the
/// kubeconfig context argument (argoproj/argo-cd cmd/argocd/commands/cluster.go
/// NewClusterAddCommand: `argocd cluster add CONTEXT [--name NAME]`).
fn argocd_add_target(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains("argocd cluster add "))?;
    let rest = &line[line.find("argocd cluster add ")? + "argocd cluster add ".len()..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut context = None;
    let mut name = None;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let Some(v) = w.strip_prefix("--name=") {
            name = Some(v);
        } else if w == "--name" {
            name = words.get(i + 1).copied();
            i += 1;
        } else if w.starts_with('-') {
            // a flag with its value in the next word (`--kubeconfig FILE`), unless `--flag=v`
            // or a boolean (`--upsert`, `-y`, `--yes`, `--in-cluster`, `--insecure`)
            let boolean = w.contains('=')
                || matches!(
                    w,
                    "--upsert"
                        | "-y"
                        | "--yes"
                        | "--in-cluster"
                        | "--insecure"
                        | "--grpc-web"
                        | "--plaintext"
                        | "--cluster-endpoint"
                        | "--system-namespace"
                        | "--core"
                );
            if !boolean {
                i += 1;
            }
        } else if context.is_none() {
            context = Some(w);
        }
        i += 1;
    }
    name.or(context)
        .map(|n| n.trim_matches(['"', '\'']).to_owned())
        .filter(|n| !n.is_empty())
}

/// `argocd cluster add`'s failures that come back from argocd-server (a gRPC status, `rpc
/// error: code = ... desc = ...`, often `REST config invalid: ...`, argoproj/argo-cd
/// cmd/argocd/commands/cluster.go NewClusterAddCommand then server/cluster/cluster.go Create,
/// which checks the cluster with the `argocd-manager` ServiceAccount token the CLI just made,
/// util/clusterauth/clusterauth.go): the member's answer to argocd-server, from the Argo CD
/// cluster's network and with the CA and token the CLI sent, not the CLI's own connection.
/// Its TLS and 401 signals get `dialer` `argocd-server` and the cluster being added as their
/// subject; a 401 becomes the hub's stored credential (`agent_side` hub) with Argo CD's cause.
fn argocd_add(out: &mut [Signal], text: &str) {
    if !text.contains("argocd cluster add") {
        return;
    }
    let target = argocd_add_target(text);
    let lines: Vec<&str> = text.lines().collect();
    for s in out.iter_mut() {
        let raw = lines.get(s.line.saturating_sub(1)).copied().unwrap_or("");
        // the CLI's FATA line, and with --core the in-process server's own gRPC log line
        // (util/grpc/logging: `finished unary call with code <code>`)
        if !raw.contains("rpc error: code = ") && !raw.contains("finished unary call with code") {
            continue;
        }
        let tls = matches!(
            s.kind,
            SignalKind::TlsUntrusted | SignalKind::TlsNameMismatch | SignalKind::TlsExpired
        );
        if tls || s.kind == SignalKind::Unauthorized {
            s.details
                .insert("dialer".to_owned(), "argocd-server".to_owned());
        }
        // argocd-server's own dial (classify tags its connection failures `dialer`)
        if s.detail("dialer") != "argocd-server" {
            continue;
        }
        if let Some(t) = &target {
            s.object = Some(Subject::cluster(t));
            s.details.insert("member".to_owned(), t.clone());
        }
        if s.kind == SignalKind::Unauthorized {
            let m = target.as_deref().unwrap_or("the cluster");
            s.details.insert("agent".to_owned(), "Argo CD".to_owned());
            s.details.insert("agent_side".to_owned(), "hub".to_owned());
            s.details.insert(
                "agent_cause".to_owned(),
                format!(
                    "`argocd cluster add` created the argocd-manager ServiceAccount in {m} with the local kubeconfig, then argocd-server checked the cluster with that ServiceAccount's token at the kubeconfig's server address and was rejected (401): that address does not lead to an API server that accepts the member's own ServiceAccount tokens (a proxy such as Rancher's https://<rancher>/k8s/clusters/<id> or a cloud console endpoint that authenticates its own users only, a load balancer in front of another cluster), or the token was deleted again; the CLI's own credentials worked"
                ),
            );
            s.details.insert(
                "agent_remedy".to_owned(),
                format!(
                    "add the cluster through an address of {m}'s own API server (Rancher: the cluster's Authorized Cluster Endpoint or its nodes' :6443, not /k8s/clusters/<id>), by a kubeconfig context whose server is that address: `argocd cluster add <context> --name {m} --upsert`; check first that the address takes the ServiceAccount's token: a kubeconfig user with a token from `kubectl -n kube-system create token argocd-manager` must be able to run `kubectl get --raw /version` against that address"
                ),
            );
        }
    }
}

/// Attributes the text's 401 signals to the join agent or hub whose credential failed, and
/// folds a reconnected Rancher agent's earlier connection errors into one info signal.
pub(crate) fn in_context(out: &mut Vec<Signal>, source: &str, text: &str) {
    rancher_reconnected(out, source, text);
    rancher_ca_check(out, text);
    karmada_server_cert(out, text);
    karmada_bootstrap(out, text);
    argocd_add(out, text);
    let rows = if text.contains("SERVER") && text.contains("STATUS") {
        argocd_rows(text)
    } else {
        Vec::new()
    };
    // whatever a failed row of `argocd cluster list` says (a timeout, a TLS error, a 401), it
    // is about that cluster
    for s in out.iter_mut().filter(|s| s.object.is_none()) {
        if let Some(r) = rows
            .iter()
            .find(|r| r.line + 1 == s.line && r.status == "Failed")
        {
            let name = if r.name.is_empty() {
                &r.server
            } else {
                &r.name
            };
            s.object = Some(Subject::cluster(name));
        }
    }
    if !out.iter().any(|s| s.kind == SignalKind::Unauthorized) {
        return;
    }
    let whole = Whole::scan(text);
    let lines: Vec<&str> = text.lines().collect();
    for s in out
        .iter_mut()
        .filter(|s| s.kind == SignalKind::Unauthorized)
    {
        // a finer reading of the line already (the API server's own authenticator, a
        // kubeconfig's exec plugin, a Karmada member told in prose)
        if s.detail("entry").starts_with("apiserver.authn-")
            || s.detail("entry") == "client.exec-plugin-failed"
            || !s.detail("karmada_member").is_empty()
        {
            continue;
        }
        if !s.detail("agent").is_empty() {
            continue;
        }
        let raw = lines.get(s.line.saturating_sub(1)).copied().unwrap_or("");
        let Some(agent) = agent_of(raw, &whole) else {
            continue;
        };
        let member = member_of(agent, s.line.saturating_sub(1), raw, text, &rows);
        let shown = if member.is_empty() {
            "the member cluster".to_owned()
        } else {
            member.clone()
        };
        let (cause, remedy) = agent.says(&shown);
        let mut d: BTreeMap<String, String> = BTreeMap::new();
        d.insert("agent".to_owned(), agent.name().to_owned());
        d.insert(
            "agent_side".to_owned(),
            if agent.hub() { "hub" } else { "member" }.to_owned(),
        );
        d.insert("agent_cause".to_owned(), cause);
        d.insert("agent_remedy".to_owned(), remedy);
        if !member.is_empty() {
            d.insert("member".to_owned(), member.clone());
            if agent.hub() {
                s.object = Some(Subject::cluster(&member));
            }
        }
        s.details.extend(d);
    }
}

/// A Rancher agent log that reconnected: remotedialer logs `Connected to proxy` once the
/// websocket is up (rancher/remotedialer client.go); when no error follows it in the text, the
/// earlier connection errors of the agent (refused, reset, timeouts, `Remotedialer proxy
/// error`, an empty dialer response) are history. They are replaced by one info signal on the
/// reconnect line that names them (nothing dropped without a word). A later error, or a
/// rejection by Rancher itself (401, `cluster not found`, a CA checksum), keeps them all.
fn rancher_reconnected(out: &mut Vec<Signal>, source: &str, text: &str) {
    if !text.contains("Connected to proxy") {
        return;
    }
    let lines: Vec<&str> = text.lines().collect();
    // the raw logrus line, or the message the paste reader reduced it to
    // (`Connected to proxy url="wss://..."`)
    let Some(at) = lines.iter().rposition(|l| {
        l.contains("msg=\"Connected to proxy\"")
            || l.contains("\"msg\":\"Connected to proxy\"")
            || l.trim_start().starts_with("Connected to proxy")
    }) else {
        return;
    };
    let later_error = lines[at + 1..]
        .iter()
        .any(|l| crate::catalog::marked_error(l) || l.contains("level=warning"));
    if later_error {
        return;
    }
    let transient = |s: &Signal| {
        s.line <= at + 1
            && (crate::rules::is_connection(s.kind)
                || s.kind == SignalKind::Unrecognised
                || matches!(
                    s.detail("entry"),
                    "rancher.remotedialer-error"
                        | "rancher.proxy-empty-response"
                        | "rancher.proxy-conflict"
                ))
    };
    let earlier: Vec<usize> = out
        .iter()
        .filter(|s| transient(s))
        .map(|s| s.line)
        .collect();
    if earlier.is_empty() {
        return;
    }
    out.retain(|s| !transient(s));
    let mut d = BTreeMap::new();
    d.insert("entry".to_owned(), "rancher.agent-reconnected".to_owned());
    let mut shown: Vec<String> = earlier.iter().map(usize::to_string).collect();
    shown.dedup();
    d.insert("earlier".to_owned(), shown.join(", "));
    out.push(Signal {
        kind: SignalKind::Known,
        source: source.to_owned(),
        line: at + 1,
        text: crate::finding::redact(lines[at].trim()),
        join: false,
        object: None,
        details: d,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unauthorized(text: &str) -> Vec<Signal> {
        super::super::classify("t", text)
            .into_iter()
            .filter(|s| s.kind == SignalKind::Unauthorized)
            .collect()
    }

    #[test]
    fn argocd_list_row_and_app_condition_name_the_member_and_the_stored_token() {
        let t = "$ argocd cluster list\nSERVER                          NAME        VERSION  STATUS      MESSAGE                                                     PROJECT\nhttps://10.0.0.21:6443          dev         1.21     Failed      the server has asked for the client to provide credentials\nhttps://kubernetes.default.svc  in-cluster  1.20     Successful\nComparisonError: the server has asked for the client to provide credentials\n";
        let s = unauthorized(t);
        assert!(!s.is_empty());
        for s in &s {
            assert_eq!(s.detail("agent_side"), "hub", "{s:#?}");
            assert_eq!(s.detail("member"), "dev");
            assert!(s.detail("agent_remedy").contains("argocd cluster add"));
            assert_eq!(s.object, Some(Subject::cluster("dev")));
        }
        // argocd-server's gRPC Unauthenticated for a member's 401, versus the user's session
        let sync = "$ argocd app sync guestbook\nFATA[0001] rpc error: code = Unauthenticated desc = the server has asked for the client to provide credentials\n";
        assert_eq!(unauthorized(sync)[0].detail("agent_side"), "hub");
        let session = "$ argocd app list\nFATA[0000] rpc error: code = Unauthenticated desc = invalid session: token has invalid claims: token is expired\n";
        assert!(
            unauthorized(session)
                .iter()
                .all(|s| s.detail("agent").is_empty())
        );
    }

    #[test]
    fn agents_in_the_member_are_told_apart_from_the_hub() {
        let karmada = "$ kubectl -n karmada-system logs deploy/karmada-agent\nE0412 08:15:02.118310       1 reflector.go:147] k8s.io/client-go/informers/factory.go:159: Failed to watch *v1alpha1.Cluster: failed to list *v1alpha1.Cluster: Unauthorized\n";
        let s = unauthorized(karmada);
        assert_eq!(s[0].detail("agent_side"), "member", "{s:#?}");
        assert!(s[0].detail("agent_remedy").contains("karmadactl register"));
        let push = "E1202 02:26:35.036648       1 cluster_status_controller.go:289] Failed to do cluster health check for cluster member-47, err is : Unauthorized\n";
        let s = unauthorized(push);
        assert_eq!(s[0].detail("agent_side"), "hub");
        assert_eq!(s[0].detail("member"), "member-47");
        let rancher = "Cluster health check failed: Failed to communicate with API server during namespace check: Unauthorized\n";
        assert_eq!(unauthorized(rancher)[0].detail("agent_side"), "hub");
        // a plain kubectl 401 stays the user's
        let user = "error: You must be logged in to the server (Unauthorized)\n";
        assert!(unauthorized(user)[0].detail("agent").is_empty());
    }

    #[test]
    fn a_reconnected_rancher_agent_keeps_one_info_signal() {
        let t = "time=\"2024-03-05T09:12:01Z\" level=error msg=\"Failed to connect to proxy. Empty dialer response\" error=\"dial tcp 10.0.0.5:443: connect: connection refused\"\ntime=\"2024-03-05T09:12:01Z\" level=error msg=\"Remotedialer proxy error\" error=\"dial tcp 10.0.0.5:443: connect: connection refused\"\ntime=\"2024-03-05T09:12:11Z\" level=info msg=\"Connected to proxy\" url=\"wss://rancher.example.com/v3/connect\"\n";
        let s = super::super::classify_all("t", t);
        assert_eq!(s.len(), 1, "{s:#?}");
        assert_eq!(s[0].detail("entry"), "rancher.agent-reconnected");
        assert_eq!(s[0].detail("earlier"), "1, 2");
        // an error after the reconnect keeps everything
        let again = format!(
            "{t}time=\"2024-03-05T09:13:11Z\" level=error msg=\"Remotedialer proxy error\" error=\"websocket: close 1006\"\n"
        );
        let s = super::super::classify_all("t", &again);
        assert!(
            s.iter()
                .all(|s| s.detail("entry") != "rancher.agent-reconnected")
        );
    }

    #[test]
    fn karmada_registration_identities_are_the_agents_own() {
        let all = |t: &str| super::super::classify_all("t", t);
        let register = "$ karmadactl register 10.0.0.10:32443 --token abcdef.0123456789abcdef\n[karmada-agent-start] Waiting to perform the TLS Bootstrap\nError from server (Forbidden): certificatesigningrequests.certificates.k8s.io is forbidden: User \"system:bootstrap:abcdef\" cannot create resource \"certificatesigningrequests\" in API group \"certificates.k8s.io\" at the cluster scope\n";
        let s = all(register);
        let f = s
            .iter()
            .find(|s| s.kind == SignalKind::RbacForbidden)
            .expect("forbidden");
        assert_eq!(f.detail("agent_side"), "member", "{f:#?}");
        assert!(
            f.detail("agent_remedy")
                .contains("system:karmada:agent-bootstrap")
        );
        // the same 403 without a Karmada registration around it stays the user's RBAC
        let kubeadm = "error: certificatesigningrequests.certificates.k8s.io is forbidden: User \"system:bootstrap:abcdef\" cannot create resource \"certificatesigningrequests\" in API group \"certificates.k8s.io\" at the cluster scope\n";
        assert!(
            all(kubeadm)
                .iter()
                .all(|s| s.detail("agent_side").is_empty())
        );
        // v1.12's rbac-generator anywhere; the registered agent's own identity names its member
        let generator = "W0213 15:23:17.273389    5584 cluster.go:191] Failed to retrieve cluster(m1). error: clusters.cluster.karmada.io \"m1\" is forbidden: User \"system:karmada:agent:rbac-generator\" cannot get resource \"clusters\" in API group \"cluster.karmada.io\" at the cluster scope\n";
        assert!(
            all(generator)
                .iter()
                .any(|s| s.detail("agent_side") == "member")
        );
        let agent = "E0412 08:15:05.220114       1 controller.go:145] failed to ensure lease exists, will retry in 7s, error: leases.coordination.k8s.io \"m1\" is forbidden: User \"system:karmada:agent:m1\" cannot get resource \"leases\" in API group \"coordination.k8s.io\" in the namespace \"karmada-cluster\"\n";
        let s = all(agent);
        let f = s
            .iter()
            .find(|s| s.detail("agent_side") == "member")
            .expect("agent");
        assert_eq!(f.object, Some(Subject::cluster("m1")));
        assert!(f.detail("agent_remedy").contains("system:karmada:m1:agent"));
        // a bare Forbidden inside a registration
        let bare = "$ karmadactl register 10.0.0.10:32443 --token abcdef.0123456789abcdef\n[karmada-agent-start] Waiting to perform the TLS Bootstrap\nerror: Forbidden\n";
        let s = all(bare);
        assert!(
            s.iter().all(|s| s.kind != SignalKind::Unrecognised),
            "{s:#?}"
        );
        assert!(s.iter().any(|s| s.detail("agent_side") == "member"));
        // kubeadm's discovery texts inside a registration get Karmada's tool
        let jws = "$ karmadactl register 10.0.0.10:32443 --token abcdef.0123456789abcdef\nerror: couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"\n";
        assert!(
            all(jws)
                .iter()
                .any(|s| s.detail("join_tool") == "karmadactl register")
        );
    }

    #[test]
    fn argocd_cluster_add_names_the_cluster_being_added() {
        assert_eq!(
            argocd_add_target("$ argocd cluster add ctx-1\n").as_deref(),
            Some("ctx-1")
        );
        assert_eq!(
            argocd_add_target("argocd cluster add --kubeconfig k.yaml ctx-1 --name prod -y\n")
                .as_deref(),
            Some("prod")
        );
        assert_eq!(
            argocd_add_target("argocd cluster add --name=dev --upsert ctx-2\n").as_deref(),
            Some("dev")
        );
        let tls = "$ argocd cluster add m2\nFATA[0003] rpc error: code = Unknown desc = Get \"https://10.0.0.22:6443/version?timeout=32s\": x509: certificate signed by unknown authority\n";
        let s = super::super::classify_all("t", tls);
        let t = s
            .iter()
            .find(|s| s.kind == SignalKind::TlsUntrusted)
            .expect("tls");
        assert_eq!(t.detail("dialer"), "argocd-server");
        assert_eq!(t.object, Some(Subject::cluster("m2")));
        let auth = "$ argocd cluster add rancher-m --name prod\nFATA[0001] rpc error: code = Unknown desc = REST config invalid: the server has asked for the client to provide credentials\n";
        let s = unauthorized(auth);
        assert_eq!(s[0].detail("agent_side"), "hub", "{s:#?}");
        assert_eq!(s[0].object, Some(Subject::cluster("prod")));
        // the CLI's own connection (before any gRPC) is not argocd-server's
        let cli = "$ argocd cluster add m3\nFATA[0001] Failed to create service account \"argocd-manager\" in namespace \"kube-system\": Post \"https://10.0.0.23/api/v1/namespaces/kube-system/serviceaccounts\": tls: failed to verify certificate: x509: certificate signed by unknown authority\n";
        assert!(
            super::super::classify_all("t", cli)
                .iter()
                .all(|s| s.detail("dialer") != "argocd-server")
        );
    }

    #[test]
    fn a_rancher_agents_x509_after_its_ca_check_is_one_cause() {
        let t = "time=\"2023-02-14T13:26:11Z\" level=error msg=\"Issuer of last certificate found in chain (CN=Fake,O=Acme Co) does not match with CA certificate Issuer (CN=dynamiclistener-ca,O=dynamiclistener-org). Please check if the configured server certificate contains all needed intermediate certificates and make sure they are in the correct order (server certificate first, intermediates after)\"\ntime=\"2023-02-14T13:26:11Z\" level=fatal msg=\"Get \\\"https://rancher.example.com\\\": x509: certificate is valid for ingress.local, not rancher.example.com\"\n";
        let s = super::super::classify_all("t", t);
        assert!(
            s.iter().all(|s| !matches!(
                s.kind,
                SignalKind::TlsUntrusted | SignalKind::TlsNameMismatch | SignalKind::TlsExpired
            )),
            "{s:#?}"
        );
        assert_eq!(
            s.iter()
                .filter(|s| s.detail("entry") == "rancher.agent-issuer-mismatch")
                .count(),
            2
        );
    }

    #[test]
    fn karmada_apiserver_certificate_expiry_is_marked() {
        let t = "$ kubectl -n karmada-system logs deploy/karmada-agent\nE0412 08:15:02.118310       1 reflector.go:147] k8s.io/client-go/informers/factory.go:159: Failed to watch *v1alpha1.Cluster: failed to list *v1alpha1.Cluster: Get \"https://10.0.0.10:32443/apis/cluster.karmada.io/v1alpha1/clusters?limit=500\": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2024-04-12T08:15:02Z is after 2024-04-10T06:01:13Z\n";
        let s = super::super::classify_all("t", t);
        assert!(
            s.iter().any(
                |s| s.kind == SignalKind::TlsExpired && s.detail("karmada_apiserver") == "true"
            ),
            "{s:#?}"
        );
        // a kubectl x509 expiry elsewhere is not Karmada's
        let other = "Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2024-04-12T08:15:02Z is after 2024-04-10T06:01:13Z\n";
        assert!(
            super::super::classify_all("t", other)
                .iter()
                .all(|s| s.detail("karmada_apiserver").is_empty())
        );
    }
}
