//! Member-cluster tables of multi-cluster control planes, as `kubectl get clusters` (and its
//! relatives) print them on the hub: a member whose readiness is `False` or `Unknown` is a
//! [`SignalKind::ClusterNotReachable`] about that member (subject `Cluster/<name>`).
//!
//! - Karmada `kubectl get clusters` (karmada-io/karmada `pkg/printers/internalversion/printers.go`
//!   `clusterColumnDefinitions`: `NAME VERSION MODE READY AGE`, some releases with
//!   `METADATASUFFICIENT` before `AGE`, `-o wide` adding `ZONES` / `APIENDPOINT`). READY is the
//!   member's Ready condition. `MODE` is `Push` (karmada-controller-manager's cluster status
//!   controller probes the member's API server, `pkg/controllers/status/cluster_status_controller.go`)
//!   or `Pull` (the karmada-agent in the member reports and renews the cluster lease); VERSION is
//!   empty until a status was collected once.
//! - Open Cluster Management `kubectl get managedclusters` (open-cluster-management-io/api
//!   `cluster/v1` ManagedCluster printer columns: `NAME HUB ACCEPTED MANAGED CLUSTER URLS JOINED
//!   AVAILABLE AGE`): AVAILABLE is the klusterlet's lease-backed availability.
//! - KubeFed `kubectl get kubefedclusters` (kubernetes-sigs/kubefed KubeFedCluster printer
//!   columns `NAME AGE READY` and later `KUBERNETES-VERSION`).
//!
//! - Karmada before v0.3 (`kubectl get memberclusters`, karmada-io/karmada#83 and #95: `NAME
//!   KUBERNETESVERSION READY`, then `NAME VERSION READY AGE`).
//! - Argo CD `argocd cluster list` (argoproj/argo-cd `cmd/argocd/commands/cluster.go`
//!   `printClusterTable`: `SERVER NAME VERSION STATUS MESSAGE PROJECT`). STATUS is the
//!   application controller's connection state (`Successful`, `Failed`, `Unknown`; the
//!   pkg/apis/application/v1alpha1 `ConnectionStatus*` values); `Unknown` with the message
//!   `Cluster has no applications and is not being monitored.` (controller/clusterinfoupdater.go)
//!   is the resting state of a cluster no Application targets yet, and the cell is empty right
//!   after `argocd cluster add`: neither is a failure. A `Failed` row's MESSAGE is the
//!   connection error itself, read by the message catalog on the same line, so this module
//!   draws no signal of its own from Argo CD rows (one cause, one finding); it only tells an
//!   all-healthy table ([`all_ready`]).
//!
//! Cells are read by the header's column positions (kubectl aligns with a tabwriter), so an empty
//! VERSION cell does not shift READY.

use super::{Signal, SignalKind, details};
use crate::Subject;

/// One table dialect: the header columns that identify it and the readiness column.
struct Dialect {
    /// Program, for the message (`Karmada`).
    program: &'static str,
    /// Header words that must all be present (in order of the header).
    columns: &'static [&'static str],
    /// The readiness column.
    ready: &'static str,
    /// The readiness cell of a healthy member.
    healthy: &'static str,
    /// The member's name column.
    name: &'static str,
}

/// Argo CD's dialect (its rows are told healthy or not, never signalled: see the module doc).
const ARGO_CD: &str = "Argo CD";

const DIALECTS: &[Dialect] = &[
    Dialect {
        program: "Karmada",
        columns: &["NAME", "VERSION", "MODE", "READY", "AGE"],
        ready: "READY",
        healthy: "True",
        name: "NAME",
    },
    Dialect {
        program: "Open Cluster Management",
        columns: &["NAME", "HUB ACCEPTED", "JOINED", "AVAILABLE", "AGE"],
        ready: "AVAILABLE",
        healthy: "True",
        name: "NAME",
    },
    Dialect {
        program: "Karmada",
        columns: &["NAME", "VERSION", "READY", "AGE"],
        ready: "READY",
        healthy: "True",
        name: "NAME",
    },
    Dialect {
        program: "Karmada",
        columns: &["NAME", "KUBERNETESVERSION", "READY"],
        ready: "READY",
        healthy: "True",
        name: "NAME",
    },
    Dialect {
        program: "KubeFed",
        columns: &["NAME", "AGE", "READY"],
        ready: "READY",
        healthy: "True",
        name: "NAME",
    },
    Dialect {
        program: ARGO_CD,
        columns: &["SERVER", "NAME", "VERSION", "STATUS", "MESSAGE", "PROJECT"],
        ready: "STATUS",
        healthy: "Successful",
        name: "NAME",
    },
];

