//! Tables a paste shows that no analysis reads (`kubectl get svc`, `kubectl top`, `helm
//! list`, `kubectl get ingress`, ...): found so that they are named in the report instead of
//! passing without a word (issue 9: nothing dropped without saying so), and so that a paste of
//! only such tables, every row of it in a healthy state, is read as "nothing to diagnose"
//! rather than "not recognised".
//!
//! A table is a header row in the form kubectl's and helm's table printers write it (every
//! cell upper case, the first `NAME` or `NAMESPACE`: `k8s.io/cli-runtime/pkg/printers/
//! tableprinter.go` prints column names upper-cased; helm's `cmd/helm/list.go` writes `NAME
//! NAMESPACE REVISION UPDATED STATUS CHART APP VERSION`), then its rows up to a blank line, a
//! command or the next header. A row counts as failing when one of its cells is a status word
//! that says something is wrong (`failed`, `Pending`, `<pending>`, `CrashLoopBackOff`,
//! `NotReady`, `Unknown`, `False`, `Lost`, ...): such a table is never read as healthy.

use cube_model::paste::{cell_starts, prompt_command};

/// One unread table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UnreadTable {
    /// The command that printed it (`kubectl get svc -A`), or its header's first cells.
    pub what: String,
    /// 1-based line numbers (as given with the lines) of the header and of the last row.
    pub lines: (usize, usize),
    /// Number of rows.
    pub rows: usize,
    /// Rows with a failing status: the row's first cell (its name) and the failing cell.
    pub failing: Vec<(String, String)>,
    /// The header row.
    pub header: String,
}

/// What [`find`] saw in a text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct UnreadTables {
    pub tables: Vec<UnreadTable>,
    /// True when every non-blank line is a command, a header or a row of one of the tables.
    pub covers_all: bool,
}

