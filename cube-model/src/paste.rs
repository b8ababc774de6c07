//! Pastes as people paste them: a terminal session or a GitHub issue body copied into a file.
//!
//! [`split`] cuts a paste into [`Section`]s, one per command output: at every shell prompt
//! followed by a command (`$ kubectl get nodes -o wide`, `root@node:/# journalctl -u kubelet`,
//! `[root@node ~]# ...`, `user@host:~$ ...`, `PS C:\> ...`, `C:\Users\me>...`, `➜  ~ ...`), and at
//! every Markdown code fence (```` ```yaml ````, `~~~`). Each section is then detected on its
//! own by the caller ([`crate::snapshot::detect_format`]): a `describe` section, an events table,
//! a JSON dump and a log in one file each become what they are. The command line itself is kept
//! apart ([`Section::command`]): it tells what the output is, and a `kubeadm join ...` line is
//! evidence in its own right.
//!
//! [`clean_line`] makes each line what the program printed, whatever wrapped it on the way:
//!
//! - terminal noise: ANSI colour and cursor sequences (also their remnants when the escape byte
//!   was lost on the way: `[0;31m ... [0m`), a CR at the end (Windows CRLF) or inside a line
//!   (progress bars redrawn: the last redraw is kept), other control characters (tabs are kept);
//! - line prefixes, stacked in any order: journald and syslog (`Dec 01 10:00:00 host
//!   kubelet[1234]: `, and journalctl's `-o short-iso`, `short-iso-precise`, `short-precise`,
//!   `short-full` and `short-unix` forms; the host is kept in [`CleanLine::host`]), CRI log
//!   lines (`2024-01-01T00:00:00.000000000Z stderr F `, as `/var/log/containers/*.log` holds
//!   them), `kubectl logs --timestamps` and other ISO 8601 / RFC 3339 timestamps, Go's `log`
//!   package (`2021/05/08 12:20:58 `), bracketed timestamps (`[2021-05-08 12:20:58] `,
//!   `[12:20:58] `, dmesg's `[   12.345678] ` and `-T` form). klog headers
//!   (`I1201 10:00:00.000000    1234 file.go:12] `, `k8s.io/klog/v2` `klog.go` `formatHeader`)
//!   are the program's own output and stay: their severity letter tells an error line;
//!   the message after them is reduced as below;
//! - structured forms reduced to their message and `key="value"` pairs (a `level` kept as
//!   `level=...`), escapes inside values
//!   resolved (so the text reads as the upstream message printed inside it): klog's structured text
//!   (`"Failed to ..." err="..."`, `k8s.io/klog/v2` `internal/serialize`), the old klogr form
//!   (`"msg"="..." "key"="value"`), JSON logging (`{"ts":...,"msg":"...","err":"..."}`,
//!   `k8s.io/component-base/logs/json`), logrus (`time="..." level=error msg="..."`, containerd
//!   and dockerd) and Docker's json-file lines (`{"log":"...","stream":"stderr","time":"..."}`).
//!
//! Lines keep their 1-based number in the original input ([`PasteLine::number`]), so evidence
//! cites the line the user sees in their file. Bracketed tags that are not timestamps
//! (`[preflight]`, `[kubelet-check]`, `[WARNING Swap]`) are part of the message and stay.

use crate::snapshot::InputFormat;

/// One line of a paste after [`clean_line`], with its place in the original input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PasteLine {
    /// 1-based line number in the original input.
    pub number: usize,
    /// The cleaned text (see [`clean_line`]).
    pub text: String,
    /// Host named by a journald/syslog prefix (empty when the line had none).
    pub host: String,
}

/// The command a section is the output of (the prompt line, prompt removed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PasteCommand {
    /// 1-based line number of the prompt line in the original input.
    pub number: usize,
    /// The command, continuation lines (`\` at the end) joined with a space.
    pub text: String,
}

/// One command's output (or the whole input when it shows no prompt and no fence).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Section {
    /// The command line shown before the output, when the paste has one.
    pub command: Option<PasteCommand>,
    /// The output lines, cleaned.
    pub lines: Vec<PasteLine>,
}

impl Section {
    /// The cleaned lines joined with `\n` (with a final newline).
    pub fn text(&self) -> String {
        let mut out =
            String::with_capacity(self.lines.iter().map(|l| l.text.len() + 1).sum::<usize>());
        for l in &self.lines {
            out.push_str(&l.text);
            out.push('\n');
        }
        out
    }

    /// True when the section has no non-blank line.
    pub fn is_blank(&self) -> bool {
        self.lines.iter().all(|l| l.text.trim().is_empty())
    }

    /// Line number of the section's first line (its command line when it has one).
    pub fn first_line(&self) -> usize {
        self.command
            .as_ref()
            .map(|c| c.number)
            .or_else(|| self.lines.first().map(|l| l.number))
            .unwrap_or(1)
    }
}

/// A line after cleaning: the text and the host of its journald/syslog prefix.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CleanLine {
    /// The text the program printed.
    pub text: String,
    /// Host of a journald/syslog prefix (empty when none).
    pub host: String,
}

/// Commands recognised after an ambiguous prompt (`$ `, `# `, `% `, `❯ `): the programs people
/// run when they report a cluster problem.
const COMMANDS: &[&str] = &[
    "kubectl",
    "k",
    "kubeadm",
    "kubelet",
    "k3s",
    "rke2",
    "k0s",
    "microk8s",
    "minikube",
    "kind",
    "oc",
    "helm",
    "kustomize",
    "journalctl",
    "systemctl",
    "service",
    "docker",
    "crictl",
    "ctr",
    "nerdctl",
    "podman",
    "nvidia-smi",
    // the other accelerator vendors' listing tools: Ascend, AMD (ROCm 6+), Intel, Habana
    "npu-smi",
    "amd-smi",
    "xpu-smi",
    "hl-smi",
    "nvidia-ctk",
    "nvidia-container-cli",
    "rocm-smi",
    "cat",
    "less",
    "more",
    "tail",
    "head",
    "grep",
    "egrep",
    "zgrep",
    "ls",
    "dmesg",
    "lspci",
    "lsmod",
    "modprobe",
    "curl",
    "wget",
    "openssl",
    "ip",
    "ping",
    "nc",
    "telnet",
    "ss",
    "netstat",
    "iptables",
    "hostname",
    "hostnamectl",
    "timedatectl",
    "date",
    "chronyc",
    "uname",
    "free",
    "df",
    "ps",
    "export",
    "echo",
    "cd",
    "tee",
    "watch",
    "jq",
    "yq",
    "stern",
    "swapoff",
    "sysctl",
    "mount",
    "nslookup",
    "dig",
    "etcdctl",
    "argocd",
    "karmadactl",
    "kubefedctl",
    "clusteradm",
    "eksctl",
    "aws",
    "gcloud",
    "az",
    "cilium",
    "calicoctl",
    "ssh",
    "sh",
    "bash",
    "which",
    "whoami",
    "id",
    "env",
    "containerd",
    "runc",
];

/// True when `cmd` starts with a known program (after `sudo`, `time` and `VAR=value`
/// assignments): `kubectl`, `kubeadm`, `journalctl`, `systemctl`, `nvidia-smi`, `curl`, ...
pub fn starts_with_known_command(cmd: &str) -> bool {
    for word in cmd.split_whitespace() {
        if matches!(word, "sudo" | "time" | "-E" | "nohup") || is_assignment(word) {
            continue;
        }
        let program = word.rsplit('/').next().unwrap_or(word);
        let program = program.strip_suffix(".exe").unwrap_or(program);
        return COMMANDS.contains(&program);
    }
    false
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty()
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    })
}

/// A word a command can start with: a program name or path.
fn looks_like_program(cmd: &str) -> bool {
    cmd.split_whitespace().next().is_some_and(|w| {
        w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '~' | '-' | '='))
            && w.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '~'))
    })
}

/// `user@host` (optionally `(venv) ` before it): the user and host parts of a prompt.
fn user_at_host(s: &str) -> Option<usize> {
    let s_start = s.len();
    let rest = s.trim_start_matches(' ');
    let rest = match rest.strip_prefix('(') {
        Some(r) => r.split_once(") ").map(|(_, r)| r)?,
        None => rest,
    };
    let offset = s_start - rest.len();
    let (user, after) = rest.split_once('@')?;
    let ok = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    if !ok(user) {
        return None;
    }
    let host_len = after
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(after.len());
    if host_len == 0 {
        return None;
    }
    Some(offset + user.len() + 1 + host_len)
}

/// The command of a shell prompt line, if `line` is one: `Some("")` for a prompt without a
/// command, `None` when the line is not a prompt.
///
/// Unambiguous prompts (`user@host:~$ `, `[root@node ~]# `, `PS C:\> `, `C:\dir>`,
/// `host:~ user$ `) take any command; the bare `$ `, `% `, `❯ ` and `➜ ` prompts take a command
/// that looks like a program; `# ` (also a comment and a Markdown heading) only a known
/// program such as `kubectl`.
pub fn prompt_command(line: &str) -> Option<&str> {
    let t = line.trim_end();
    // conda and virtualenv put the active environment in front of the prompt (`(base)
    // [root@node ~]# ...`: conda's `changeps1`, virtualenv's activate script `(venv) `)
    if let Some(inner) = t.strip_prefix('(')
        && let Some((env, after)) = inner.split_once(") ")
        && !env.is_empty()
        && env.len() <= 40
        && !env.contains(char::is_whitespace)
        && let Some(cmd) = prompt_command(after.trim_start())
    {
        return Some(cmd);
    }
    // user@host:path$ cmd | user@host:path# cmd | user@host path % cmd
    if let Some(end) = user_at_host(t) {
        let rest = &t[end..];
        // `:~/dir`, ` ~/dir`, `:/` ... up to the prompt character
        if let Some(pos) = rest.find(['$', '#', '%', '>']) {
            let path = &rest[..pos];
            if !path.contains("  ") && path.chars().all(|c| !c.is_control()) && pos <= 120 {
                let cmd = rest[pos + 1..].trim();
                if path.is_empty()
                    || path.starts_with(':')
                    || path.starts_with(' ')
                    || path.starts_with('~')
                {
                    return Some(cmd);
                }
            }
        }
    }
    // [root@node ~]# cmd | [user@host dir]$ cmd
    if let Some(inner) = t.strip_prefix('[')
        && let Some((head, rest)) = inner.split_once(']')
        && user_at_host(head).is_some()
        && let Some(cmd) = rest.strip_prefix(['$', '#'])
    {
        return Some(cmd.trim());
    }
    // PS C:\> cmd | PS /home/me> cmd
    if let Some(rest) = t.strip_prefix("PS ")
        && let Some((path, cmd)) = rest.split_once('>')
        && (path.contains(":\\") || path.starts_with('/'))
    {
        return Some(cmd.trim());
    }
    // C:\Users\me>kubectl get nodes
    let b = t.as_bytes();
    if b.len() > 3
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && b[2] == b'\\'
        && let Some((_, cmd)) = t.split_once('>')
        && (cmd.trim().is_empty() || looks_like_program(cmd.trim()))
    {
        return Some(cmd.trim());
    }
    // host:~ user$ cmd (macOS)
    if let Some((head, cmd)) = t.split_once("$ ")
        && let Some((host, user)) = head.split_once(' ')
        && host.contains(':')
        && !host.contains(' ')
        && !user.is_empty()
        && !user.contains(' ')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '~' | '/'))
        && looks_like_program(cmd.trim())
    {
        return Some(cmd.trim());
    }
    // bash's default prompt `\s-\v\$ ` (bash(1) PROMPTING): `bash-5.1# cmd`, `sh-4.4$ cmd`
    // (a container's or a minimal host's shell)
    if let Some((shell, rest)) = t.trim_start().split_once('-')
        && matches!(shell, "bash" | "sh")
        && let Some(p) = rest.find(['#', '$'])
        && p > 0
        && rest[..p].chars().all(|c| c.is_ascii_digit() || c == '.')
        && (rest[p + 1..].is_empty() || rest[p + 1..].starts_with(' '))
    {
        return Some(rest[p + 1..].trim());
    }
    // bare prompts
    let s = t.trim_start();
    for prompt in ["$", "%", "❯", "➜", "λ"] {
        if s == prompt {
            return Some("");
        }
        if let Some(rest) = s.strip_prefix(prompt)
            && rest.starts_with(' ')
        {
            let mut cmd = rest.trim();
            if prompt == "➜" {
                // oh-my-zsh: `➜  dir git:(main) cmd`: skip the directory and git parts
                let mut words = cmd.splitn(2, ' ');
                let _dir = words.next();
                cmd = words.next().unwrap_or("").trim();
                if let Some(after) = cmd.strip_prefix("git:(")
                    && let Some((_, r)) = after.split_once(')')
                {
                    cmd = r.trim_start_matches([' ', '✗']).trim();
                }
            }
            let accept = if prompt == "%" {
                starts_with_known_command(cmd)
            } else {
                looks_like_program(cmd)
            };
            return accept.then_some(cmd);
        }
    }
    if let Some(rest) = s.strip_prefix("# ") {
        let cmd = rest.trim();
        return starts_with_known_command(cmd).then_some(cmd);
    }
    // a kubectl command pasted without its prompt, alone at column 0 (`kubectl describe pod
    // x -n gpu-operator`, then its output): a read verb of kubectl is required, so prose and
    // log lines that merely mention kubectl are not commands
    if !line.starts_with([' ', '\t']) && bare_kubectl_command(t) {
        return Some(t);
    }
    None
}

/// `kubectl|oc|k3s kubectl|microk8s kubectl <verb> ...` with a read verb (`get`, `describe`,
/// `logs`, `top`, `events`, ...).
fn bare_kubectl_command(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if matches!(first, "k3s" | "microk8s" | "sudo") {
        first = words.next().unwrap_or("");
    }
    let program = first.rsplit('/').next().unwrap_or(first);
    if !matches!(
        program,
        "kubectl" | "oc" | "kubectl.exe" | "microk8s.kubectl"
    ) {
        return false;
    }
    let verb = words.find(|w| !w.starts_with('-')).unwrap_or("");
    matches!(
        verb,
        "get" | "describe" | "logs" | "top" | "events" | "version" | "cluster-info" | "auth"
    ) && words.all(|w| !w.ends_with(':'))
}

/// A Markdown fence line (```` ``` ````, ```` ```yaml ````, `~~~`), or an HTML line GitHub issue
/// bodies wrap pastes in (`<details>`, `<summary>...</summary>`, `<pre>`).
fn is_fence_or_wrapper(line: &str) -> bool {
    let t = line.trim();
    if let Some(rest) = t.strip_prefix("```").or_else(|| t.strip_prefix("~~~")) {
        return rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '`' | '~' | ' '));
    }
    let lower = t.to_ascii_lowercase();
    // `<details><summary>kubectl describe node</summary>` (GitHub's collapsed block, opened
    // and titled on one line) and `<details open>`
    if let Some(rest) = lower.strip_prefix("<details")
        && let Some(end) = rest.find('>')
        && (end == 0 || rest.starts_with(' '))
    {
        let after = rest[end + 1..].trim();
        if after.is_empty() || (after.starts_with("<summary>") && after.ends_with("</summary>")) {
            return true;
        }
    }
    matches!(
        lower.as_str(),
        "<details>" | "</details>" | "<pre>" | "</pre>" | "<code>" | "</code>"
    ) || (lower.starts_with("<summary>") && lower.ends_with("</summary>"))
        || (lower.starts_with("<details ") && lower.ends_with('>'))
}