/// Argo CD's message for a cluster no Application targets (controller/clusterinfoupdater.go:
/// `Cluster has no applications and is not being monitored.`; before argoproj/argo-cd#5273,
/// `Cluster has no application and not being monitored.`): both hold these two parts.
const ARGO_CD_IDLE: [&str; 2] = ["Cluster has no application", "not being monitored."];

/// Start offsets of the header's columns (a column name may hold single spaces: `HUB
/// ACCEPTED`; columns are separated by two or more spaces or a tab).
fn header_columns(header: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let b = header.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' || b[i] == b'\t' {
            i += 1;
            continue;
        }
        let start = i;
        // a name runs until two blanks or a tab
        while i < b.len()
            && b[i] != b'\t'
            && !(b[i] == b' ' && (i + 1 >= b.len() || b[i + 1] == b' ' || b[i + 1] == b'\t'))
        {
            i += 1;
        }
        out.push((start, header[start..i].trim().to_owned()));
    }
    out
}

fn dialect_of(cols: &[(usize, String)]) -> Option<&'static Dialect> {
    DIALECTS.iter().find(|d| {
        let names: Vec<&str> = cols.iter().map(|(_, n)| n.as_str()).collect();
        // the dialect's first column first, every other column of the dialect in order, and
        // nothing of a node table (STATUS, ROLES) unless the dialect has it
        let mut at = 0;
        names.first() == d.columns.first()
            && d.columns.iter().all(|c| {
                names[at..].iter().position(|n| n == c).is_some_and(|p| {
                    at += p + 1;
                    true
                })
            })
            && (!names.contains(&"STATUS") || d.columns.contains(&"STATUS"))
            && !names.contains(&"ROLES")
    })
}

/// The cell of `row` in column `idx` of `cols` (by position; empty when the row is shorter).
fn cell<'a>(row: &'a str, cols: &[(usize, String)], idx: usize) -> &'a str {
    let start = cols[idx].0;
    let end = cols.get(idx + 1).map_or(row.len(), |(s, _)| *s);
    let start = floor_boundary(row, start.min(row.len()));
    let end = floor_boundary(row, end.min(row.len()));
    row.get(start..end).unwrap_or("").trim()
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// One member-cluster table of a text: its dialect, header columns and rows (0-based line
/// index, row text), up to a blank line or the next `NAME` header.
struct Table<'a> {
    dialect: &'static Dialect,
    cols: Vec<(usize, String)>,
    rows: Vec<(usize, &'a str)>,
}

impl Table<'_> {
    /// The position of column `name` in the header.
    fn column(&self, name: &str) -> Option<usize> {
        self.cols.iter().position(|(_, n)| n == name)
    }
    /// The readiness cell of `row` (the dialect's readiness column; the first column when the
    /// header lacks it).
    fn ready<'r>(&self, row: &'r str) -> &'r str {
        cell(
            row,
            &self.cols,
            self.column(self.dialect.ready).unwrap_or(0),
        )
    }
    /// True when the member of `row` is healthy: its readiness cell is the dialect's healthy
    /// value; for Argo CD also a cluster not checked yet (an empty STATUS right after `argocd
    /// cluster add`) or one no Application targets (`Unknown` with [`ARGO_CD_IDLE`]).
    fn healthy(&self, row: &str) -> bool {
        let ready = self.ready(row);
        ready == self.dialect.healthy
            || self.dialect.program == ARGO_CD
                && (ready.is_empty()
                    || ready == "Unknown" && ARGO_CD_IDLE.iter().all(|p| row.contains(p)))
    }
    /// The member's name in `row` (its name column; the first cell when that is empty).
    fn name<'r>(&self, row: &'r str) -> &'r str {
        let first = row.split_whitespace().next().unwrap_or("");
        match self
            .column(self.dialect.name)
            .map(|i| cell(row, &self.cols, i))
        {
            Some(n) if !n.is_empty() => n,
            _ => first,
        }
    }
}

