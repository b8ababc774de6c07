//! The lines of Ansible's default stdout callback that the readers need
//! (ansible/ansible lib/ansible/plugins/callback/default.py): a failed task result
//! (`v2_runner_on_failed`: `fatal: [host]: FAILED! => {...}`, in a loop `failed: [host]
//! (item=...) => {...}`), the `...ignoring` printed after it when the task has
//! `ignore_errors`, and the PLAY RECAP rows (`v2_playbook_on_stats`: `host : ok=N changed=N
//! unreachable=N failed=N ...`). One place, so the catalog, the kubeadm rule and the join
//! rules read them alike.

/// The host of a failed task result's head line (`fatal: [node-3]: FAILED! => {`,
/// `failed: [node-3] (item=x) => {`), and the rest of the line after `=> `.
pub(crate) fn failed_head(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let rest = t
        .strip_prefix("fatal: [")
        .or_else(|| t.strip_prefix("failed: ["))?;
    let (host, after) = rest.split_once(']')?;
    let (_, result) = after.split_once("=> ")?;
    Some((host, result))
}

/// A PLAY RECAP row: the host and its `failed=` count. A host, ` : `, then `key=count` pairs
/// starting with `ok=` (`ok=349  changed=38   unreachable=0    failed=2    skipped=3 ...`).
pub(crate) fn recap_row(line: &str) -> Option<(&str, u64)> {
    let (host, counts) = line.trim().split_once(" : ")?;
    let host = host.trim();
    let mut pairs = counts.split_whitespace().peekable();
    let plain = !host.is_empty()
        && !host.contains(char::is_whitespace)
        && pairs.peek().is_some_and(|p| p.starts_with("ok="))
        && pairs.clone().all(|p| {
            p.split_once('=').is_some_and(|(k, v)| {
                k.chars().all(|c| c.is_ascii_lowercase()) && v.chars().all(|c| c.is_ascii_digit())
            })
        });
    if !plain {
        return None;
    }
    let failed = pairs
        .find_map(|p| p.strip_prefix("failed="))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    Some((host, failed))
}

/// The `failed=` count of every host in the text's PLAY RECAP (read once per text).
pub(crate) fn recap(text: &str) -> std::collections::HashMap<&str, u64> {
    text.lines().filter_map(recap_row).collect()
}

/// Whether the task result whose lines start at `lines[i]` is followed by `...ignoring` before
/// the next task, result or play (`ignore_errors`: the playbook goes on).
pub(crate) fn ignored_after(lines: &[&str], i: usize) -> bool {
    for l in lines.iter().skip(i + 1).map(|l| l.trim()) {
        if l.starts_with("...ignoring") {
            return true;
        }
        if l.starts_with("TASK [")
            || l.starts_with("PLAY ")
            || l.starts_with("RUNNING HANDLER")
            || failed_head(l).is_some()
            || ["ok: [", "changed: [", "skipping: ["]
                .iter()
                .any(|p| l.starts_with(p))
        {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_recap_rows_and_ignoring() {
        assert_eq!(
            failed_head("fatal: [node-3]: FAILED! => {\"rc\": 1}"),
            Some(("node-3", "{\"rc\": 1}"))
        );
        assert_eq!(
            failed_head("failed: [node-3] (item=join) => {}").map(|h| h.0),
            Some("node-3")
        );
        assert_eq!(
            recap_row(
                "node-3                     : ok=349  changed=38   unreachable=0    failed=2    skipped=3"
            ),
            Some(("node-3", 2))
        );
        assert_eq!(recap_row("a : b"), None);
        let lines = [
            "fatal: [n]: FAILED! => {}",
            "error line",
            "...ignoring",
            "TASK [x]",
        ];
        assert!(ignored_after(&lines, 0));
        let lines = ["fatal: [n]: FAILED! => {}", "TASK [x]", "...ignoring"];
        assert!(!ignored_after(&lines, 0));
    }
}