/// Splits `text` into sections (see the module documentation). Always at least one section
/// when `text` has a non-blank line; blank sections are dropped.
pub fn split(text: &str) -> Vec<Section> {
    let mut sections = Vec::new();
    let mut current = Section::default();
    let raw = strip_diff_markers(text.split('\n').collect());
    let raw: Vec<&str> = raw.iter().map(|l| l.as_ref()).collect();
    let mut i = 0;
    let push = |sections: &mut Vec<Section>, mut s: Section| {
        if !s.is_blank() || s.command.is_some() {
            strip_stern_prefixes(&mut s);
            strip_host_prefixes(&mut s);
            expand_statuses(&mut s);
            dedent(&mut s);
            sections.push(s);
        }
    };
    while i < raw.len() {
        let number = i + 1;
        let visible = terminal_text(raw[i]);
        if is_fence_or_wrapper(&visible) {
            push(&mut sections, std::mem::take(&mut current));
            i += 1;
            continue;
        }
        if let Some(cmd) = prompt_command(&visible) {
            let mut cmd = cmd.to_owned();
            // continuation lines of a long command
            while cmd.ends_with('\\') && i + 1 < raw.len() {
                cmd.pop();
                i += 1;
                let next = terminal_text(raw[i]);
                let next = next.trim_start_matches(['>', ' ']).trim();
                cmd = format!("{} {next}", cmd.trim_end());
            }
            push(&mut sections, std::mem::take(&mut current));
            if !cmd.is_empty() {
                current.command = Some(PasteCommand { number, text: cmd });
            }
            i += 1;
            continue;
        }
        if ansible_head(&visible) {
            // one task result holds the command's whole output; a result wrapped by hand over
            // several lines is joined back first
            let mut joined = visible.clone();
            while i + 1 < raw.len() {
                let next = terminal_text(raw[i + 1]);
                let t = next.trim_start();
                if t.is_empty()
                    || ansible_head(&next)
                    // ansible's `...ignoring` after a result of an `ignore_errors` task
                    || t.starts_with("...ignoring")
                    || t.starts_with("TASK [")
                    || t.starts_with("PLAY ")
                    || t.starts_with("RUNNING HANDLER")
                    || prompt_command(&next).is_some()
                    || is_fence_or_wrapper(&next)
                {
                    break;
                }
                joined.push_str(&next);
                i += 1;
            }
            for l in ansible_result(&joined).unwrap_or_default() {
                let clean = clean_visible(&l);
                current.lines.push(PasteLine {
                    number,
                    text: clean.text,
                    host: clean.host,
                });
            }
            i += 1;
            continue;
        }
        match content_boundary(&current, &visible) {
            Some(Boundary::Rule) => {
                push(&mut sections, std::mem::take(&mut current));
                i += 1;
                continue;
            }
            Some(Boundary::Before) => push(&mut sections, std::mem::take(&mut current)),
            None => {}
        }
        let clean = clean_visible(&visible);
        let text = if is_grep_group_separator(&clean.text) {
            // a break between unrelated excerpts: read as a blank line
            String::new()
        } else {
            match current.command.as_ref() {
                Some(c) if grep_numbers_lines(&c.text) => {
                    strip_grep_line_number(&clean.text).to_owned()
                }
                _ => clean.text,
            }
        };
        current.lines.push(PasteLine {
            number,
            text,
            host: clean.host,
        });
        i += 1;
    }
    push(&mut sections, current);
    for section in &mut sections {
        rejoin_soft_wraps(section, &raw);
    }
    sections
}

/// Where one output ends and another begins in a file several were pasted into without a
/// prompt or a fence between them ([`content_boundary`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Boundary {
    /// A `---` line (a YAML document marker or a Markdown rule): dropped, the outputs on either
    /// side read on their own.
    Rule,
    /// The line starts the next output.
    Before,
}

/// What the block a section started with is, as far as cutting goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    /// Pretty-printed JSON (`kubectl get -o json`): a line `{` or `[` first.
    Json,
    /// A Kubernetes object in YAML (`kubectl get -o yaml`): `apiVersion:` or `kind:` first.
    Yaml,
    /// Anything else (`describe`, tables, logs).
    Other,
}

/// The kind of `section`'s first line that is no blank and no `#` comment.
fn block_kind(section: &Section) -> Option<BlockKind> {
    let first = section
        .lines
        .iter()
        .map(|l| l.text.trim_end())
        .find(|t| !t.trim().is_empty() && !t.starts_with('#'))?;
    Some(
        if first == "{" || first == "[" || first.starts_with("{\"") {
            BlockKind::Json
        } else if first.starts_with("apiVersion:") || first.starts_with("kind:") {
            BlockKind::Yaml
        } else {
            BlockKind::Other
        },
    )
}