/// The member-cluster tables in `text`, in order.
fn tables(text: &str) -> Vec<Table<'_>> {
    let lines: Vec<&str> = text.lines().collect();
    let is_header = |l: &str| {
        header_columns(l)
            .first()
            .is_some_and(|(_, n)| n == "NAME" || n == "SERVER")
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let cols = header_columns(lines[i]);
        let Some(dialect) = dialect_of(&cols) else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        let mut rows = Vec::new();
        while j < lines.len() && !lines[j].trim().is_empty() && !is_header(lines[j]) {
            rows.push((j, lines[j]));
            j += 1;
        }
        out.push(Table {
            dialect,
            cols,
            rows,
        });
        i = j;
    }
    out
}

/// Signals for the member-cluster tables in `text`.
pub fn check(source: &str, text: &str) -> Vec<Signal> {
    let mut out = Vec::new();
    for t in tables(text) {
        if t.dialect.program == ARGO_CD {
            continue;
        }
        let mode_idx = t.column("MODE");
        let version_idx = t.column("VERSION");
        for &(j, row) in &t.rows {
            let name = row.split_whitespace().next().unwrap_or("");
            let ready = t.ready(row);
            if !name.is_empty() && matches!(ready, "False" | "Unknown") {
                let mode = mode_idx.map_or("", |m| cell(row, &t.cols, m));
                let version = version_idx.map_or("-", |v| cell(row, &t.cols, v));
                out.push(Signal {
                    kind: SignalKind::ClusterNotReachable,
                    source: source.to_owned(),
                    line: j + 1,
                    text: crate::finding::redact(row.trim()),
                    join: false,
                    object: Some(Subject::cluster(name)),
                    details: details(&[
                        ("cluster", name.to_owned()),
                        ("program", t.dialect.program.to_owned()),
                        ("ready", ready.to_owned()),
                        ("ready_column", t.dialect.ready.to_owned()),
                        ("mode", mode.to_owned()),
                        (
                            "never_collected",
                            if version.is_empty() { "true" } else { "" }.to_owned(),
                        ),
                    ]),
                });
            }
        }
    }
    out
}