impl UnreadTables {
    /// `get svc -A (2 rows), helm list -A (1 row)`.
    pub fn summary(&self) -> String {
        self.tables
            .iter()
            .map(|t| {
                format!(
                    "{} ({} row{}, lines {}-{})",
                    t.what,
                    t.rows,
                    if t.rows == 1 { "" } else { "s" },
                    t.lines.0,
                    t.lines.1
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
    /// `name (failed), other (<pending>)` over every table.
    pub fn failing(&self) -> Vec<String> {
        self.tables
            .iter()
            .flat_map(|t| t.failing.iter().map(|(n, c)| format!("{n} ({c})")))
            .collect()
    }
}

/// Cells of a status that says something is wrong, as kubectl's printers and helm print them
/// (pod phases and waiting reasons, node and condition states, PV/PVC phases, release
/// states of helm's `pkg/release/status.go`, a LoadBalancer's `<pending>` address).
const FAILING: &[&str] = &[
    "failed",
    "Failed",
    "Error",
    "error",
    "Pending",
    "pending",
    "<pending>",
    "pending-install",
    "pending-upgrade",
    "pending-rollback",
    "uninstalling",
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "OOMKilled",
    "Evicted",
    "Terminating",
    "NotReady",
    "Unknown",
    "False",
    "Lost",
    "Released",
    "Unhealthy",
    "Degraded",
    "Missing",
    "OutOfSync",
    "Denied",
    "SchedulingDisabled",
];

/// A header row: two or more cells, each upper case once `(...)` parts and `%` are set aside
/// (`CPU(cores)`, `MEMORY%`), the first `NAME` or `NAMESPACE`.
fn is_header(line: &str) -> bool {
    let cells: Vec<&str> = line.split_whitespace().collect();
    if cells.len() < 2 || !matches!(cells[0], "NAME" | "NAMESPACE") {
        return false;
    }
    cells.iter().all(|c| {
        let bare = c.split('(').next().unwrap_or(c);
        bare.chars().any(|ch| ch.is_ascii_uppercase()) && !bare.chars().any(char::is_lowercase)
    })
}

/// The command a line is, if it is one (a prompt, or a bare `kubectl` / `helm` / `oc` / `k3s
/// kubectl` / `microk8s kubectl` command line).
fn command(line: &str) -> Option<String> {
    if let Some(c) = prompt_command(line) {
        return Some(c.to_owned());
    }
    let t = line.trim();
    let t = t.strip_prefix("sudo ").unwrap_or(t);
    [
        "kubectl ",
        "helm ",
        "oc ",
        "k3s kubectl ",
        "microk8s kubectl ",
        "k ",
    ]
    .iter()
    .any(|p| t.starts_with(p))
    .then(|| t.to_owned())
}

/// `line` is a row of the table `header` heads: a cell starts where a header cell does, or it
/// has at least as many cells.
fn is_row(header: &str, line: &str) -> bool {
    let cells = line.split_whitespace().count();
    if cells < 2 || looks_like_log(line) {
        return false;
    }
    let head = cell_starts(header);
    cells >= header.split_whitespace().count() || cell_starts(line).iter().any(|c| head.contains(c))
}

/// A log record rather than a row: a klog header (`E1201 10:00:00.000000`), a line starting
/// with a date or time, a bracketed tag, or `key=value` pairs.
fn looks_like_log(line: &str) -> bool {
    let t = line.trim_start();
    let b = t.as_bytes();
    let klog = b.len() > 5
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' ';
    let dated = b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && matches!(b[4], b'-' | b'/');
    let timed = b.len() > 2 && b[..2].iter().all(u8::is_ascii_digit) && b[2] == b':';
    klog || dated || timed || t.starts_with('[') || t.contains("level=") || t.contains("msg=")
}

/// The failing cell of a row, if any.
fn failing_cell(row: &str) -> Option<&str> {
    row.split_whitespace().find(|cell| {
        FAILING.contains(cell)
            || cell
                .split(['/', ','])
                .any(|part| part != *cell && FAILING.contains(&part))
    })
}

/// The tables of `lines` (each with its 1-based line number), or `None` when there is none.
pub(crate) fn find(lines: &[(usize, &str)]) -> Option<UnreadTables> {
    let mut out = UnreadTables {
        covers_all: true,
        ..UnreadTables::default()
    };
    let mut last_command: Option<String> = None;
    let mut open: Option<UnreadTable> = None;
    for &(number, raw) in lines {
        let line = raw.trim_end();
        if line.trim().is_empty() {
            out.tables.extend(open.take());
            continue;
        }
        if let Some(c) = command(line) {
            out.tables.extend(open.take());
            last_command = (!c.is_empty()).then_some(c);
            continue;
        }
        if is_header(line) {
            out.tables.extend(open.take());
            let what = last_command.take().unwrap_or_else(|| {
                let cells: Vec<&str> = line.split_whitespace().take(4).collect();
                format!("a table with columns {} ...", cells.join(" "))
            });
            open = Some(UnreadTable {
                header: line.to_owned(),
                what,
                lines: (number, number),
                rows: 0,
                failing: Vec::new(),
            });
            continue;
        }
        match open.as_mut() {
            // a row is padded into the header's columns (or has as many cells): a log line
            // or prose after a header without a blank line is no row of it
            Some(t) if is_row(&t.header, line) => {
                t.rows += 1;
                t.lines.1 = number;
                if let Some(cell) = failing_cell(line) {
                    let name = line.split_whitespace().next().unwrap_or_default();
                    t.failing.push((name.to_owned(), cell.to_owned()));
                }
            }
            Some(_) => {
                out.tables.extend(open.take());
                out.covers_all = false;
            }
            None => out.covers_all = false,
        }
    }
    out.tables.extend(open);
    out.tables.retain(|t| t.rows > 0);
    (!out.tables.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(text: &str) -> Vec<(usize, &str)> {
        text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
    }

    #[test]
    fn services_top_and_helm_tables_are_found_with_their_commands() {
        let text = "$ kubectl get svc -A\n\
NAMESPACE     NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\n\
default       kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   10d\n\
$ kubectl top nodes\n\
NAME         CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%\n\
gpu-node-1   250m         3%     4000Mi          12%\n\
$ helm list -A\n\
NAME   NAMESPACE   REVISION   UPDATED   STATUS   CHART   APP VERSION\n\
gpu-operator   gpu-operator   1   2024-01-10 10:00:00 +0000 UTC   deployed   gpu-operator-v23.9.1   v23.9.1\n";
        let found = find(&numbered(text)).expect("tables");
        assert!(found.covers_all);
        let whats: Vec<&str> = found.tables.iter().map(|t| t.what.as_str()).collect();
        assert_eq!(
            whats,
            ["kubectl get svc -A", "kubectl top nodes", "helm list -A"]
        );
        assert!(found.failing().is_empty());
        assert_eq!(found.tables[0].lines, (2, 3));
    }

    #[test]
    fn failing_rows_are_named() {
        let text = "NAME     NAMESPACE   REVISION   UPDATED   STATUS   CHART   APP VERSION\n\
hami     kube-system  3   2024-01-10 10:00:00 +0000 UTC   failed   hami-2.4.0   2.4.0\n\
NAME   TYPE           CLUSTER-IP    EXTERNAL-IP   PORT(S)        AGE\n\
web    LoadBalancer   10.96.3.4     <pending>     80:31000/TCP   3d\n";
        let found = find(&numbered(text)).expect("tables");
        assert_eq!(found.failing(), ["hami (failed)", "web (<pending>)"]);
    }

    #[test]
    fn prose_around_a_table_is_not_covered() {
        let text =
            "the service does not answer\nNAME   TYPE   CLUSTER-IP\nweb   ClusterIP   10.0.0.1\n";
        let found = find(&numbered(text)).expect("table");
        assert!(!found.covers_all);
        // a log line right under a header is no row of it
        let text = "NAME    TYPE        CLUSTER-IP\nweb     ClusterIP   10.0.0.1\nE1201 10:00:00.000000 1 x.go:1] boom\n";
        let found = find(&numbered(text)).expect("table");
        assert!(!found.covers_all);
        assert_eq!(found.tables[0].rows, 1);
        assert!(find(&numbered("just some words\nand more\n")).is_none());
    }
}