/// True when `line` (at column 0) can be a line of a Kubernetes object in block YAML: indented,
/// a comment, a sequence item, a document marker, or a key that starts lowercase (`apiVersion`,
/// `kind`, `metadata`, `spec`, `status`, `items`: the API's field names).
fn yaml_object_line(line: &str) -> bool {
    let t = line.trim_end();
    t.is_empty()
        || t.starts_with([' ', '\t', '#'])
        || t == "-"
        || t.starts_with("- ")
        || t == "..."
        || crate::describe::yaml_key(t)
            .is_some_and(|k| k.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// Where a paste of several outputs with nothing between them but blank lines or `---` (two
/// files concatenated, a `kubectl get -o json` above its events table) turns from one output
/// to the next, at `line` (terminal text) after the lines of `current` (never inside what a
/// shown HTTP client printed):
///
/// - a `---` line: [`Boundary::Rule`];
/// - after a JSON value that ends on a line `}` or `]`, the first other line that does not go
///   on with JSON (another value, a comma);
/// - in a YAML object, a line at column 0 that YAML of an object does not have (`Name:  ...`
///   of `describe`, a table header, `[preflight] ...`, `Events:`);
/// - after a blank line in any other output, a line that starts JSON (`{` or `[` alone) or a
///   YAML object (`apiVersion:` / `kind:` at column 0).
fn content_boundary(current: &Section, line: &str) -> Option<Boundary> {
    // what an HTTP client printed is one answer (`curl -i`: headers, a blank line, the JSON
    // body)
    if current.command.as_ref().is_some_and(|c| {
        c.text
            .split_whitespace()
            .find(|w| *w != "sudo" && !is_assignment(w))
            .is_some_and(|w| matches!(w, "curl" | "wget" | "http" | "https"))
    }) {
        return None;
    }
    let t = line.trim_end();
    let kind = block_kind(current)?;
    if t == "---" {
        return Some(Boundary::Rule);
    }
    if t.trim().is_empty() {
        return None;
    }
    let last = current
        .lines
        .iter()
        .rev()
        .find(|l| !l.text.trim().is_empty())
        .map(|l| l.text.trim_end())?;
    // a blank line, then maybe `#` comments (a file's header above its YAML)
    let after_blank = current
        .lines
        .iter()
        .rev()
        .find(|l| !l.text.starts_with('#'))
        .is_some_and(|l| l.text.trim().is_empty());
    match kind {
        BlockKind::Json => {
            let ended = (last == "}" || last == "]")
                && !t.starts_with(['{', '[', ',', ']', '}'])
                && crate::describe::looks_like_json(&current.text())
                && serde_json::Deserializer::from_str(&current.text())
                    .into_iter::<serde::de::IgnoredAny>()
                    .all(|v| v.is_ok());
            ended.then_some(Boundary::Before)
        }
        BlockKind::Yaml => (!yaml_object_line(t)).then_some(Boundary::Before),
        BlockKind::Other => (after_blank
            && (t == "{" || t == "[" || t.starts_with("apiVersion:") || t.starts_with("kind:")))
        .then_some(Boundary::Before),
    }
}

/// True when `text`, which starts as a JSON or YAML dump, goes on with output of another kind
/// after a blank line or `---` (a table, `describe` output, a log: several files pasted into one,
/// see `content_boundary`): read it as a paste, section by section ([`split`]), not as one
/// dump. A stream of JSON values or YAML documents alone is no such paste.
pub fn holds_other_output(text: &str) -> bool {
    let other_line = |l: &str| {
        let t = l.trim_end();
        !(t.is_empty()
            || t.starts_with(['{', '[', '}', ']', '"', ','])
            || t == "---"
            || yaml_object_line(t))
    };
    if !text.lines().any(other_line) {
        return false;
    }
    let sections = split(text);
    let structured = |s: &Section| {
        matches!(
            crate::snapshot::detect_format(s.text().as_bytes()),
            InputFormat::Json | InputFormat::Yaml
        )
    };
    let live: Vec<&Section> = sections.iter().filter(|s| !s.is_blank()).collect();
    live.len() > 1 && live.iter().any(|s| structured(s)) && live.iter().any(|s| !structured(s))
}

/// True when `line` starts an error record of its own, never the rest of another message or a
/// row of a table: a klog header of level `E`/`F` (k8s.io/klog/v2 `klog.go` `formatHeader`),
/// logrus' `ERRO[` / `FATA[` / `PANI[` (sirupsen/logrus `text_formatter.go`), kubectl's error
/// prefixes (k8s.io/kubectl `pkg/cmd/util/helpers.go` `checkErr` / `StandardErrorMessage`:
/// `error: `, `Error from server`, `Unable to connect to the server`, `The connection to the
/// server`) and cobra's `Error: `. Table and describe readers skip such a line (stderr printed
/// between the rows of stdout); the caller reads it as a log line.
pub fn starts_error_record(line: &str) -> bool {
    let b = line.as_bytes();
    let klog = b.len() > 14
        && matches!(b[0], b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' '
        && b[8] == b':';
    klog || [
        "ERRO[",
        "FATA[",
        "PANI[",
        "error: ",
        "Error: ",
        "Error from server",
        "Unable to connect to the server",
        "The connection to the server",
    ]
    .iter()
    .any(|p| line.starts_with(p))
}

/// Terminal widths people copy from (`COLUMNS` of a default terminal, a maximised one, a
/// classic VT100's 132): a single line at one of these exactly may be a soft-wrapped one.
const TERMINAL_WIDTHS: &[usize] = &[80, 100, 120, 132, 160, 200, 240];

/// The line of a log a terminal soft-wrapped at its width, joined back (a terminal breaks a
/// line longer than its width into pieces of exactly that many columns, and a copy of the
/// screen keeps the breaks): in a log section (text, not a table or `describe` output, whose
/// rows may all be as long), when the longest lines are all `W` columns long — `W` a
/// [`TERMINAL_WIDTHS`] width, or at least two such lines and `W` >= 60 — each line of exactly
/// `W` columns is continued by the next line unless that one starts a record of its own (a log
/// prefix, a klog header, a level word, a bracketed tag, a prompt or a fence, a blank line).
/// The joined line keeps the number of its first piece.
fn rejoin_soft_wraps(section: &mut Section, raw: &[&str]) {
    if section.lines.len() < 2
        || crate::snapshot::detect_format(section.text().as_bytes()) != InputFormat::Text
    {
        return;
    }
    // each line's terminal text, made once (the width test and the joins read it again)
    let shown: Vec<String> = section
        .lines
        .iter()
        .map(|l| terminal_text(raw.get(l.number.wrapping_sub(1)).copied().unwrap_or("")))
        .collect();
    let widths: Vec<usize> = shown.iter().map(|t| columns(t)).collect();
    let Some(&w) = widths.iter().max() else {
        return;
    };
    let at_w = widths.iter().filter(|&&x| x == w).count();
    if !(TERMINAL_WIDTHS.contains(&w) || (at_w >= 2 && w >= 60)) {
        return;
    }
    // pieces are consecutive lines of the user's file (nothing dropped between them); with a
    // single line at the width, it may be a line that long by chance (kubectl's `To further
    // debug and diagnose cluster problems, use 'kubectl cluster-info dump'.` is 80 columns):
    // then a sentence's end before the break or a capitalised word after it is no piece
    let lone = at_w == 1;
    let continues = |p: usize, n: usize| {
        let (prev, next) = (&section.lines[p], &section.lines[n]);
        let next_text = shown[n].as_str();
        if next.number != prev.number + 1 || starts_record(next_text) {
            return false;
        }
        // records of one log share their first word (a pod name, a host, a date); a piece
        // going on from the middle of a line does not start like the line did
        let first_word = |t: &str| t.split_whitespace().next().unwrap_or("").to_owned();
        let word = first_word(next_text);
        if word.len() >= 3 && word == first_word(&shown[p]) {
            return false;
        }
        // rows of a table padded to one width (a `kubectl get svc` whose last cells are all
        // as long) are no pieces: their cells start at the same columns
        if aligned_cells(&shown[p], next_text) {
            return false;
        }
        if lone {
            let prev_text = shown[p].as_str();
            let ends_sentence = prev_text
                .trim_end()
                .ends_with(['.', '!', '?', ':', '\'', '"']);
            let capital = next_text.starts_with(|c: char| c.is_ascii_uppercase())
                && next_text
                    .chars()
                    .nth(1)
                    .is_some_and(|c| c.is_ascii_lowercase());
            return !ends_sentence && !capital;
        }
        true
    };
    let mut out: Vec<PasteLine> = Vec::with_capacity(section.lines.len());
    let mut k = 0;
    while k < section.lines.len() {
        let first = section.lines[k].clone();
        // the pieces lose what was added per line after the copy (CR, colour, a `> ` quote)
        // and are joined before the rest of the cleaning: Markdown read on a piece alone
        // (a piece that is all `` `...` ``) is not what the whole line holds
        let piece = |n: usize| {
            let raw = raw.get(n.wrapping_sub(1)).copied().unwrap_or("");
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            strip_markdown_quote(&strip_ansi(raw)).to_owned()
        };
        let mut last = k;
        while widths[last] == w && last + 1 < section.lines.len() && continues(last, last + 1) {
            last += 1;
        }
        if last == k {
            out.push(first);
        } else {
            let mut joined = String::new();
            for l in &section.lines[k..=last] {
                joined.push_str(&piece(l.number));
            }
            let joined = terminal_text(&joined);
            let clean = clean_visible(&joined);
            out.push(PasteLine {
                number: first.number,
                text: clean.text,
                host: if clean.host.is_empty() {
                    first.host
                } else {
                    clean.host
                },
            });
        }
        k = last + 1;
    }
    section.lines = out;
}

/// The columns (in characters) where a cell starts after a run of two or more spaces or a tab
/// (a table printer's padding: `k8s.io/cli-runtime/pkg/printers/tabwriter.go` pads with at
/// least 3).
pub fn cell_starts(line: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut gap = 0usize;
    for (i, c) in line.chars().enumerate() {
        match c {
            ' ' => gap += 1,
            '\t' => gap += 2,
            _ => {
                if gap >= 2 {
                    out.push(i);
                }
                gap = 0;
            }
        }
    }
    out
}

/// Two lines whose padded cells start at the same columns, at least two of them: rows of one
/// table, never one line a terminal soft-wrapped.
fn aligned_cells(prev: &str, next: &str) -> bool {
    let (a, b) = (cell_starts(prev), cell_starts(next));
    b.len() >= 2 && b.iter().filter(|c| a.contains(c)).count() >= 2
}

/// The columns a terminal gives `line`: a tab moves to the next multiple of 8.
fn columns(line: &str) -> usize {
    line.chars().fold(0, |col, c| {
        if c == '\t' {
            col + 8 - col % 8
        } else {
            col + 1
        }
    })
}

/// True when `line` (terminal text) starts a record of its own, so it is no soft-wrapped piece
/// of the line before: blank, a log prefix [`clean_line`] removes, a klog header, a level word,
/// a bracketed tag (`[preflight]`), a row of a table drawn with `|` and `+`, a shell prompt or
/// a fence.
fn starts_record(line: &str) -> bool {
    let t = line.trim();
    // a table drawn with box characters (`nvidia-smi`, `npu-smi`): its rows are all as long
    if t.is_empty() || t.starts_with(['[', '|', '+']) || is_fence_or_wrapper(line) {
        return true;
    }
    if prompt_command(line).is_some() || klog_header(t).is_some() {
        return true;
    }
    // a level word as loggers print it: upper case (`ERROR `, `INFO[0000]`, `WARN:`), or any
    // case right before a colon (`error: ...`, `Warning: ...`); a piece that merely starts with
    // the letters (`info?timeout=10s` of a wrapped URL) is none
    let word = t
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    let level = matches!(
        word.to_ascii_uppercase().as_str(),
        "ERROR"
            | "ERRO"
            | "WARN"
            | "WARNING"
            | "INFO"
            | "DEBUG"
            | "DEBU"
            | "FATAL"
            | "PANIC"
            | "TRACE"
    );
    // kubectl's own error lines (k8s.io/kubectl `pkg/cmd/util/helpers.go` `checkErr` and
    // `StandardErrorMessage`: `Error from server (<Reason>): ...`, `Unable to connect to the
    // server: ...`, `The connection to the server <host> was refused ...`): stderr of a command
    // printed between a log's records is a record of its own, never a wrapped piece of one
    if [
        "Error from server",
        "Unable to connect to the server",
        "The connection to the server",
    ]
    .iter()
    .any(|p| t.starts_with(p))
    {
        return true;
    }
    let after = &t[word.len()..];
    if level
        && (word.chars().all(|c| c.is_ascii_uppercase()) || after.starts_with(':'))
        && !after.starts_with(|c: char| c.is_ascii_alphanumeric())
    {
        return true;
    }
    // a collector's or logger's prefix (what [`clean_line`] removes), a JSON record, logfmt
    // that starts with its time or level; not the Markdown or quoting that cleaning also
    // undoes (a piece ending the line's `` `...` `` span)
    cri_prefix(t).is_some()
        || journal_prefix(t).is_some()
        || bracketed_timestamp(t).is_some()
        || timestamp_prefix(t).is_some()
        || runner_prefix(t).is_some()
        || tool_prefix(t).is_some()
        || hwlog_record(t).is_some()
        || t.starts_with("{\"")
        || ["time=", "ts=", "level=", "msg="]
            .iter()
            .any(|k| t.starts_with(k))
}

/// Lines of a unified diff (`git diff`, a pull request's review thread) read as the text they
/// add: when every non-blank line of the paste is a diff line (`+`, `-`, ` ` context, `@@`
/// hunk headers, `diff --git` / `index` / `---` / `+++` file headers) with a hunk header or
/// only `+` lines, the added and context lines lose their marker and the removed lines and
/// headers are dropped; elsewhere, a run of at least three consecutive `+` lines (a pasted
/// added block) loses its markers. Line numbers stay those of the user's file (a dropped line
/// becomes blank).
fn strip_diff_markers(lines: Vec<&str>) -> Vec<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    let header = |l: &str| {
        l.starts_with("@@")
            || l.starts_with("diff --git ")
            || l.starts_with("index ")
            || l.starts_with("+++ ")
            || l.starts_with("--- ")
            || l.starts_with("\\ No newline")
    };
    let added = |l: &str| l.starts_with('+') && !l.starts_with("+++ ");
    let non_blank: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let all_diff = non_blank
        .iter()
        .all(|l| header(l) || l.starts_with(['+', '-', ' ']));
    let hunks = non_blank.iter().any(|l| l.starts_with("@@"));
    let only_added = non_blank.iter().all(|l| added(l));
    if non_blank.iter().filter(|l| added(l)).count() >= 2 && all_diff && (hunks || only_added) {
        return lines
            .into_iter()
            .map(|l| {
                if header(l) || l.starts_with('-') {
                    Cow::Borrowed("")
                } else if l.starts_with(['+', ' ']) {
                    Cow::Borrowed(&l[1..])
                } else {
                    Cow::Borrowed(l)
                }
            })
            .collect();
    }
    let mut out: Vec<Cow<'_, str>> = lines.iter().map(|l| Cow::Borrowed(*l)).collect();
    let mut i = 0;
    while i < lines.len() {
        let run = lines[i..]
            .iter()
            .take_while(|l| added(l) && !l.starts_with("++"))
            .count();
        if run >= 3 {
            for (j, l) in lines[i..i + run].iter().enumerate() {
                out[i + j] = Cow::Borrowed(&l[1..]);
            }
        }
        i += run.max(1);
    }
    out
}

/// Words with a digit that programs put before `: ` themselves (Go's `x509: ...`, mount
/// helpers `mount.nfs4: ...`, `http2: ...`, tool names and architectures): never a host.
const NOT_HOSTS: &[&str] = &[
    "x509",
    "http2",
    "h2c",
    "ipv4",
    "ipv6",
    "ip6tables",
    "sha1",
    "sha256",
    "sha512",
    "md5",
    "base64",
    "utf8",
    "utf16",
    "k8s",
    "k3s",
    "k0s",
    "rke2",
    "s3",
    "ec2",
    "gce",
    "nfs4",
    "nfsv4",
    "nfsv3",
    "nfs3",
    "ext4",
    "ext3",
    "cgroup2",
    "cgroupv2",
    "amd64",
    "arm64",
    "x86_64",
    "aarch64",
    "i386",
    "oauth2",
    "tls13",
    "tls12",
    "log4j",
    "e2fsck",
    "mkfs.ext4",
    "mount.nfs4",
    "mount.nfs3",
    "mkfs.ext3",
    "resize2fs",
    "tune2fs",
    "e2label",
    "ip6",
];

/// The host of a `<host>: <line>` prefix: a host name (letters, digits, `-`, `.`, `_`) with
/// a digit in it, not a word programs print before `: ` themselves ([`NOT_HOSTS`], a version
/// `v1.28`), a systemd unit or a Go file.
fn host_prefix(line: &str) -> Option<&str> {
    let (host, rest) = line.split_once(": ")?;
    let lower = host.to_ascii_lowercase();
    if NOT_HOSTS.contains(&lower.as_str())
        || lower.starts_with("mount.")
        || lower.starts_with("mkfs.")
        || (lower.starts_with('v') && lower[1..].starts_with(|c: char| c.is_ascii_digit()))
    {
        return None;
    }
    let ok = (3..=253).contains(&host.len())
        && host.chars().any(|c| c.is_ascii_digit())
        && host.chars().any(|c| c.is_ascii_alphabetic())
        && host.starts_with(|c: char| c.is_ascii_alphanumeric())
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
        && ![
            ".service", ".socket", ".scope", ".mount", ".go", ".slice", ".target", ".timer",
        ]
        .iter()
        .any(|suffix| host.ends_with(suffix))
        && !rest.trim().is_empty();
    ok.then_some(host)
}

/// `<host>: <line>` prefixes of tools that run one command on several machines and tag every
/// output line with the machine (pdsh and clush print `%s: %s`; CI scripts that log each VM's
/// output the same way, such as intel/pmem-csi `test/start-kubernetes.sh` `log_lines`): the
/// prefix is removed and kept as the line's host. Only when at least two lines of the section
/// have such a prefix (one `name: text` line is just text).
/// True when `s` is a DNS-1123 label (lower-case letters, digits, `-`; what pod, container and
/// namespace names are).
fn dns_label(s: &str) -> bool {
    (1..=63).contains(&s.len())
        && s.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && !s.ends_with('-')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// True when `s` is a pod name a controller made: a DNS label ending in the 5-character suffix
/// of a ReplicaSet or DaemonSet pod (`-x2k4p`) or a StatefulSet ordinal (`-0`).
fn pod_name_like(s: &str) -> bool {
    dns_label(s)
        && s.rsplit_once('-').is_some_and(|(_, tail)| {
            (tail.len() == 5 && tail.chars().all(|c| c.is_ascii_alphanumeric()))
                || (!tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit()))
        })
}

/// The `stern` prefix of `line`: `POD CONTAINER ` or, across namespaces, `NAMESPACE POD
/// CONTAINER ` (stern's default template `{{color .PodColor .PodName}} {{color
/// .ContainerColor .ContainerName}} {{.Message}}`, the namespace in front with several
/// namespaces: stern/stern `cmd/cmd.go`), with its length.
fn stern_prefix(line: &str) -> Option<(String, usize)> {
    let mut words = line.splitn(4, ' ');
    let (a, b) = (words.next()?, words.next()?);
    let c = words.next();
    let prefix = if pod_name_like(a) && dns_label(b) {
        format!("{a} {b}")
    } else if dns_label(a) && pod_name_like(b) && c.is_some_and(dns_label) {
        format!("{a} {b} {}", c.unwrap_or(""))
    } else {
        return None;
    };
    let len = prefix.len();
    (line == prefix || line[len..].starts_with(' ')).then_some((prefix, len))
}

/// `stern`'s `POD CONTAINER ` prefix removed from the lines of a section where most lines
/// carry one (two lines at least, four in five of its lines): what follows is the container's
/// log line, cleaned as any other (a klog header, a JSON record).
fn strip_stern_prefixes(section: &mut Section) {
    let live: Vec<&PasteLine> = section
        .lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .collect();
    let prefixed = live
        .iter()
        .filter(|l| stern_prefix(&l.text).is_some())
        .count();
    if prefixed < 2 || prefixed * 5 < live.len() * 4 {
        return;
    }
    for l in &mut section.lines {
        if let Some((_, len)) = stern_prefix(&l.text) {
            let rest = l.text[len..].strip_prefix(' ').unwrap_or("").to_owned();
            let clean = clean_visible(&rest);
            l.text = clean.text;
            if l.host.is_empty() {
                l.host = clean.host;
            }
        }
    }
}

fn strip_host_prefixes(section: &mut Section) {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for l in &section.lines {
        if let Some(h) = host_prefix(&l.text) {
            match counts.iter_mut().find(|(c, _)| *c == h) {
                Some((_, n)) => *n += 1,
                None => counts.push((h, 1)),
            }
        }
    }
    if counts.iter().map(|(_, n)| n).sum::<usize>() < 2 {
        return;
    }
    let hosts: Vec<String> = counts.into_iter().map(|(h, _)| h.to_owned()).collect();
    for l in &mut section.lines {
        let Some(h) = host_prefix(&l.text) else {
            continue;
        };
        if !hosts.iter().any(|k| k == h) {
            continue;
        }
        let host = h.to_owned();
        let rest = l.text[host.len() + 2..].to_owned();
        let clean = clean_visible(&rest);
        l.text = clean.text;
        if l.host.is_empty() {
            l.host = if clean.host.is_empty() {
                host
            } else {
                clean.host
            };
        }
    }
}

/// API `Status` bodies inside a section's text ([`crate::status::expand_in_lines`]: after
/// `Response Body: ` of `kubectl -v=8`, after `curl -i`'s status line and headers, pretty
/// bodies among other lines) are replaced by what they say: the message and the causes
/// ([`crate::status::ApiStatus::lines`]), at the line number of the message; the HTTP status
/// line and headers before a body are part of it. A section that is nothing but one Status
/// body is left whole (the snapshot loader reads it as an object).
fn expand_statuses(section: &mut Section) {
    if !section
        .lines
        .iter()
        .any(|l| l.text.contains("Status") || l.text.contains("\"code\""))
    {
        return;
    }
    let texts: Vec<&str> = section.lines.iter().map(|l| l.text.as_str()).collect();
    let found = crate::status::expand_in_lines(&texts);
    if found.is_empty() {
        return;
    }
    let blank = |r: std::ops::Range<usize>| texts[r].iter().all(|t| t.trim().is_empty());
    if let [one] = found.as_slice()
        && blank(0..one.first)
        && blank(one.end..texts.len())
        && texts[one.first].trim_start().starts_with('{')
    {
        return;
    }
    let mut out = Vec::with_capacity(section.lines.len());
    let mut next = 0;
    for at in &found {
        out.extend(section.lines[next..at.first].iter().cloned());
        let origin = &section.lines[at.message_line];
        for text in at.status.lines() {
            out.push(PasteLine {
                number: origin.number,
                text,
                host: origin.host.clone(),
            });
        }
        next = at.end;
    }
    out.extend(section.lines[next..].iter().cloned());
    section.lines = out;
}

/// grep's group separator: GNU grep prints a line `--` between groups of context lines
/// (`grep -A/-B/-C`, GNU grep `src/grep.c` `group_separator = "--"`; BSD grep the same). No
/// kubectl, kubelet or kubeadm output prints a line holding only `--`.
pub fn is_grep_group_separator(line: &str) -> bool {
    line.trim() == "--"
}

/// True when `command` pipes through (or is) a grep that prefixes line numbers: `grep -n`,
/// `-nA3`, `-in`, `--line-number` (GNU grep `src/grep.c`: `NUM:` before a matching line,
/// `NUM-` before a context line; egrep, fgrep, zgrep and ripgrep's `rg -n` print the same).
pub fn grep_numbers_lines(command: &str) -> bool {
    command.split('|').any(|stage| {
        let mut words = stage
            .split_whitespace()
            .skip_while(|w| matches!(*w, "sudo" | "time") || is_assignment(w));
        let program = words.next().unwrap_or("");
        let program = program.rsplit('/').next().unwrap_or(program);
        if !matches!(program, "grep" | "egrep" | "fgrep" | "zgrep" | "rg") {
            return false;
        }
        words.any(|w| {
            w == "--line-number"
                || (w.starts_with('-')
                    && !w.starts_with("--")
                    && w[1..]
                        .chars()
                        .take_while(char::is_ascii_alphabetic)
                        .any(|c| c == 'n'))
        })
    })
}

/// `line` without grep's line-number prefix (`12:` before a match, `12-` before a context
/// line); unchanged when it has none.
pub fn strip_grep_line_number(line: &str) -> &str {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return line;
    }
    match t.as_bytes().get(digits) {
        Some(b':' | b'-') => &t[digits + 1..],
        _ => line,
    }
}

/// The first line of an Ansible task result: `fatal: [host]: FAILED! => {`, `ok: [host] => {`.
fn ansible_head(line: &str) -> bool {
    let t = line.trim_start();
    ["fatal: [", "failed: [", "ok: [", "changed: ["]
        .iter()
        .any(|p| t.starts_with(p))
        && t.split_once("=> ")
            .is_some_and(|(_, j)| j.trim_start().starts_with('{'))
}

/// An Ansible task result (`fatal: [node2]: FAILED! => {...}`, `ok: [host] => {...}`, as
/// kubespray and other installers print them): the line itself, then the lines of its
/// `stderr`, `stdout` and `msg` (JSON-escaped inside the result). When the JSON does not parse
/// (a result cut or wrapped by hand), the escapes are resolved in the raw text instead.
pub fn ansible_result(line: &str) -> Option<Vec<String>> {
    let t = line.trim_start();
    let (head, json) = t.split_once("=> ")?;
    if !ansible_head(t) || !json.trim_start().starts_with('{') {
        return None;
    }
    let mut out = vec![head.trim_end().to_owned()];
    // an inline-code backtick around a pasted result is not part of it
    let json = json.trim().trim_matches('`');
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(json) {
        Ok(map) => {
            // the command module's own facts stay on the head line as a JSON object (`cmd`,
            // `rc`, `delta`, ansible/ansible lib/ansible/modules/command.py), with the last
            // line of stdout/stderr (`stdout_tail`, `stderr_tail`): what ran, how it ended
            // and where it stopped, for the readers of failed commands
            let mut facts = serde_json::Map::new();
            for key in ["cmd", "rc", "delta"] {
                if let Some(v) = map.get(key) {
                    facts.insert(key.to_owned(), v.clone());
                }
            }
            if facts.contains_key("cmd") {
                for key in ["stdout", "stderr"] {
                    let tail = map
                        .get(key)
                        .and_then(serde_json::Value::as_str)
                        .and_then(|t| t.lines().map(str::trim).rfind(|l| !l.is_empty()));
                    if let Some(tail) = tail {
                        facts.insert(format!("{key}_tail"), tail.into());
                    }
                }
                if let Ok(text) = serde_json::to_string(&facts) {
                    out[0] = format!("{} => {text}", head.trim_end());
                }
            }
            for key in ["stderr", "stdout", "msg"] {
                match map.get(key) {
                    Some(serde_json::Value::String(text)) => {
                        out.extend(text.lines().map(str::to_owned));
                    }
                    // `stderr_lines` / `stdout_lines` when the string itself was left out
                    // (ansible/ansible lib/ansible/executor/task_executor.py adds both)
                    _ => {
                        if let Some(serde_json::Value::Array(lines)) =
                            map.get(&format!("{key}_lines"))
                        {
                            out.extend(lines.iter().filter_map(|l| l.as_str().map(str::to_owned)));
                        }
                    }
                }
            }
        }
        Err(_) => {
            let unescaped = json
                .replace("\\n", "\n")
                .replace("\\t", "\t")
                .replace("\\\"", "\"");
            out.extend(unescaped.lines().map(str::to_owned));
        }
    }
    Some(out)
}

/// What a terminal shows for `raw`: ANSI sequences and control characters removed, CR handled
/// (a final CR dropped; after an inner CR the last redraw kept).
pub fn terminal_text(raw: &str) -> String {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let html;
    let raw = if looks_like_html(raw) {
        html = strip_html(raw);
        html.as_str()
    } else {
        raw
    };
    let raw = match raw.rsplit_once('\r') {
        Some((_, after)) if !after.trim().is_empty() => after,
        Some((before, _)) => before
            .rsplit('\r')
            .find(|p| !p.trim().is_empty())
            .unwrap_or(""),
        None => raw,
    };
    strip_markdown_bold(strip_markdown_quote(&strip_ansi(raw)))
}

/// A line without its Markdown block-quote markers (`> `, nested `> > `, a lone `>`), as issue
/// comments quote terminal output: `> NAME   READY   STATUS`. Only a `>` followed by a blank,
/// another `>` or the line's end is a marker (`>foo` stays); what follows the marker's one
/// blank keeps its indentation (a quoted `describe`).
fn strip_markdown_quote(line: &str) -> &str {
    let t = line.trim_start_matches(' ');
    // a quote marker is indented by at most 3 spaces (CommonMark block quotes)
    if !t.starts_with('>') || line.len() - t.len() > 3 {
        return line;
    }
    let mut rest = t;
    while let Some(r) = rest.strip_prefix('>') {
        if r.is_empty() {
            return "";
        }
        if r.starts_with('>') {
            rest = r;
        } else if let Some(r) = r.strip_prefix([' ', '\t']) {
            rest = r;
            // a nested marker after the blank (`> > text`)
            let inner = rest.trim_start_matches(' ');
            if inner.starts_with('>') && rest.len() - inner.len() <= 3 {
                let after = &inner[1..];
                if after.is_empty() || after.starts_with([' ', '\t', '>']) {
                    rest = inner;
                    continue;
                }
            }
            return rest;
        } else {
            return line;
        }
    }
    rest
}

/// A line with Markdown inline-code backticks around the whole line removed, and Markdown bold
/// markers (`**`) removed where they open or close a run of words
/// (`**[root@node-03 ~]# kubectl get pods**`, `Warning  **FailedScheduling ... gpu.**`): a
/// marker preceded by the line start or a blank and followed by a non-blank, or the reverse.
/// Only an even number of such markers is removed (a lone `**` is text, as in a glob
/// `**/*.yaml`); `**` inside a word (`2**10`) is never touched.
fn strip_markdown_bold(line: &str) -> String {
    // a whole line written as inline code (`` `kubectl get nodes` ``): the code
    let t = line.trim();
    if t.len() > 2 && t.starts_with('`') && t.ends_with('`') && !t[1..t.len() - 1].contains('`') {
        let indent = &line[..line.len() - line.trim_start().len()];
        return strip_markdown_bold(&format!("{indent}{}", &t[1..t.len() - 1]));
    }
    if !line.contains("**") {
        return line.to_owned();
    }
    let b = line.as_bytes();
    let blank = |i: usize| b.get(i).is_none_or(|c| c.is_ascii_whitespace());
    let mut marks = Vec::new();
    let mut i = 0;
    while let Some(at) = line[i..].find("**").map(|p| p + i) {
        let mut end = at + 2;
        while b.get(end) == Some(&b'*') {
            end += 1;
        }
        if end - at == 2 {
            let before = at == 0 || blank(at - 1);
            let after = blank(end);
            if before != after {
                marks.push(at);
            }
        }
        i = end;
    }
    if marks.is_empty() || marks.len() % 2 == 1 {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len());
    let mut from = 0;
    for at in marks {
        out.push_str(&line[from..at]);
        from = at + 2;
    }
    out.push_str(&line[from..]);
    out
}

/// Inline HTML tags a terminal's "copy as HTML" (or an issue body written in HTML) wraps
/// output in: `<font color=...>`, `<b>`, `<span ...>`, `<pre>`, `<code>`, ...
const HTML_TAGS: &[&str] = &[
    "font", "b", "i", "u", "em", "strong", "span", "pre", "code", "br", "samp", "kbd",
];

/// True when `line` holds one of [`HTML_TAGS`] or an HTML entity (`&lt;`, `&gt;`, `&amp;`,
/// `&quot;`, `&#39;`, `&nbsp;`).
fn looks_like_html(line: &str) -> bool {
    let has_tag = line.match_indices('<').any(|(i, _)| {
        let rest = line[i + 1..].trim_start_matches('/');
        // `get`: the bytes after `<` may hold a multi-byte character where a tag name would end
        HTML_TAGS.iter().any(|t| {
            rest.len() > t.len()
                && rest
                    .get(..t.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(t))
                && rest[t.len()..].starts_with([' ', '>', '/'])
        })
    });
    has_tag
        || ["&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&nbsp;"]
            .iter()
            .any(|e| line.contains(e))
        || numeric_entity_at(line).is_some()
}

/// The first numeric character reference of `line` (`&#39;`, `&#x27;`: an issue page or an
/// e-mail copied as HTML), as (start, end, character).
fn numeric_entity_at(line: &str) -> Option<(usize, usize, char)> {
    let mut from = 0;
    while let Some(i) = line[from..].find("&#").map(|i| i + from) {
        let body = &line[i + 2..];
        let (hex, digits) = match body.strip_prefix(['x', 'X']) {
            Some(h) => (true, h),
            None => (false, body),
        };
        let n = digits
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(digits.len());
        let ok_digits = n > 0 && n <= 6 && (hex || digits[..n].chars().all(|c| c.is_ascii_digit()));
        if ok_digits && digits[n..].starts_with(';') {
            let value = u32::from_str_radix(&digits[..n], if hex { 16 } else { 10 }).ok();
            if let Some(c) = value.and_then(char::from_u32) {
                let end = i + 2 + usize::from(hex) + n + 1;
                return Some((i, end, c));
            }
        }
        from = i + 2;
    }
    None
}

/// The whole of `text` decoded when it was HTML-escaped as a whole (a dump or a log copied out
/// of an issue page's HTML, an e-mail, a wiki): it holds `&quot;`, `&lt;`, `&gt;`, `&#39;`,
/// `&#34;` or `&apos;` and never the character any of those stands for, so no entity in it can
/// be text the program printed. `None` otherwise (text with a raw `"` next to a `&quot;` is
/// left as it is: the entity may be part of the data, and pastes are decoded line by line by
/// [`clean_line`] where that is safe). JSON and YAML read after this parse as printed.
pub fn html_unescaped(text: &str) -> Option<String> {
    const ENTITIES: &[(&str, char)] = &[
        ("&quot;", '"'),
        ("&#34;", '"'),
        ("&lt;", '<'),
        ("&gt;", '>'),
        ("&#39;", '\''),
        ("&apos;", '\''),
    ];
    let mut any = false;
    for (entity, raw) in ENTITIES {
        if text.contains(entity) {
            if text.contains(*raw) {
                return None;
            }
            any = true;
        }
    }
    any.then(|| strip_html(text))
}

/// `text` with its Markdown tables written back as the column-aligned tables kubectl prints:
/// people paste `kubectl get` output into an issue as `| NAME | STATUS | ... |` rows under a
/// `|---|---|` separator. Each run of pipe rows that has a separator row becomes a table whose
/// cells are padded to their column's width and separated by three spaces (the separator row
/// becomes a rule of dashes, so the line count is kept); an empty cell is `<none>`, as
/// kubectl prints a missing value. `None` when the text holds no such table.
pub fn markdown_tables(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let pipe_row = |l: &str| {
        let t = l.trim_end_matches('\r').trim();
        t.len() > 2 && t.starts_with('|') && t.ends_with('|')
    };
    let separator = |l: &str| {
        let t = l.trim_end_matches('\r').trim();
        pipe_row(t)
            && t.contains('-')
            && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
    };
    let cells = |l: &str| -> Vec<String> {
        let t = l.trim_end_matches('\r').trim();
        let inner = &t[1..t.len() - 1];
        inner
            .split('|')
            .map(|c| {
                let c = c.trim().trim_matches('`').trim();
                if c.is_empty() {
                    "<none>".to_owned()
                } else {
                    c.to_owned()
                }
            })
            .collect()
    };
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut changed = false;
    let mut i = 0;
    while i < lines.len() {
        // a table: pipe rows with a separator row among the first two
        let run = lines[i..].iter().take_while(|l| pipe_row(l)).count();
        let has_sep = run >= 2 && lines[i..i + run].iter().take(2).any(|l| separator(l));
        if !has_sep {
            out.push(lines[i].to_owned());
            i += 1;
            continue;
        }
        let rows: Vec<Option<Vec<String>>> = lines[i..i + run]
            .iter()
            .map(|l| (!separator(l)).then(|| cells(l)))
            .collect();
        let cols = rows.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let mut widths = vec![0usize; cols];
        for r in rows.iter().flatten() {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        for r in &rows {
            match r {
                // kubectl's own rule under a header (describe's tables): skipped by the
                // table readers, and the line count is kept
                None => out.push(
                    widths
                        .iter()
                        .map(|w| "-".repeat((*w).max(1)))
                        .collect::<Vec<_>>()
                        .join("   "),
                ),
                Some(r) => {
                    let mut line = String::new();
                    for (k, c) in r.iter().enumerate() {
                        line.push_str(c);
                        if k + 1 < r.len() {
                            let pad = widths[k].saturating_sub(c.chars().count()) + 3;
                            line.push_str(&" ".repeat(pad));
                        }
                    }
                    out.push(line);
                }
            }
        }
        changed = true;
        i += run;
    }
    changed.then(|| out.join("\n"))
}

/// `line` without [`HTML_TAGS`] and with the common entities decoded.
fn strip_html(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let name = after.trim_start_matches('/');
        let is_tag = HTML_TAGS.iter().any(|t| {
            name.len() > t.len()
                && name
                    .get(..t.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(t))
                && name[t.len()..].starts_with([' ', '>', '/'])
        });
        match (is_tag, after.find('>')) {
            (true, Some(end)) => rest = &after[end + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    let mut out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&nbsp;", " ");
    // numeric references (`&#39;`, `&#x27;`, `&#34;`), then `&amp;` last so that `&amp;lt;`
    // stays the text `&lt;`
    let mut decoded = String::with_capacity(out.len());
    while let Some((start, end, c)) = numeric_entity_at(&out) {
        decoded.push_str(&out[..start]);
        decoded.push(c);
        out.replace_range(..end, "");
    }
    decoded.push_str(&out);
    decoded.replace("&amp;", "&")
}

/// Removes ANSI escape sequences (CSI, OSC, two-byte escapes), their remnants when the escape
/// byte was lost (`[0;31m`, `[0m`, only on a line that has a reset `[0m`/`[m`), and control
/// characters other than tab.
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            match chars.peek() {
                Some('[') => {
                    chars.next();
                    // parameters and intermediates, then one final byte in @..~
                    for n in chars.by_ref() {
                        if ('@'..='~').contains(&n) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    chars.next();
                    // OSC: up to BEL or ESC \
                    while let Some(n) = chars.next() {
                        if n == '\u{7}' {
                            break;
                        }
                        if n == '\u{1b}' {
                            if chars.peek() == Some(&'\\') {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            }
            continue;
        }
        if c == '\u{9b}' {
            // 8-bit CSI
            for n in chars.by_ref() {
                if ('@'..='~').contains(&n) {
                    break;
                }
            }
            continue;
        }
        if c.is_control() && c != '\t' {
            continue;
        }
        out.push(c);
    }
    if out.contains("[0m") || out.contains("[m") {
        // (a bracketed list starting with `m`, `[minimum ...`, is kept: see strip_sgr_remnants)
        out = strip_sgr_remnants(&out);
    }
    out
}

/// `[1;31m`-style remnants of colour sequences whose escape byte was lost.
fn strip_sgr_remnants(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find('[') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        let params = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        // a bare `[m` (reset without parameters) only where no word follows it: the API
        // server's aggregated errors are bracketed lists (`forbidden: [minimum memory usage
        // ...]`, k8s.io/apimachinery util/errors NewAggregate) and `[m` starts their first word
        let bare_word = params == 0
            && after[1.min(after.len())..].starts_with(|c: char| c.is_ascii_alphanumeric());
        if params <= 12 && after[params..].starts_with('m') && !bare_word {
            rest = &after[params + 1..];
        } else {
            out.push('[');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Cleans one raw line of a paste (see the module documentation).
pub fn clean_line(raw: &str) -> CleanLine {
    clean_visible(&terminal_text(raw))
}

fn clean_visible(visible: &str) -> CleanLine {
    let unwrapped = unwrap_inline_code(visible.trim_end());
    let visible = unwrapped.as_str();
    let mut host = String::new();
    // prefixes are looked for after the indentation of a Markdown list or quote; a line
    // without any keeps its indentation (describe output is indented)
    let mut text: String = visible.trim_start().to_owned();
    let original = text.clone();
    // prefixes stack (journald + klog, CRI + klog, timestamps + klog); each pass removes one
    for _ in 0..6 {
        let t = text.as_str();
        if let Some(rest) = cri_prefix(t) {
            text = rest.to_owned();
            continue;
        }
        if let Some((h, rest)) = journal_prefix(t) {
            if host.is_empty() {
                host = h.to_owned();
            }
            text = rest.to_owned();
            continue;
        }
        if let Some(rest) = bracketed_timestamp(t).or_else(|| timestamp_prefix(t)) {
            // GitLab runner's per-line stream metadata after its timestamp (FF_TIMESTAMPS,
            // runner >= 17.0: `2024-05-30T14:30:00.000000Z 00O <line>`, `00E+` for a
            // continued line): two hex digits, O (stdout) or E (stderr), `+` or a blank
            text = gitlab_stream(rest).unwrap_or(rest).to_owned();
            continue;
        }
        if let Some(rest) = runner_prefix(t) {
            text = rest;
            continue;
        }
        if let Some((h, message)) = journald_json(t) {
            if host.is_empty() {
                host = h;
            }
            text = message;
            continue;
        }
        if let Some(inner) = structured_record(t) {
            text = inner;
            continue;
        }
        if let Some(rest) = tool_prefix(t) {
            text = rest.to_owned();
            continue;
        }
        if let Some(reduced) = hwlog_record(t) {
            text = reduced;
            continue;
        }
        break;
    }
    let prefixed = text != original;
    let text = if prefixed { text } else { visible.to_owned() };
    // the klog header stays (its severity letter says E/F/W/I); the message after it is reduced
    let text = match klog_header(&text) {
        Some(msg) => {
            let header = &text[..text.len() - msg.len()];
            format!("{header}{}", reduce_klog_structured(msg, true))
        }
        None => reduce_klog_structured(&text, prefixed),
    };
    CleanLine { text, host }
}

/// `line` without a single-backtick inline-code wrapper that a Markdown paste put around a
/// block (GitHub renders `` `...` `` spanning lines as one code span, so people wrap a log in
/// single backticks): a lone backtick opening the first line or closing the last one (an odd
/// number of backticks on the line), or a pair around the whole line with none inside. Fences
/// (```` ``` ````, two or more backticks) and backticks inside a line stay.
fn unwrap_inline_code(line: &str) -> String {
    let t = line.trim_start();
    let lead = &line[..line.len() - t.len()];
    let count = t.matches('`').count();
    let opens = t.starts_with('`') && !t.starts_with("``");
    let closes = t.ends_with('`') && !t.ends_with("``");
    if count == 0 || t.len() < 2 {
        return line.to_owned();
    }
    let inner = if count % 2 == 1 && opens {
        &t[1..]
    } else if count % 2 == 1 && closes {
        &t[..t.len() - 1]
    } else if count == 2 && opens && closes {
        &t[1..t.len() - 1]
    } else {
        return line.to_owned();
    };
    format!("{lead}{}", inner.trim_end())
}

/// The leading spaces and tabs of `line`.
fn leading_space(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// The longest run of spaces and tabs every non-blank line of `lines` starts with (a tab
/// indentation and a 4-space indentation are both Markdown code; mixed prefixes share only
/// their common start).
fn common_indent<'a>(lines: impl Iterator<Item = &'a str>) -> &'a str {
    let mut common: Option<&str> = None;
    for l in lines.filter(|l| !l.trim().is_empty()) {
        let lead = leading_space(l);
        common = Some(match common {
            None => lead,
            Some(c) => {
                let n = c
                    .bytes()
                    .zip(lead.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &c[..n]
            }
        });
        if common == Some("") {
            break;
        }
    }
    common.unwrap_or("")
}

/// Removes the indentation every non-blank line of the section shares (a paste indented
/// inside a Markdown list item, a quote or an e-mail), then [`dedent_blocks`].
fn dedent(section: &mut Section) {
    let indent = common_indent(section.lines.iter().map(|l| l.text.as_str())).len();
    if indent > 0 {
        for l in &mut section.lines {
            l.text = l.text.get(indent..).unwrap_or("").to_owned();
        }
    }
    dedent_blocks(section);
}

/// Markdown indented code blocks between prose lines (`Describing the pod:`, a blank line, the
/// `describe` output indented by 4 spaces or a tab, a blank line, more prose): each block of
/// indented lines that follows a blank line (or starts the section) and ends before the next
/// line at column 0 loses its own common indentation, when the block dedented reads as
/// `kubectl` output (a describe, an events table, a `get` table). Other indented blocks (the
/// continuation of a describe section after a blank line, a stack trace) stay as they are.
fn dedent_blocks(section: &mut Section) {
    let n = section.lines.len();
    let blank = |s: &Section, i: usize| s.lines[i].text.trim().is_empty();
    let mut i = 0;
    while i < n {
        let starts_block = !blank(section, i)
            && !leading_space(&section.lines[i].text).is_empty()
            && (i == 0 || blank(section, i - 1));
        if !starts_block {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < n
            && (blank(section, end) || !leading_space(&section.lines[end].text).is_empty())
        {
            end += 1;
        }
        let indent = common_indent(section.lines[i..end].iter().map(|l| l.text.as_str())).len();
        let mut text = String::new();
        for l in &section.lines[i..end] {
            text.push_str(l.text.get(indent..).unwrap_or(""));
            text.push('\n');
        }
        let format = crate::describe::detect_text_format(&text);
        if indent > 0
            && format.is_snapshot()
            && !matches!(format, InputFormat::Json | InputFormat::Yaml)
        {
            for l in &mut section.lines[i..end] {
                l.text = l.text.get(indent..).unwrap_or("").to_owned();
            }
        }
        i = end;
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

fn digits(s: &str, n: usize) -> Option<&str> {
    let b = s.as_bytes();
    (b.len() >= n && b[..n].iter().all(u8::is_ascii_digit)).then(|| &s[n..])
}

/// `HH:MM:SS` then optional `.fraction` / `,fraction`; returns the rest.
fn clock(s: &str) -> Option<&str> {
    let s = digits(s, 2)?.strip_prefix(':')?;
    let s = digits(s, 2)?.strip_prefix(':')?;
    let s = digits(s, 2)?;
    Some(fraction(s))
}

fn fraction(s: &str) -> &str {
    match s.strip_prefix(['.', ',']) {
        Some(f) => {
            let n = f.find(|c: char| !c.is_ascii_digit()).unwrap_or(f.len());
            if n == 0 { s } else { &f[n..] }
        }
        None => s,
    }
}

/// `Z`, `+0000`, `+00:00`, ` UTC`, ` +0000` (optional); returns the rest.
fn zone(s: &str) -> &str {
    if let Some(r) = s.strip_prefix('Z') {
        return r;
    }
    if let Some(r) = s.strip_prefix(['+', '-']) {
        if let Some(r) = digits(r, 2) {
            let r = r.strip_prefix(':').unwrap_or(r);
            if let Some(r) = digits(r, 2) {
                return r;
            }
            return r;
        }
        return s;
    }
    for z in [" UTC", " GMT"] {
        if let Some(r) = s.strip_prefix(z) {
            return r;
        }
    }
    s
}

/// `YYYY-MM-DD[T ]HH:MM:SS[.f][zone]` or `YYYY/MM/DD HH:MM:SS[.f]`; returns the rest.
fn iso_timestamp(s: &str) -> Option<&str> {
    let r = digits(s, 4)?;
    let sep = r.chars().next()?;
    if sep != '-' && sep != '/' {
        return None;
    }
    let r = digits(&r[1..], 2)?.strip_prefix(sep)?;
    let r = digits(r, 2)?;
    let r = r.strip_prefix(['T', ' '])?;
    let r = clock(r)?;
    Some(zone(r))
}

/// `Mon DD HH:MM:SS[.f]` (syslog, journald `short`/`short-precise`; the day may be
/// space-padded); returns the rest.
fn syslog_timestamp(s: &str) -> Option<&str> {
    let (month, r) = s.split_once(' ')?;
    if !is_month(month) {
        return None;
    }
    let r = r.strip_prefix(' ').unwrap_or(r);
    let day = r.find(' ')?;
    if day == 0 || day > 2 || !r[..day].chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    clock(&r[day + 1..])
}

/// A month as journald and syslog print it in the reader's locale (`strftime("%b")`): `Nov`,
/// `nov` (Dutch, Spanish, Swedish...), `Okt`, `déc.`, `6月` (Chinese, Japanese), `11월`
/// (Korean): the English abbreviations in any case, a number with 月/월, or a word of two to five
/// letters (with an optional final `.`); the day and clock that must follow keep other words out.
fn is_month(m: &str) -> bool {
    if MONTHS.iter().any(|x| x.eq_ignore_ascii_case(m)) {
        return true;
    }
    if let Some(n) = m.strip_suffix('月').or_else(|| m.strip_suffix('월')) {
        return matches!(n.len(), 1 | 2) && n.chars().all(|c| c.is_ascii_digit());
    }
    let w = m.strip_suffix('.').unwrap_or(m);
    (2..=5).contains(&w.chars().count()) && w.chars().all(char::is_alphabetic)
}

/// `Www YYYY-MM-DD HH:MM:SS TZ` (journald `short-full`); returns the rest.
fn full_timestamp(s: &str) -> Option<&str> {
    let day = s.get(..3)?;
    if !WEEKDAYS.contains(&day) {
        return None;
    }
    let r = iso_timestamp(s[3..].strip_prefix(' ')?)?;
    // a zone abbreviation such as CET or UTC
    match r.strip_prefix(' ') {
        Some(z) => {
            let n = z.find(' ').unwrap_or(z.len());
            if n > 0 && z[..n].chars().all(|c| c.is_ascii_uppercase()) {
                Some(&z[n..])
            } else {
                Some(r)
            }
        }
        None => Some(r),
    }
}

/// `1638352800.123456` (journald `short-unix`); returns the rest.
fn unix_timestamp(s: &str) -> Option<&str> {
    let r = digits(s, 10)?;
    let r = r.strip_prefix('.')?;
    let n = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
    (n > 0).then(|| &r[n..])
}

fn any_timestamp(s: &str) -> Option<&str> {
    iso_timestamp(s)
        .or_else(|| syslog_timestamp(s))
        .or_else(|| full_timestamp(s))
        .or_else(|| unix_timestamp(s))
}

/// journald / syslog: `<timestamp> <host> <ident>[<pid>]: <message>`; returns (host, message).
fn journal_prefix(s: &str) -> Option<(&str, &str)> {
    let r = any_timestamp(s)?.strip_prefix(' ')?;
    let (host, r) = r.split_once(' ')?;
    let level = matches!(
        host.to_ascii_lowercase().as_str(),
        "info" | "warn" | "warning" | "error" | "debug" | "trace" | "fatal" | "notice" | "crit"
    );
    if host.is_empty()
        || level
        || !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return None;
    }
    let colon = r
        .find(": ")
        .or_else(|| r.ends_with(':').then(|| r.len() - 1))?;
    let ident = &r[..colon];
    let name = match ident.split_once('[') {
        Some((name, pid)) => {
            let pid = pid.strip_suffix(']')?;
            if !pid.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            name
        }
        None => ident,
    };
    if name.is_empty()
        || name.len() > 64
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@' | '/'))
    {
        return None;
    }
    let msg = r.get(colon + 1..).unwrap_or("");
    Some((host, msg.strip_prefix(' ').unwrap_or(msg)))
}

/// The prefix a provisioning tool puts before each output line of the program it runs, so the
/// program's own line is read: Puppet's exec resources log the command's output as the
/// `returns` property and an `unless`/`onlyif` check's output under that parameter
/// (`Notice: /Stage[main]/<class>/Exec[<title>]/returns: <line>`, `Debug: .../unless: <line>`;
/// puppetlabs/puppet lib/puppet/type/exec.rb and lib/puppet/util/log.rb), Terraform's
/// provisioners prefix each line with the resource address and provisioner
/// (`null_resource.join (remote-exec): <line>`, hashicorp/terraform internal/command/views/hook_ui.go
/// ProvisionOutput), and cloud-init's console output carries `cloud-init[<pid>]: `. Returns the
/// program's line.
fn tool_prefix(s: &str) -> Option<&str> {
    for level in ["Debug: ", "Info: ", "Notice: ", "Warning: ", "Error: "] {
        if let Some(r) = s.strip_prefix(level)
            && r.starts_with('/')
        {
            for tail in ["]/returns: ", "]/unless: ", "]/onlyif: "] {
                if let Some(p) = r.find(tail) {
                    return Some(&r[p + tail.len()..]);
                }
            }
        }
    }
    for tail in [" (remote-exec): ", " (local-exec): "] {
        if let Some(p) = s.find(tail) {
            let address = &s[..p];
            if address.contains('.') && !address.contains(char::is_whitespace) {
                return Some(&s[p + tail.len()..]);
            }
        }
    }
    // OpenShift's `oc new-app` / `oc rollout` / `oc deploy` progress and event lines
    // (openshift/oc pkg/cli/newapp, pkg/cli/rollout: `-->  FailedCreate: rails-ex-1 Error
    // creating: ...`, `--> Scaling app-1 to 1`): the line after the arrow
    if let Some(rest) = s.strip_prefix("-->")
        && rest.starts_with([' ', '\t'])
    {
        return Some(rest.trim_start());
    }
    let r = s.strip_prefix("cloud-init[")?;
    let (pid, rest) = r.split_once("]: ")?;
    (!pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit())).then_some(rest)
}

/// GitLab runner's stream metadata (`00O `, `01E+`) at the start of `s`; returns the line.
fn gitlab_stream(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    (b.len() >= 4
        && b[0].is_ascii_hexdigit()
        && b[1].is_ascii_hexdigit()
        && matches!(b[2], b'O' | b'E')
        && matches!(b[3], b'+' | b' '))
    .then(|| s[4..].strip_prefix(' ').unwrap_or(&s[4..]))
}

/// What a CI runner or log multiplexer puts in front of (or instead of) a program's line, so
/// the program's own line is read and pure runner noise reads as a blank line:
///
/// - GitHub Actions and Azure Pipelines log commands (actions/runner, the `##[<command>]`
///   lines of a job log: `##[group]`, `##[endgroup]`, `##[command]`, `##[section]`,
///   `##[debug]`, `##[notice]`, `##[warning]`, `##[error]`) and the workflow commands a
///   script prints (`::error file=x,line=1::<message>`, `::group::<title>`, `::endgroup::`,
///   `::add-mask::<secret>`, GitHub docs "Workflow commands for GitHub Actions"; Azure's
///   `##vso[task.logissue type=error]<message>`): the message stays, with `level=error` /
///   `level=warning` after it when the command marks it so; group ends, masks (a secret) and
///   other commands become blank;
/// - GitLab CI section markers (`section_start:<unix time>:<name>[collapsed=true]`,
///   `section_end:<unix time>:<name>`, each followed by `\r\e[0K`; gitlab-runner
///   `helpers/trace`), removed with what is left of the `\e[0K`;
/// - Jenkins Pipeline step lines (`[Pipeline] sh`, `[Pipeline] { (Deploy)`, `[Pipeline] //
///   stage`): blank;
/// - `kubectl logs --prefix` (`[pod/<name>/<container>] `, k8s.io/kubectl
///   `pkg/cmd/logs/logs.go` `addPrefixIfNeeded`) and `tkn ... logs` (`[<task> : <step>] `,
///   tektoncd/cli `pkg/log/writer.go`);
/// - docker compose's service column (`web-1  | <line>`, `web_1  | <line>`; docker/compose
///   `cmd/formatter/logs.go` pads the name and adds ` | `) and stern's added/removed lines
///   (`+ <pod> › <container>`);
/// - Vagrant's `==> <machine>: `, Ruby's Logger (`I, [<time> #<pid>]  INFO -- <prog>: `) and
///   Kubernetes test-infra's `W1115 12:41:19.818] ` (a level kept as `level=...`);
/// - a bare clock (`16:17:18 <line>`: `date +%H:%M:%S` in front of each line, Jenkins'
///   Timestamper in its default `HH:mm:ss` form).
fn runner_prefix(s: &str) -> Option<String> {
    if let Some(r) = s.strip_prefix("##[")
        && let Some((cmd, msg)) = r.split_once(']')
    {
        let level = match cmd {
            "error" => " level=error",
            "warning" => " level=warning",
            "group" | "endgroup" | "command" | "section" | "debug" | "notice" | "info" => "",
            _ => return None,
        };
        if cmd == "endgroup" || msg.trim().is_empty() {
            return Some(String::new());
        }
        return Some(format!("{}{level}", msg.trim()));
    }
    if let Some(r) = s.strip_prefix("##vso[") {
        let (cmd, msg) = r.split_once(']')?;
        let level = if cmd.contains("type=error") {
            " level=error"
        } else if cmd.contains("type=warning") {
            " level=warning"
        } else {
            return Some(String::new());
        };
        return Some(format!("{}{level}", msg.trim()));
    }
    if let Some(r) = s.strip_prefix("::") {
        let (cmd, msg) = r.split_once("::")?;
        let name = cmd.split_whitespace().next().unwrap_or(cmd);
        let level = match name {
            "error" => " level=error",
            "warning" => " level=warning",
            "notice" | "debug" | "group" => "",
            "endgroup" | "add-mask" | "set-output" | "save-state" | "stop-commands" | "echo"
            | "add-path" | "set-env" | "add-matcher" | "remove-matcher" => {
                return Some(String::new());
            }
            _ => return None,
        };
        if !name.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
            return None;
        }
        return Some(format!("{}{level}", msg.trim()));
    }
    for marker in ["section_start:", "section_end:"] {
        if let Some(r) = s.strip_prefix(marker) {
            let r = digits(r, 1)?;
            let r = r.trim_start_matches(|c: char| c.is_ascii_digit());
            let r = r.strip_prefix(':')?;
            let name_len = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
                .unwrap_or(r.len());
            let mut r = &r[name_len..];
            if r.starts_with("[collapsed=") || r.starts_with("[hide_duration=") {
                r = r.split_once(']').map_or("", |(_, rest)| rest);
            }
            let r = r.strip_prefix("[0K").unwrap_or(r);
            return Some(r.trim_start().to_owned());
        }
    }
    if let Some(r) = s.strip_prefix("[Pipeline] ")
        && !r.is_empty()
    {
        return Some(String::new());
    }
    if let Some(r) = s.strip_prefix("[pod/")
        && let Some((inner, rest)) = r.split_once("] ")
        && inner.split('/').count() == 2
        && !inner.contains(' ')
    {
        return Some(rest.to_owned());
    }
    // `tkn pipelinerun logs` / `tkn taskrun logs`: `[<task> : <step>] <line>` (tektoncd/cli
    // `pkg/log/writer.go`)
    if let Some(r) = s.strip_prefix('[')
        && let Some((inner, rest)) = r.split_once("] ")
        && let Some((task, step)) = inner.split_once(" : ")
        && [task, step].iter().all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
    {
        return Some(rest.to_owned());
    }
    // stern: `+ pod-name › container` when a container is added, `- ...` when removed
    if (s.starts_with("+ ") || s.starts_with("- ")) && s.contains(" › ") {
        let words: Vec<&str> = s.split_whitespace().collect();
        if words.len() == 4 && words[2] == "›" {
            return Some(String::new());
        }
    }
    // docker compose: `<service>  | <line>` (the name padded to the longest one)
    if let Some(p) = s.find(" | ").or_else(|| s.find(" |\t"))
        && p > 0
    {
        let name = s[..p].trim_end();
        let padded = &s[name.len()..p];
        if !name.is_empty()
            && name.len() <= 64
            && padded.chars().all(|c| c == ' ')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            && !s[p + 3..].contains(" | ")
        {
            return Some(s[p + 3..].to_owned());
        }
    }
    // Vagrant's machine prefix: `==> <machine>: <line>` (hashicorp/vagrant
    // `lib/vagrant/ui.rb` `format_message`)
    if let Some(r) = s.strip_prefix("==> ")
        && let Some((machine, rest)) = r.split_once(": ")
        && !machine.is_empty()
        && !machine.contains(' ')
    {
        return Some(rest.to_owned());
    }
    // Ruby's (and Crystal's) Logger: `I, [2022-10-14 19:56:43 -04:00 #18659]  INFO --
    // progname: <message>` (ruby/logger `Formatter::Format`, `%s, [%s #%d] %5s -- %s: %s`)
    if let Some((sev, r)) = s.split_once(", [")
        && sev.len() == 1
        && "DIWEFA".contains(sev)
        && let Some((_, r)) = r.split_once("] ")
        && let Some((level, r)) = r.trim_start().split_once(" -- ")
        && let Some((_, msg)) = r.split_once(": ")
    {
        let level = match level.trim() {
            "ERROR" => " level=error",
            "FATAL" => " level=fatal",
            "WARN" => " level=warning",
            "DEBUG" | "INFO" | "ANY" => "",
            _ => return None,
        };
        return Some(format!("{msg}{level}"));
    }
    // Kubernetes test-infra's runner (bootstrap.py / kubetest logging: `%(levelname)1.1s
    // %(asctime)s.%(msecs)03d] `, no thread id or file): `W1115 12:41:19.818] <line>`
    if let Some(r) = s.strip_prefix(['I', 'W', 'E', 'F'])
        && let Some(r) = digits(r, 4).and_then(|r| r.strip_prefix(' '))
        && let Some(r) = clock(r)
        && let Some(msg) = r.strip_prefix("] ")
    {
        let level = match s.as_bytes()[0] {
            b'E' => " level=error",
            b'F' => " level=fatal",
            _ => "",
        };
        return Some(format!("{msg}{level}"));
    }
    // a bare clock: `16:17:18 <line>`
    if let Some(r) = clock(s)
        && let Some(rest) = r.strip_prefix(' ')
        && !rest.trim().is_empty()
    {
        return Some(rest.trim_start().to_owned());
    }
    None
}

/// A record of Huawei's `hwlog` (the Ascend device plugin, NPU exporter, Ascend operator and
/// the other MindCluster components: Ascend/mind-cluster `component/ascend-common/common-utils/hwlog`,
/// `rolog.go` / `utils.go`): a level tag padded to a column, Go's `log` date with
/// microseconds, the goroutine id, the caller `file.go:line`, then the message:
/// `[INFO]     2025/07/09 20:08:32.625129 269     server/server.go:57    register Ascend910 to
/// kubelet success.`. Reduced to the message, with `level=<level>` after it for the levels
/// above INFO (so an `[ERROR]` line reads as an error by its own marking); `None` for other
/// lines (a bracketed word without the date after it stays text).
fn hwlog_record(s: &str) -> Option<String> {
    let (tag, rest) = s.strip_prefix('[')?.split_once(']')?;
    let level = match tag.trim() {
        "DEBUG" | "INFO" => None,
        "WARN" | "WARNING" => Some("warning"),
        "ERROR" => Some("error"),
        "CRITICAL" | "FATAL" => Some("fatal"),
        _ => return None,
    };
    // Go's `log` date and time: 2025/07/09 20:08:32[.625129]
    let r = rest.trim_start();
    let r = digits(r, 4)?.strip_prefix('/')?;
    let r = digits(r, 2)?.strip_prefix('/')?;
    let r = digits(r, 2)?.strip_prefix(' ')?;
    let r = clock(r)?;
    let r = r.strip_prefix([' ', '\t'])?.trim_start();
    // the goroutine id (with `{user}-{trace}` ids when a request context was logged)
    let id_len = r.find([' ', '\t']).unwrap_or(r.len());
    let (id, r) = r.split_at(id_len);
    if !id.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let r = r.trim_start();
    // the caller, `server/server.go:57`
    let caller_len = r.find([' ', '\t']).unwrap_or(r.len());
    let (caller, msg) = r.split_at(caller_len);
    let msg = match caller.rsplit_once(':') {
        Some((file, line)) if file.ends_with(".go") && line.chars().all(|c| c.is_ascii_digit()) => {
            msg.trim_start()
        }
        _ => r,
    };
    Some(match level {
        Some(l) => format!("{msg} level={l}"),
        None => msg.to_owned(),
    })
}

/// CRI log line: `<RFC 3339 nano> <stdout|stderr> <F|P> <message>`.
fn cri_prefix(s: &str) -> Option<&str> {
    let r = iso_timestamp(s)?.strip_prefix(' ')?;
    let r = r
        .strip_prefix("stdout ")
        .or_else(|| r.strip_prefix("stderr "))?;
    let r = r.strip_prefix("F").or_else(|| r.strip_prefix("P"))?;
    Some(r.strip_prefix(' ').unwrap_or(r))
}

/// A timestamp at the start of the line (ISO 8601 / RFC 3339, Go's `log` format, syslog,
/// journald `short-full`/`short-unix`) followed by a space.
fn timestamp_prefix(s: &str) -> Option<&str> {
    let r = any_timestamp(s)?;
    let r = r.strip_prefix(' ').or_else(|| r.strip_prefix('\t'))?;
    Some(r.trim_start())
}

/// `[<timestamp>] ` where the brackets hold only a date/time (or dmesg's seconds since boot):
/// `[2021-05-08 12:20:58]`, `[12:20:58]`, `[   12.345678]`, `[Sat May  8 12:20:58 2021]`.
fn bracketed_timestamp(s: &str) -> Option<&str> {
    let inner_and_rest = s.strip_prefix('[')?;
    let (inner, rest) = inner_and_rest.split_once(']')?;
    let t = inner.trim();
    if t.is_empty() || t.len() > 40 {
        return None;
    }
    let chars_ok = t
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | ':' | '.' | ',' | '-' | '+' | '/'));
    if !chars_ok {
        return None;
    }
    let is_dmesg = {
        let (a, b) = t.split_once('.').unwrap_or((t, ""));
        !a.is_empty()
            && a.chars().all(|c| c.is_ascii_digit())
            && !b.is_empty()
            && b.chars().all(|c| c.is_ascii_digit())
    };
    // a clock somewhere inside: HH:MM or HH:MM:SS
    let has_clock = t.as_bytes().windows(5).any(|w| {
        w[0].is_ascii_digit()
            && w[1].is_ascii_digit()
            && w[2] == b':'
            && w[3].is_ascii_digit()
            && w[4].is_ascii_digit()
    });
    if !(is_dmesg || has_clock) {
        return None;
    }
    // letters only as month/day names, zone letters or the ISO `T`/`Z`
    let words_ok = t
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .all(|w| {
            MONTHS.contains(&w)
                || WEEKDAYS.contains(&w)
                || matches!(w, "T" | "Z" | "UTC" | "GMT" | "AM" | "PM")
                || (w.len() <= 4 && w.chars().all(|c| c.is_ascii_uppercase()))
        });
    if !words_ok {
        return None;
    }
    Some(rest.strip_prefix(' ').unwrap_or(rest).trim_start())
}

/// klog header: `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`.
fn klog_header(s: &str) -> Option<&str> {
    let r = s.strip_prefix(['I', 'W', 'E', 'F'])?;
    let r = digits(r, 4)?.strip_prefix(' ')?;
    let r = clock(r)?;
    let r = r.trim_start();
    let n = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
    if n == 0 {
        return None;
    }
    let r = r[n..].strip_prefix(' ')?;
    let (file, msg) = r
        .split_once("] ")
        .or_else(|| r.strip_suffix(']').map(|f| (f, "")))?;
    if file.contains(' ') || !file.contains(':') {
        return None;
    }
    Some(msg)
}

/// A record of `journalctl -o json` (systemd's journal export fields, systemd.journal-fields(7):
/// `MESSAGE`, `_HOSTNAME`, `__REALTIME_TIMESTAMP`, `__CURSOR`, `SYSLOG_IDENTIFIER`): the host and
/// the message. `MESSAGE` given as a byte array (journald's form for non-UTF-8 text) is decoded
/// lossily.
fn journald_json(s: &str) -> Option<(String, String)> {
    let t = s.trim();
    if !(t.starts_with('{') && t.ends_with('}') && t.contains("\"MESSAGE\"")) {
        return None;
    }
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(t).ok()?;
    if ![
        "__REALTIME_TIMESTAMP",
        "__CURSOR",
        "_HOSTNAME",
        "_SYSTEMD_UNIT",
        "SYSLOG_IDENTIFIER",
    ]
    .iter()
    .any(|k| map.contains_key(*k))
    {
        return None;
    }
    let message = match map.get("MESSAGE")? {
        serde_json::Value::String(m) => m.clone(),
        serde_json::Value::Array(bytes) => {
            let b: Vec<u8> = bytes
                .iter()
                .filter_map(serde_json::Value::as_u64)
                .filter_map(|n| u8::try_from(n).ok())
                .collect();
            String::from_utf8_lossy(&b).into_owned()
        }
        _ => return None,
    };
    let host = map
        .get("_HOSTNAME")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_owned();
    Some((host, message.trim_end_matches(['\n', '\r']).to_owned()))
}

/// Docker json-file (`{"log": ...}`), JSON logging (`{"msg": ...}`) and logrus
/// (`time="..." level=... msg="..."`) records: their message plus the other key/value pairs in
/// klog's text form. JSON lines of other shapes are left alone.
fn structured_record(s: &str) -> Option<String> {
    let t = s.trim();
    if t.starts_with('{') && t.ends_with('}') {
        let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(t).ok()?;
        if let Some(serde_json::Value::String(log)) = map.get("log")
            && (map.contains_key("stream") || map.contains_key("time"))
        {
            return Some(log.trim_end_matches(['\n', '\r']).to_owned());
        }
        let msg = map.get("msg").and_then(serde_json::Value::as_str)?;
        let is_record = ["ts", "time", "timestamp", "level", "caller", "v", "logger"]
            .iter()
            .any(|k| map.contains_key(*k));
        if !is_record {
            return None;
        }
        let mut out = msg.to_owned();
        for (k, v) in &map {
            if matches!(
                k.as_str(),
                "msg" | "ts" | "time" | "timestamp" | "caller" | "v" | "logger"
            ) {
                continue;
            }
            out.push(' ');
            out.push_str(k);
            out.push('=');
            match v {
                serde_json::Value::String(s) => push_quoted(&mut out, s),
                other => out.push_str(&other.to_string()),
            }
        }
        return Some(out);
    }
    if t.starts_with("time=\"") || t.starts_with("level=") {
        let pairs = logfmt(t);
        let msg = pairs.iter().find(|(k, _)| k == "msg")?.1.clone();
        let mut out = msg;
        for (k, v) in &pairs {
            if matches!(k.as_str(), "msg" | "time") {
                continue;
            }
            out.push(' ');
            out.push_str(k);
            out.push('=');
            push_quoted(&mut out, v);
        }
        return Some(out);
    }
    None
}

/// `"value"` as klog prints a string value, but with the escapes inside resolved
/// (`err="... driver: "systemd" is ..."`), so the text reads as the upstream message it holds.
fn push_quoted(out: &mut String, value: &str) {
    out.push('"');
    out.push_str(value);
    out.push('"');
}

/// Reads a Go-quoted string at the start of `s` (`"..."` with `\"`, `\\`, `\n`, `\t`);
/// returns the unquoted text and the rest.
fn unquote(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut it = body.char_indices();
    while let Some((i, c)) = it.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => match it.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The byte just after the bracket that closes the `{` or `[` opening `s` (nesting counted,
/// brackets inside `"..."` strings skipped), or `None` when it is not closed on the line.
fn bracketed_end(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// `key=value key="quoted value"` pairs (logfmt, as logrus prints them); a value opened by `{`
/// or `[` runs to its closing bracket (klog's structs and slices).
fn logfmt(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq].trim();
        if key.is_empty() || key.contains(' ') {
            break;
        }
        let after = &rest[eq + 1..];
        let (value, next) = if after.starts_with('"') {
            match unquote(after) {
                Some(v) => v,
                None => break,
            }
        } else if after.starts_with(['{', '[']) {
            // klog prints a struct or slice value with `%+v` or as JSON, unquoted and with
            // spaces (`condition={Type:Ready Status:False ... Message:...}`,
            // k8s.io/klog/v2 internal/serialize): the value runs to its closing bracket
            let end = bracketed_end(after).unwrap_or(after.len());
            (after[..end].to_owned(), &after[end..])
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_owned(), &after[end..])
        };
        out.push((key.to_owned(), value));
        rest = next.trim_start();
    }
    out
}

/// klog's structured text: a quoted message first (`"Failed to ..." err="..."`) becomes plain
/// text; klogr's `"msg"="..." "key"="value"` becomes `... key="value"`. Other text is returned
/// unchanged. A quoted string alone on its line is a message only `after_header` (after a klog
/// header or a log collector's prefix: klog's `InfoS` with no key); alone on a bare line it is a
/// value of a JSON array, kept quoted so that a fenced or quoted JSON dump still parses.
fn reduce_klog_structured(s: &str, after_header: bool) -> String {
    let t = s.trim_start();
    if let Some(after) = t.strip_prefix("\"msg\"=")
        && let Some((msg, mut rest)) = unquote(after)
    {
        let mut out = msg;
        loop {
            rest = rest.trim_start();
            let Some((key, after_key)) = unquote(rest) else {
                break;
            };
            let Some(after_eq) = after_key.strip_prefix('=') else {
                break;
            };
            let (value, next) = match unquote(after_eq) {
                Some((v, n)) => (format!("\"{v}\""), n),
                None => {
                    let end = after_eq.find(' ').unwrap_or(after_eq.len());
                    (after_eq[..end].to_owned(), &after_eq[end..])
                }
            };
            out.push(' ');
            out.push_str(&key);
            out.push('=');
            out.push_str(&value);
            rest = next;
        }
        if !rest.trim().is_empty() {
            out.push(' ');
            out.push_str(rest.trim());
        }
        return out;
    }
    if t.starts_with('"')
        && let Some((msg, rest)) = unquote(t)
    {
        let rest_t = rest.trim_start();
        // only a message followed by key=value pairs (or nothing): klog's structured form
        let kv_follows = (rest_t.is_empty() && after_header)
            || rest_t
                .split_once('=')
                .is_some_and(|(k, _)| !k.is_empty() && !k.contains([' ', '"']));
        if kv_follows {
            let mut out = msg;
            // a value whose closing quote a pager or an ellipsis cut off: kept as it is
            let quotes = rest_t.matches('"').count() - rest_t.matches("\\\"").count();
            if quotes % 2 == 1 {
                out.push(' ');
                out.push_str(rest_t);
                return out;
            }
            for (k, v) in logfmt(rest_t) {
                out.push(' ');
                out.push_str(&k);
                out.push('=');
                push_quoted(&mut out, &v);
            }
            return out;
        }
    }
    s.to_owned()
}

#[cfg(test)]
mod reshaped_paste_tests {
    use super::*;

    #[test]
    fn markdown_tables_become_kubectl_tables() {
        let md = "nodes:\n| NAME | STATUS | ROLES | AGE | VERSION |\n|------|:------:|---|---|---|\n| gpu-1 | NotReady |  | 12d | v1.29.2 |\nend\n";
        let t = markdown_tables(md).expect("a table");
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), md.lines().count(), "line count kept");
        assert_eq!(lines[0], "nodes:");
        assert!(lines[1].starts_with("NAME    STATUS"), "{}", lines[1]);
        assert!(
            lines[2].chars().all(|c| c == '-' || c == ' '),
            "{}",
            lines[2]
        );
        assert!(lines[3].contains("<none>"), "{}", lines[3]);
        assert_eq!(lines[4], "end");
        // pipes without a separator row (nvidia-smi, a shell pipeline) are left alone
        assert!(markdown_tables("| GPU  Name |\n|===========|\n| 0 Tesla |\n").is_none());
        assert!(markdown_tables("a | b\n").is_none());
    }

    fn texts(text: &str) -> Vec<String> {
        split(text)
            .into_iter()
            .flat_map(|s| s.lines.into_iter().map(|l| l.text))
            .filter(|t| !t.is_empty())
            .collect()
    }

    #[test]
    fn soft_wrapped_log_lines_are_joined_back() {
        let line = "E1201 10:00:00.000000    1234 kubelet.go:100] \"Failed to connect\" err=\"dial tcp 10.0.0.1:6443: connect: connection refused\"";
        let wrapped: String = line
            .chars()
            .collect::<Vec<_>>()
            .chunks(80)
            .map(|c| c.iter().collect::<String>() + "\n")
            .collect();
        let text = format!("{wrapped}I1201 10:00:01.000000    1234 kubelet.go:101] next\n");
        let got = split(text.trim_end());
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].lines.len(), 2, "{:?}", got[0].lines);
        assert_eq!(got[0].lines[0].number, 1);
        assert!(got[0].lines[0].text.contains("connect: connection refused"));
        assert_eq!(got[0].lines[1].number, 3);
        // a journald line wrapped at 120: the host stays
        let journal = format!("Dec 01 10:00:00 node-07 kubelet[1234]: {}", "x".repeat(150));
        let pieces: Vec<String> = journal
            .chars()
            .collect::<Vec<_>>()
            .chunks(120)
            .map(|c| c.iter().collect())
            .collect();
        let got = split(&pieces.join("\n"));
        assert_eq!(got[0].lines.len(), 1);
        assert_eq!(got[0].lines[0].host, "node-07");
        assert_eq!(got[0].lines[0].text, "x".repeat(150));
    }

    #[test]
    fn journalctl_json_records_give_host_and_message() {
        let line = r#"{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1704880800000000","_HOSTNAME":"node-1","SYSLOG_IDENTIFIER":"kubelet","MESSAGE":"E0110 10:00:00.000000 1234 kubelet.go:1] boom"}"#;
        let c = clean_line(line);
        assert_eq!(c.host, "node-1");
        assert!(c.text.contains("boom"), "{}", c.text);
        let bytes = r#"{"_HOSTNAME":"node-2","MESSAGE":[104,105]}"#;
        assert_eq!(clean_line(bytes).host, "node-2");
    }

    #[test]
    fn table_rows_padded_to_one_width_are_not_soft_wraps() {
        // `kubectl get svc -A` whose rows all end at the same column (94): rows, not pieces
        let text = "NAMESPACE     NAME         TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)                  AGE\n\
default       kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP                  10d\n\
kube-system   kube-dns     ClusterIP   10.96.0.10   <none>        53/UDP,53/TCP,9153/TCP   10d";
        let got = split(text);
        assert_eq!(got[0].lines.len(), 3, "{:?}", got[0].lines);
    }

    #[test]
    fn lines_as_long_as_a_terminal_by_chance_stay_apart() {
        // kubectl's hint is 80 columns long; the next line is a message of its own
        let text = "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\nUnable to connect to the server: EOF\n";
        assert_eq!(texts(text).len(), 2);
        // a table drawn with box characters: every row as long
        let row = format!("|{}|", " ".repeat(78));
        let rule = format!("+{}+", "-".repeat(78));
        let text = format!("{rule}\n{row}\n{row}\n{rule}\n");
        assert_eq!(texts(&text).len(), 4);
        // a table of equal rows is no log: never joined
        let text = "NAME                                     STATUS   ROLES    AGE   VERSION\nnode-01                                  Ready    <none>   10d   v1.28.2\nnode-02                                  Ready    <none>   10d   v1.28.2\n";
        assert_eq!(texts(text).len(), 3);
    }

    #[test]
    fn html_escaped_as_a_whole_is_decoded_and_mixed_text_is_not() {
        assert_eq!(
            html_unescaped("status: &quot;True&quot;\nmsg: &#39;a &lt;b&gt;&#39; &amp; c\n")
                .as_deref(),
            Some("status: \"True\"\nmsg: 'a <b>' & c\n")
        );
        // a raw quote next to an entity: the entity may be data
        assert_eq!(html_unescaped("a: \"x\"\nb: &quot;\n"), None);
        assert_eq!(html_unescaped("no entity & nothing\n"), None);
    }

    #[test]
    fn outputs_pasted_one_after_the_other_are_cut_apart() {
        let json = "{\n \"kind\": \"List\",\n \"items\": []\n}\n";
        let table = "NAMESPACE   LAST SEEN   TYPE      REASON             OBJECT      MESSAGE\nml          2m          Warning   FailedScheduling   pod/p       0/1 nodes are available\n";
        let yaml = "# the DaemonSet\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n";
        let describe = "Name:               node-01\nRoles:              <none>\n";
        let formats = |text: &str| -> Vec<InputFormat> {
            split(text)
                .iter()
                .filter(|s| !s.is_blank())
                .map(|s| crate::snapshot::detect_format(s.text().as_bytes()))
                .collect()
        };
        for (a, b) in [
            (json, table),
            (table, json),
            (yaml, describe),
            (describe, yaml),
        ] {
            for sep in ["\n", "---\n"] {
                let text = format!("{a}{sep}{b}");
                assert_eq!(formats(&text).len(), 2, "{text}");
                assert!(holds_other_output(&text), "{text}");
            }
        }
        // a stream of JSON values, YAML documents, a JSON log: no cut, no paste
        assert!(!holds_other_output(&format!("{json}{json}")));
        assert!(!holds_other_output(&format!("{yaml}---\n{yaml}")));
        assert_eq!(
            formats("{\"level\":\"error\"}\n\n{\"level\":\"info\"}\n").len(),
            1
        );
        // a log line that merely starts with `{`, after a log: one section
        assert_eq!(formats("E1201 failed\n\n{\"msg\":\"x\"}\n").len(), 1);
    }

    #[test]
    fn stern_prefixes_are_removed_and_keep_records_apart() {
        let text = "agent-7d9f8c6b5-x2k4p agent E1202 02:26:35.036648       1 c.go:289] Failed, err is : Unauthorized\nagent-7d9f8c6b5-x2k4p agent I1202 02:26:45.041120       1 c.go:129] offline\nagent-7d9f8c6b5-x2k4p agent \nagent-7d9f8c6b5-x2k4p agent E1202 02:26:35.036648       1 c.go:289] Failed, err is : Unauthorized\n";
        assert_eq!(
            texts(text),
            [
                "E1202 02:26:35.036648       1 c.go:289] Failed, err is : Unauthorized",
                "I1202 02:26:45.041120       1 c.go:129] offline",
                "E1202 02:26:35.036648       1 c.go:289] Failed, err is : Unauthorized",
            ]
        );
        // across namespaces, and a StatefulSet pod
        let text =
            "kube-system etcd-0 etcd level=error msg=x\nkube-system etcd-0 etcd level=info msg=y\n";
        assert_eq!(texts(text), ["x level=\"error\"", "y level=\"info\""]);
        // prose that merely starts with two words is untouched
        let text = "the node is down\nthe node came back\n";
        assert_eq!(texts(text), ["the node is down", "the node came back"]);
    }

    #[test]
    fn details_opened_and_titled_on_one_line_is_a_wrapper() {
        for l in [
            "<details><summary>kubectl describe node</summary>",
            "<details open><summary>logs</summary>",
            "<details open>",
            "</details>",
        ] {
            assert!(is_fence_or_wrapper(l), "{l}");
        }
        assert!(!is_fence_or_wrapper(
            "<details><summary>a</summary> text after"
        ));
        let text = "<details><summary>npu-smi info</summary>\n\n```\n+---+\n```\n</details>\n";
        assert_eq!(texts(text), ["+---+"]);
        assert_eq!(prompt_command("# npu-smi info"), Some("npu-smi info"));
    }

    #[test]
    fn a_lone_quoted_value_is_kept_quoted_but_a_logged_message_is_not() {
        let json = "```\n{\n \"values\": [\n  \"ml-train-prio\"\n ]\n}\n```\n";
        assert!(texts(json).iter().any(|t| t == "  \"ml-train-prio\""));
        let klog = "I1201 10:00:00.000000    1234 server.go:12] \"Starting kubelet\"";
        assert!(clean_line(klog).text.ends_with("] Starting kubelet"));
        let journald = "Dec 01 10:00:00 node-01 kubelet[1]: \"Starting kubelet\"";
        assert_eq!(clean_line(journald).text, "Starting kubelet");
    }
}

#[cfg(test)]
mod tool_prefix_tests {
    use super::*;

    #[test]
    fn grep_separators_and_line_numbers() {
        // `grep -A3`: the `--` between groups is a break, not a line of the output
        let s = split(
            "$ kubectl describe node node-01 | grep -A3 Allocatable\nAllocatable:\n  cpu:  8\n--\n  Resource  Requests",
        );
        assert_eq!(s.len(), 1);
        let texts: Vec<&str> = s[0].lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Allocatable:", "  cpu:  8", "", "  Resource  Requests"]
        );
        // `grep -n` / `-nA2` / `--line-number`: `NUM:` and `NUM-` prefixes removed
        for cmd in [
            "kubectl describe node x | grep -nA2 Capacity",
            "kubectl describe node x | grep -n -A 2 Capacity",
            "journalctl -u kubelet | sudo grep --line-number -i error",
            "grep -in capacity node.txt",
        ] {
            assert!(grep_numbers_lines(cmd), "{cmd}");
            let s = split(&format!(
                "$ {cmd}\n12:Capacity:\n13-  nvidia.com/gpu:  4\n--\n40:Capacity:"
            ));
            let texts: Vec<&str> = s[0].lines.iter().map(|l| l.text.as_str()).collect();
            assert_eq!(
                texts,
                ["Capacity:", "  nvidia.com/gpu:  4", "", "Capacity:"],
                "{cmd}"
            );
        }
        for cmd in [
            "kubectl get nodes",
            "kubectl describe node x | grep -A3 Allocatable",
            "grep --include=*.yaml -r gpu .",
            "kubectl get pods -n kube-system",
        ] {
            assert!(!grep_numbers_lines(cmd), "{cmd}");
        }
        // without grep -n a leading number stays (a table cell, a log)
        let s = split("$ kubectl get nodes | grep -A1 NAME\n12:00 node-01\n");
        assert_eq!(s[0].lines[0].text, "12:00 node-01");
        assert_eq!(strip_grep_line_number("7-  cpu: 4"), "  cpu: 4");
        assert_eq!(strip_grep_line_number("node-7: x"), "node-7: x");
        // a describe's dashed header rules are not separators
        assert!(!is_grep_group_separator("  --------  --------"));
        assert!(is_grep_group_separator("--"));
    }

    #[test]
    fn hwlog_records_read_as_their_message() {
        // Ascend device plugin (Ascend/mind-cluster hwlog)
        assert_eq!(
            clean_line("[INFO]     2025/07/09 20:08:32.625129 269     server/server.go:57    register Ascend910 to kubelet success.").text,
            "register Ascend910 to kubelet success."
        );
        assert_eq!(
            clean_line("[ERROR]    2022/11/21 11:20:06.007285 7       server/server.go:60    register to kubelet failed, err: rpc error").text,
            "register to kubelet failed, err: rpc error level=error"
        );
        assert_eq!(
            clean_line(
                "[WARN]     2022/11/21 11:20:06.007285 7       kubeclient/client.go:12    x"
            )
            .text,
            "x level=warning"
        );
        // a bracketed word without hwlog's date is text
        assert_eq!(
            clean_line("[INFO] register Ascend910 to kubelet success.").text,
            "[INFO] register Ascend910 to kubelet success."
        );
        assert_eq!(
            clean_line("[preflight] Running pre-flight checks").text,
            "[preflight] Running pre-flight checks"
        );
    }

    #[test]
    fn ci_runner_prefixes_give_the_program_line_and_noise_reads_blank() {
        let c = |l: &str| clean_line(l).text;
        let preflight = "[ERROR FileAvailable--etc-kubernetes-kubelet.conf]: /etc/kubernetes/kubelet.conf already exists";
        // GitHub Actions: runner timestamp (7 fractional digits), log commands
        assert_eq!(
            c(&format!("2024-01-01T10:00:00.1234567Z \t{preflight}")),
            preflight
        );
        assert_eq!(
            c("2024-01-01T10:00:00.1234567Z ##[group]Run kubeadm join"),
            "Run kubeadm join"
        );
        assert_eq!(c("2024-01-01T10:00:00.1234567Z ##[endgroup]"), "");
        assert_eq!(
            c("##[error]Process completed with exit code 1."),
            "Process completed with exit code 1. level=error"
        );
        assert_eq!(
            c("::error file=ci.sh,line=3::kubeadm failed"),
            "kubeadm failed level=error"
        );
        assert_eq!(c("::add-mask::s3cr3t-value"), "");
        assert_eq!(c("::group::Join"), "Join");
        assert_eq!(
            c("##vso[task.logissue type=error]join failed"),
            "join failed level=error"
        );
        assert_eq!(c("##vso[task.setvariable variable=x]1"), "");
        // GitLab: runner timestamps with stream metadata, section markers (CR kept or lost)
        assert_eq!(
            c(&format!("2024-05-30T14:30:00.000000Z 00E {preflight}")),
            preflight
        );
        assert_eq!(c("2024-05-30T14:30:00.000000Z 01O+continued"), "continued");
        assert_eq!(
            c("section_start:1700000000:step_script\r\x1b[0KExecuting \"step_script\" stage"),
            "Executing \"step_script\" stage"
        );
        assert_eq!(
            c("section_start:1700000000:prepare[collapsed=true][0KPreparing the executor"),
            "Preparing the executor"
        );
        assert_eq!(c("section_end:1700000001:step_script\r\x1b[0K"), "");
        // Jenkins steps; Timestamper / `date +%H:%M:%S` clocks
        assert_eq!(c("[Pipeline] { (Deploy)"), "");
        assert_eq!(c("[Pipeline] // stage"), "");
        assert_eq!(c(&format!("16:17:18 {preflight}")), preflight);
        // kubectl logs --prefix, tkn logs, docker compose, stern
        assert_eq!(
            c(
                "[pod/nvidia-device-plugin-daemonset-x2x7k/nvidia-device-plugin-ctr] I1201 10:00:00.000000 1 main.go:1] Starting FS watcher."
            ),
            "I1201 10:00:00.000000 1 main.go:1] Starting FS watcher."
        );
        assert_eq!(
            c("[deploy-web : run-kubectl] Error from server (Forbidden): x"),
            "Error from server (Forbidden): x"
        );
        assert_eq!(
            c("k3s-agent-1  | level=error msg=\"x\""),
            "x level=\"error\""
        );
        assert_eq!(c("+ node-01-abcde › nvidia-device-plugin-ctr"), "");
        // what is not a prefix stays
        assert_eq!(
            c("[preflight] Running pre-flight checks"),
            "[preflight] Running pre-flight checks"
        );
        assert_eq!(c("| a | b |"), "| a | b |");
        assert_eq!(c("a | b | c"), "a | b | c");
        assert_eq!(c("::notacommand"), "::notacommand");
    }

    #[test]
    fn host_prefixes_of_parallel_shells() {
        let text = "node-01: [preflight] Running pre-flight checks\nnode-02: [preflight] Running pre-flight checks\nnode-02: [ERROR Port-10250]: Port 10250 is in use\nmount.nfs: access denied by server while mounting 10.0.0.5:/exports\n";
        let s = split(text);
        let lines: Vec<(&str, &str)> = s[0]
            .lines
            .iter()
            .map(|l| (l.text.as_str(), l.host.as_str()))
            .filter(|(t, _)| !t.is_empty())
            .collect();
        assert_eq!(
            lines,
            [
                ("[preflight] Running pre-flight checks", "node-01"),
                ("[preflight] Running pre-flight checks", "node-02"),
                ("[ERROR Port-10250]: Port 10250 is in use", "node-02"),
                // not a host (no digit), and one line alone is never a prefix
                (
                    "mount.nfs: access denied by server while mounting 10.0.0.5:/exports",
                    ""
                ),
            ]
        );
        let one = split("node-01: hello\n");
        assert_eq!(one[0].lines[0].text, "node-01: hello");
        // what programs print before `: ` is never a host, however often
        for text in [
            "x509: certificate signed by unknown authority\nx509: certificate has expired or is not yet valid\n",
            "mount.nfs4: access denied by server while mounting 10.0.0.5:/a\nmount.nfs4: access denied by server while mounting 10.0.0.5:/b\n",
            "v1.28.7: a\nv1.28.8: b\n",
        ] {
            let s = split(text);
            assert!(
                s[0].lines
                    .iter()
                    .filter(|l| !l.text.is_empty())
                    .all(|l| l.host.is_empty() && l.text.contains(": ")),
                "{text}"
            );
        }
    }

    #[test]
    fn tool_prefixes_and_locale_months_give_the_program_line() {
        let puppet = "Debug: /Stage[main]/Kubernetes::Cluster_roles/Kubernetes::Kubeadm_join[node-07]/Exec[kubeadm join]/unless: The connection to the server localhost:8080 was refused - did you specify the right host or port?";
        assert!(
            clean_line(puppet)
                .text
                .starts_with("The connection to the server localhost:8080")
        );
        let notice = "Notice: /Stage[main]/K/Exec[kubeadm join]/returns: [preflight] Running pre-flight checks.";
        assert_eq!(
            clean_line(notice).text,
            "[preflight] Running pre-flight checks."
        );
        let tf = "null_resource.join (remote-exec): error execution phase preflight: couldn't validate the identity of the API Server";
        assert!(clean_line(tf).text.starts_with("error execution phase"));
        assert_eq!(
            clean_line("cloud-init[1234]: hello there").text,
            "hello there"
        );
        assert_eq!(
            clean_line(
                "-->  FailedCreate: rails-ex-1 Error creating: pods \"rails-ex-1-\" is forbidden: x"
            )
            .text,
            "FailedCreate: rails-ex-1 Error creating: pods \"rails-ex-1-\" is forbidden: x"
        );
        assert_eq!(clean_line("-->").text, "-->");
        // an aggregated error list is not a colour remnant; a real remnant still goes
        assert_eq!(
            clean_line("is forbidden: [minimum memory usage per Pod is 204Mi, but request is 62914560., maximum cpu usage per Container is 2, but limit is 4.]").text,
            "is forbidden: [minimum memory usage per Pod is 204Mi, but request is 62914560., maximum cpu usage per Container is 2, but limit is 4.]"
        );
        // (trailing blanks go: k9s and terminal copies pad lines to the screen width)
        assert_eq!(clean_line("[0;31mERROR[0m boom [m").text, "ERROR boom");
        // k9s padding and a log wrapped in single backticks (a Markdown code span over lines)
        assert_eq!(
            clean_line("I0127 18:29:58.101908       1 main.go:305] AMD GPU device plugin for Kubernetes      ").text,
            "I0127 18:29:58.101908       1 main.go:305] AMD GPU device plugin for Kubernetes"
        );
        assert_eq!(
            clean_line(
                "`I0724 03:19:09.793051       1 main.go:305] AMD GPU device plugin for Kubernetes"
            )
            .text,
            "I0724 03:19:09.793051       1 main.go:305] AMD GPU device plugin for Kubernetes"
        );
        assert_eq!(
            clean_line("I0724 03:19:09.793416       1 manager.go:66] Handling incoming signals`")
                .text,
            "I0724 03:19:09.793416       1 manager.go:66] Handling incoming signals"
        );
        assert_eq!(clean_line("`kubectl get nodes`").text, "kubectl get nodes");
        // fences and code spans inside a line stay
        assert_eq!(clean_line("```shell").text, "```shell");
        assert_eq!(clean_line("```").text, "```");
        assert_eq!(
            clean_line("the `nvidia` runtime is `default`").text,
            "the `nvidia` runtime is `default`"
        );
        // not a tool prefix
        assert_eq!(
            clean_line("Debug: Executing: 'kubectl get nodes'").text,
            "Debug: Executing: 'kubectl get nodes'"
        );
        let zh = clean_line(
            "6月 24 13:16:48 node-01 kubelet[13626]: F0624 13:16:48.816177   13626 server.go:233] boom",
        );
        assert_eq!(zh.host, "node-01");
        let nl = clean_line("nov 02 18:00:45 node-01 containerd[10237]: level=error msg=x");
        assert_eq!(nl.host, "node-01");
        assert_eq!(
            clean_line("déc. 02 18:00:45 node-02 kubelet[1]: x").host,
            "node-02"
        );
        // a structured value cut by the pager keeps its text
        let cut = clean_line(
            "E0205 10:58:14.917245   12704 run.go:72] \"command failed\" err=\"failed to run Kubelet: running with swap on is not supported, please disable swap >",
        );
        assert!(cut.text.contains("please disable swap"), "{}", cut.text);
        let stderr_lines = r#"fatal: [n1]: FAILED! => {"changed": true, "rc": 1, "stderr_lines": ["error execution phase preflight: boom"]}"#;
        assert!(
            ansible_result(stderr_lines)
                .unwrap_or_default()
                .iter()
                .any(|l| l.starts_with("error execution phase"))
        );
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn diff_lines_are_read_as_what_they_add() {
        let d =
            "+    sharing:\n+      timeSlicing:\n+```\n+\n+```bash\n+kubectl create -f x.yaml\n";
        let got: Vec<String> = super::strip_diff_markers(d.split('\n').collect())
            .into_iter()
            .map(|c| c.into_owned())
            .collect();
        assert_eq!(got[0], "    sharing:");
        assert_eq!(got[2], "```");
        assert_eq!(got[5], "kubectl create -f x.yaml");
        // a unified diff: removed lines and headers dropped, context kept
        let u = "diff --git a/c.yaml b/c.yaml\n--- a/c.yaml\n+++ b/c.yaml\n@@ -1,3 +1,3 @@\n version: v1\n-replicas: 2\n+replicas: 4\n+name: x\n";
        let got: Vec<String> = super::strip_diff_markers(u.split('\n').collect())
            .into_iter()
            .map(|c| c.into_owned())
            .collect();
        assert_eq!(got[4..8], ["version: v1", "", "replicas: 4", "name: x"]);
        assert!(got[..4].iter().all(String::is_empty));
        // a YAML list or a Markdown list is left alone
        let y = "- name: a\n- name: b\n";
        let got: Vec<String> = super::strip_diff_markers(y.split('\n').collect())
            .into_iter()
            .map(|c| c.into_owned())
            .collect();
        assert_eq!(got[0], "- name: a");
        let one = "+1 same here\nanything else\n";
        assert_eq!(
            super::strip_diff_markers(one.split('\n').collect())[0],
            "+1 same here"
        );
    }
    use super::*;

    #[track_caller]
    fn clean(s: &str) -> String {
        clean_line(s).text
    }

    #[test]
    fn html_entities_of_a_pasted_traceback_are_decoded() {
        // MicrosoftDocs/azure-docs#17570 shape: a Python traceback copied from an HTML page
        assert_eq!(
            terminal_text("  File \"/app/main.py\", line 31, in &lt;module&gt;"),
            "  File \"/app/main.py\", line 31, in <module>"
        );
        assert_eq!(
            terminal_text(
                "ImportError: libcuda.so.1: cannot open &#39;x&#39; &#x27;y&#x27; &quot;z&quot; a &gt; b"
            ),
            "ImportError: libcuda.so.1: cannot open 'x' 'y' \"z\" a > b"
        );
        // an escaped entity stays text; a lone `&#` is not one
        assert_eq!(terminal_text("a &amp;lt; b"), "a &lt; b");
        assert_eq!(terminal_text("x &# y &#zz; z"), "x &# y &#zz; z");
    }

    #[test]
    fn prefixes() {
        let j = clean_line(
            "Dec 01 10:00:00 node-01 kubelet[1234]: E1201 10:00:00.000000    1234 kubelet.go:2448] \"Error getting node\" err=\"node \\\"node-01\\\" not found\"",
        );
        assert_eq!(j.host, "node-01");
        assert_eq!(
            j.text,
            r#"E1201 10:00:00.000000    1234 kubelet.go:2448] Error getting node err="node "node-01" not found""#
        );
        assert_eq!(
            clean_line("Dec  1 10:00:00.123456 node-01 kubelet[1]: hello").text,
            "hello"
        );
        let iso = clean_line("2021-12-01T10:00:00+0000 node-02 kubelet[12]: starting");
        assert_eq!(
            (iso.host.as_str(), iso.text.as_str()),
            ("node-02", "starting")
        );
        assert_eq!(
            clean("2021-12-01T10:00:00.123456+00:00 node-02 k3s[12]: Node password rejected"),
            "Node password rejected"
        );
        assert_eq!(
            clean("Wed 2021-12-01 10:00:00 UTC node-03 kubelet[1]: x"),
            "x"
        );
        assert_eq!(clean("1638352800.123456 node-03 kubelet[1]: y"), "y");
        assert_eq!(
            clean(
                "2024-01-01T00:00:00.000000000Z stderr F I0101 00:00:00.000000       1 main.go:1] Loading NVML"
            ),
            "I0101 00:00:00.000000       1 main.go:1] Loading NVML"
        );
        assert_eq!(
            clean("2024-01-01T00:00:00.123456789Z Failed to initialize NVML: ERROR_UNKNOWN"),
            "Failed to initialize NVML: ERROR_UNKNOWN"
        );
        assert_eq!(clean("2021/05/08 12:20:58 Loading NVML"), "Loading NVML");
        assert_eq!(
            clean("[2021-05-08 12:20:58] error execution phase preflight: x"),
            "error execution phase preflight: x"
        );
        assert_eq!(clean("[   12.345678] NVRM: loading"), "NVRM: loading");
        assert_eq!(clean("[Sat May  8 12:20:58 2021] NVRM: Xid"), "NVRM: Xid");
        assert_eq!(
            clean("[preflight] Running pre-flight checks"),
            "[preflight] Running pre-flight checks"
        );
        assert_eq!(
            clean("[WARNING Swap]: swap is enabled"),
            "[WARNING Swap]: swap is enabled"
        );
        assert_eq!(
            clean("[kubelet-check] Initial timeout of 40s passed."),
            "[kubelet-check] Initial timeout of 40s passed."
        );
    }

    #[test]
    fn structured_forms() {
        assert_eq!(
            clean(
                r#"{"ts":1620000000.1,"caller":"x.go:1","msg":"Failed to get node","v":0,"err":"boom"}"#
            ),
            "Failed to get node err=\"boom\""
        );
        assert_eq!(
            clean(
                r#"{"log":"E0101 00:00:00.000000 1 x.go:1] nvml init failed\n","stream":"stderr","time":"2024-01-01T00:00:00Z"}"#
            ),
            "E0101 00:00:00.000000 1 x.go:1] nvml init failed"
        );
        assert_eq!(
            clean(
                r#"time="2024-01-01T00:00:00Z" level=error msg="failed to load cni" error="no network config""#
            ),
            "failed to load cni level=\"error\" error=\"no network config\""
        );
        assert_eq!(
            clean(r#""msg"="Reconciler error" "error"="x" "controller"="c""#),
            "Reconciler error error=\"x\" controller=\"c\""
        );
        // test collections keep their JSON (the classifiers read `text`)
        let jl = r#"{"id":"a","text":"error: You must be logged in"}"#;
        assert_eq!(clean(jl), jl);
    }

    #[test]
    fn terminal_noise() {
        assert_eq!(clean("\u{1b}[1;31mError\u{1b}[0m: x\r"), "Error: x");
        assert_eq!(clean("[0;31mError[0m: x"), "Error: x");
        assert_eq!(clean("10%\r50%\r100% done"), "100% done");
        assert_eq!(clean("a\tb"), "a\tb");
        assert_eq!(clean("\u{1b}]0;title\u{7}ok"), "ok");
    }

    #[test]
    fn prompts() {
        assert_eq!(
            prompt_command("$ kubectl get nodes -o wide"),
            Some("kubectl get nodes -o wide")
        );
        assert_eq!(
            prompt_command("# kubectl describe node x"),
            Some("kubectl describe node x")
        );
        assert_eq!(prompt_command("# This is a heading"), None);
        assert_eq!(
            prompt_command("bash-5.1# lspci -d 1002:75a3"),
            Some("lspci -d 1002:75a3")
        );
        assert_eq!(prompt_command("sh-4.4$ uname -a"), Some("uname -a"));
        assert_eq!(prompt_command("bash-completion is installed"), None);
        assert_eq!(
            prompt_command("user@host:~$ kubectl get pods"),
            Some("kubectl get pods")
        );
        assert_eq!(
            prompt_command("root@node-01:/# journalctl -u kubelet"),
            Some("journalctl -u kubelet")
        );
        assert_eq!(
            prompt_command("[root@node-01 ~]# kubeadm join x"),
            Some("kubeadm join x")
        );
        assert_eq!(
            prompt_command("PS C:\\> kubectl get nodes"),
            Some("kubectl get nodes")
        );
        assert_eq!(
            prompt_command("C:\\Users\\me>kubectl get nodes"),
            Some("kubectl get nodes")
        );
        assert_eq!(
            prompt_command("(base) me@box:~/k8s$ k get po"),
            Some("k get po")
        );
        assert_eq!(
            prompt_command("mac:~ me$ kubectl get nodes"),
            Some("kubectl get nodes")
        );
        assert_eq!(
            prompt_command("➜  ~ kubectl get nodes"),
            Some("kubectl get nodes")
        );
        assert_eq!(prompt_command("$"), Some(""));
        assert_eq!(prompt_command("Name:  node-01"), None);
        assert_eq!(prompt_command("NAME STATUS ROLES"), None);
        assert_eq!(
            prompt_command("  Warning  FailedScheduling  5m  default-scheduler  0/1 nodes"),
            None
        );
        assert_eq!(
            prompt_command("node-01   Ready    <none>   5d    v1.30.0"),
            None
        );
    }

    #[test]
    fn sections() {
        let text = "some prose\n```\n$ kubectl get nodes\r\nNAME STATUS\r\n\r\n$ kubeadm join 10.0.0.1:6443 --token x \\\n    --discovery-token-ca-cert-hash sha256:aa\n[preflight] Running\n```\n";
        let s = split(text);
        assert_eq!(s.len(), 3, "{s:#?}");
        assert_eq!(s[0].lines[0].text, "some prose");
        assert_eq!(
            s[1].command.as_ref().map(|c| c.text.as_str()),
            Some("kubectl get nodes")
        );
        assert_eq!(s[1].lines[0].text, "NAME STATUS");
        assert_eq!(s[1].lines[0].number, 4);
        let join = s[2].command.as_ref().unwrap();
        assert_eq!(join.number, 6);
        assert_eq!(
            join.text,
            "kubeadm join 10.0.0.1:6443 --token x --discovery-token-ca-cert-hash sha256:aa"
        );
        assert_eq!(s[2].lines[0].number, 8);
    }

    /// Markdown indented code blocks between prose (4 spaces or a tab) lose their indentation
    /// block by block; indentation that is part of the output stays.
    #[test]
    fn indented_blocks_between_prose() {
        let pod = "Name:           p-1\nNamespace:      kube-system\nNode:           n-1/10.0.0.3\nStatus:         Pending\nInit Containers:\n  installer:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n";
        let node = "Name:               n-1\nRoles:              <none>\nLabels:             a=b\n                    c=d\n";
        for indent in ["    ", "\t", "  "] {
            let block =
                |t: &str| -> String { t.lines().map(|l| format!("{indent}{l}\n")).collect() };
            let text = format!(
                "Describing the pod: `kubectl describe pod p-1`\n\n{}\nand `kubectl describe node n-1`:\n\n{}",
                block(pod),
                block(node)
            );
            let s = split(&text);
            assert_eq!(s.len(), 1);
            let out = s[0].text();
            assert!(out.contains(&format!("\n{pod}")), "{indent:?}:\n{out}");
            assert!(out.contains(&format!("\n{node}")), "{indent:?}:\n{out}");
        }
        // output indentation after a blank line stays: describe continuation lines, YAML, a
        // stack trace
        for text in [
            "Name: p\nArgs:\n      --a\n\n      --b\n",
            "spec:\n\n  containers:\n  - name: x\n",
            "panic: boom\n\n\tgoroutine 1 [running]:\n\tmain.main()\n",
        ] {
            let s = split(text);
            assert_eq!(s[0].text().trim_end(), text.trim_end(), "{text}");
        }
        // a uniform indentation of the whole paste, tabs and spaces mixed the same way
        let s = split("\t  Name: n\n\t  Roles: x\n\t    more\n");
        assert_eq!(s[0].text().trim_end(), "Name: n\nRoles: x\n  more");
    }

    #[test]
    fn markdown_bold_markers_are_removed_around_words_only() {
        assert_eq!(
            terminal_text("**[root@node-03 ~]# kubectl get pods**"),
            "[root@node-03 ~]# kubectl get pods"
        );
        assert_eq!(
            terminal_text(
                "  Warning  **FailedScheduling  4s  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu.**"
            ),
            "  Warning  FailedScheduling  4s  default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu."
        );
        assert_eq!(
            terminal_text("  **nvidia.com/gpu:  0**"),
            "  nvidia.com/gpu:  0"
        );
        assert_eq!(terminal_text("find **/*.yaml"), "find **/*.yaml");
        assert_eq!(terminal_text("x = 2**10 and 3**2"), "x = 2**10 and 3**2");
    }

    /// Terminal output quoted in an issue comment (`> ` markers, nested, a lone `>`) reads as
    /// the output; `>foo`, a redirect and a PowerShell prompt are not quote markers.
    /// A `<` followed by multi-byte characters where a tag name would end (found by the
    /// hostile-bytes property) is text, not a panic.
    #[test]
    fn angle_bracket_before_multibyte_characters() {
        let line = "Kuberne<\u{fffd}\u{fffd}\u{fffd}v(tes GPU/CPU pool &amp; more";
        assert_eq!(
            terminal_text(line),
            "Kuberne<\u{fffd}\u{fffd}\u{fffd}v(tes GPU/CPU pool & more"
        );
        assert_eq!(terminal_text("a <é> b <b>x</b>"), "a <é> b x");
    }

    #[test]
    fn markdown_block_quotes_are_unquoted() {
        assert_eq!(
            terminal_text("> NAME                                   READY     STATUS"),
            "NAME                                   READY     STATUS"
        );
        assert_eq!(
            terminal_text("> >   Normal  Scheduled"),
            "  Normal  Scheduled"
        );
        assert_eq!(terminal_text(">"), "");
        assert_eq!(
            terminal_text(">> 2017/12/08 Loading NVML"),
            "2017/12/08 Loading NVML"
        );
        assert_eq!(terminal_text(">foo"), ">foo");
        assert_eq!(terminal_text("echo x > file"), "echo x > file");
        assert_eq!(
            terminal_text("PS C:\\> kubectl get nodes"),
            "PS C:\\> kubectl get nodes"
        );
        let s = split(
            "> $ kubectl get pods\n> NAME   READY   STATUS    RESTARTS   AGE\n> p-1    0/1     Pending   0          1m\n",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].command.as_ref().map(|c| c.text.as_str()),
            Some("kubectl get pods")
        );
        assert!(s[0].text().starts_with("NAME   READY"), "{}", s[0].text());
    }

    #[test]
    fn bare_kubectl_command_lines() {
        assert_eq!(
            prompt_command(
                "kubectl describe pod nvidia-device-plugin-daemonset-w72xb -n gpu-operator"
            ),
            Some("kubectl describe pod nvidia-device-plugin-daemonset-w72xb -n gpu-operator")
        );
        assert_eq!(
            prompt_command("kubectl get runtimeclasses.node.k8s.io   "),
            Some("kubectl get runtimeclasses.node.k8s.io")
        );
        assert_eq!(prompt_command("  kubectl get nodes"), None);
        assert_eq!(prompt_command("kubectl is not installed"), None);
        assert_eq!(prompt_command("kubectl apply -f x.yaml"), None);
    }
}