/// The member clusters of the member-cluster tables in `text` when every one is ready
/// (`True` in the dialect's readiness column): the program and the members' names. `None` when
/// the text holds no such table, or some member is not ready (then [`check`] reports it).
pub fn all_ready(text: &str) -> Option<(&'static str, Vec<String>)> {
    let mut program = None;
    let mut names = Vec::new();
    for t in tables(text) {
        for &(_, row) in &t.rows {
            if !t.healthy(row) {
                return None;
            }
            names.push(t.name(row).to_owned());
        }
        program = Some(t.dialect.program);
    }
    let program = program?;
    (!names.is_empty()).then_some((program, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn karmada_table_with_empty_version_cells() {
        let t = "NAME     VERSION   MODE   READY     AGE\n251k8s             Push   Unknown   76m\nk8s81    v1.27.3   Pull   False     2d1h\nk8s82    v1.28.1   Push   True      30m\n";
        let s = check("clusters.txt", t);
        assert_eq!(s.len(), 2, "{s:#?}");
        assert_eq!(s[0].detail("cluster"), "251k8s");
        assert_eq!(s[0].detail("ready"), "Unknown");
        assert_eq!(s[0].detail("mode"), "Push");
        assert_eq!(s[0].detail("never_collected"), "true");
        assert_eq!(
            s[0].object.as_ref().map(|o| o.name.as_str()),
            Some("251k8s")
        );
        assert_eq!(s[1].detail("mode"), "Pull");
        assert_eq!(s[1].detail("ready"), "False");
        assert_eq!(s[1].detail("never_collected"), "");
        // -o wide and the METADATASUFFICIENT column
        let w = "NAME      VERSION   MODE   READY   METADATASUFFICIENT   AGE   APIENDPOINT\nmember1   v1.31.0   Push   False   True                 5d    https://172.18.0.3:6443\n";
        assert_eq!(check("w", w).len(), 1);
    }

    #[test]
    fn all_ready_tables_are_read_as_such() {
        let t = "[root@node-01 operation]# kubectl get clusters\nNAME   VERSION   MODE   READY   AGE\nboat   v1.21.1   Push   True    4h20m\nhull   v1.13.9   Push   True    126m\n";
        let (program, names) = all_ready(t).expect("all ready");
        assert_eq!((program, names.len()), ("Karmada", 2));
        assert!(check("x", t).is_empty());
        let broken = t.replace(
            "hull   v1.13.9   Push   True ",
            "hull   v1.13.9   Push   False",
        );
        assert!(all_ready(&broken).is_none());
        assert_eq!(check("x", &broken).len(), 1);
        assert!(all_ready("NAME  AGE\n").is_none());
    }

    /// `argocd cluster list` (argoproj/argo-cd cmd/argocd/commands/cluster.go): Successful,
    /// not yet checked and `Unknown` for lack of Applications are healthy; a Failed row is not
    /// (its MESSAGE is read by the catalog), and no signal is drawn from Argo CD rows here.
    #[test]
    fn argocd_cluster_list_tables() {
        let t = "$ argocd cluster list\nSERVER                          NAME        VERSION  STATUS      MESSAGE                                                  PROJECT\nhttps://10.0.0.11:6443          prod-bj     1.29     Successful\nhttps://10.0.0.12:6443          prod-sh\nhttps://kubernetes.default.svc  in-cluster           Unknown     Cluster has no applications and is not being monitored.\n";
        let (program, names) = all_ready(t).expect("healthy");
        assert_eq!(program, "Argo CD");
        assert_eq!(names, vec!["prod-bj", "prod-sh", "in-cluster"]);
        assert!(check("x", t).is_empty());
        let failed = t.replace(
            "prod-sh\n",
            "prod-sh              Failed      Get \"https://10.0.0.12:6443/version?timeout=32s\": dial tcp 10.0.0.12:6443: i/o timeout\n",
        );
        assert!(all_ready(&failed).is_none());
        assert!(check("x", &failed).is_empty());
        // Unknown for another reason is not healthy
        let unknown = t.replace(
            "Cluster has no applications and is not being monitored.",
            "the server has asked for the client to provide credentials",
        );
        assert!(all_ready(&unknown).is_none());
    }

    /// Karmada's first member-cluster columns (karmada-io/karmada#83, #95).
    #[test]
    fn early_karmada_tables() {
        let t = "# kubectl get membercluster\nNAME      VERSION   READY   AGE\nmember1   v1.19.1   True    30m\nmember2   v1.19.1   True    29m\n";
        assert_eq!(
            all_ready(t).map(|(p, n)| (p, n.len())),
            Some(("Karmada", 2))
        );
        let broken = t.replace("v1.19.1   True    29m", "v1.19.1   False   29m");
        assert!(all_ready(&broken).is_none());
        assert_eq!(check("x", &broken).len(), 1);
        let k = "NAME      KUBERNETESVERSION   READY\nmember1   v1.19.1             True\n";
        assert!(all_ready(k).is_some());
    }

    #[test]
    fn ocm_and_kubefed_tables() {
        let ocm = "NAME       HUB ACCEPTED   MANAGED CLUSTER URLS        JOINED   AVAILABLE   AGE\ncluster1   true           https://10.0.0.5:6443       True     Unknown     3d\ncluster2   true           https://10.0.0.6:6443       True     True        3d\n";
        let s = check("m", ocm);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].detail("program"), "Open Cluster Management");
        let kf = "NAME       AGE   READY\ncluster1   2d    False\n";
        assert_eq!(check("k", kf)[0].detail("program"), "KubeFed");
        // a node table is not a member-cluster table
        let nodes = "NAME      STATUS     ROLES    AGE   VERSION\nnode-01   NotReady   <none>   5d    v1.30.1\n";
        assert!(check("n", nodes).is_empty());
    }
}
