//! Metamorphic test over every real case (issue 8 item 5, pastes read as people paste them):
//! each case with an `expect` block must reach the same conclusion when its inputs are pasted
//! in the other shapes real users produce: GitHub/Markdown quoting (fences, `> `, 4-space
//! indent, `<details>`, HTML entities), terminal copies (CRLF, ANSI colours, trailing spaces,
//! tabs expanded, shell prompts with the command, `| grep`, soft-wrapped log lines), log
//! collectors' prefixes (`kubectl logs --timestamps` / `--prefix`, stern, journald, Docker JSON,
//! syslog, bracketed timestamps) and several inputs concatenated into one file.
//!
//! The transformed inputs are diagnosed in-process through cube-diagnose's public API, exactly as
//! `cluster_diagnose --snapshot FILE... --output json` does (the untransformed case is run the
//! same way first and must reach its conclusion, so the in-process path stands for the program).
//! A transformed case must (1) still satisfy its `expect` block, (2) raise no warning or error
//! whose rule the untransformed case does not raise (a transform must not invent an alarm) and
//! (3) keep the exit code.
//!
//! `META_REPORT=1 cargo test -p cube-examples --test real_cases metamorphic -- --nocapture`
//! prints, per transform, how many cases it applies to and how many it breaks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use cube_diagnose::input::{InputFormat, detect_format};
use cube_diagnose::{Context, Engine, Inputs};
use serde_json::Value;

use super::support::root;
use super::{check_report, metas, summary};

/// (case path under `testdata/fixtures`, transform): known not to hold yet, with the reason.
/// The test fails when one of them holds (the entry must then be removed): the list only shrinks.
const KNOWN: &[(&str, &str, &str)] = &[
    (
        "cases/gpu/nvidia-plugin-ds-crashloop-manual-run-registers.txt",
        "indent4",
        "a 4-space indented block that holds `> ` quotes: CommonMark reads the `>` as literal text there, and the reader does not strip it after the dedent (the quoted pod table is not read)",
    ),
    (
        "cases/logs/argocd-cluster-add-kubeconfig-proxy-url-io-timeout.txt",
        "soft-wrap-80",
        "the only line at 80 columns ends with `?` (a URL's query string): a lone line at a terminal width is joined only when it cannot be a sentence's end",
    ),
    (
        "cases/paste/healthy-timeslicing-any-replicas-4-clusterpolicy-patch-diff.txt",
        "quote",
        "a unified diff behind `> `: the diff markers are looked for before the quote is removed",
    ),
    (
        "cases/sched/k10-describe-pod-tabs-failed-for-reason-podfitsresources.txt",
        "tabs-expanded",
        "kubectl 1.0 `describe pod` is read by its tab-separated cells: expanded to spaces (a terminal copy) its columns are not found",
    ),
    (
        "cases/sched/pangeo-eosc-gpus-busy-three-unschedulable-preemption.txt",
        "soft-wrap-120",
        "the case's text is already a Markdown `> ` quote: the transform wraps the quoted line (a terminal never wraps Markdown), so the first piece is 2 columns narrower than the others",
    ),
    (
        "cases/sched/pangeo-eosc-gpus-busy-three-unschedulable-preemption.txt",
        "soft-wrap-80",
        "the case's text is already a Markdown `> ` quote: the transform wraps the quoted line (a terminal never wraps Markdown), so the first piece is 2 columns narrower than the others",
    ),
];

/// What one input of a case is, as far as the transforms care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `kubectl get -o json` (one value, a List, a stream, JSON lines).
    Json,
    /// `kubectl get -o yaml`.
    Yaml,
    /// `kubectl describe` / `kubectl get` table text.
    Kubectl(InputFormat),
    /// A log (kubeadm, kubelet, device plugin, agent...) with no collector's prefix yet.
    Log,
    /// A log whose lines already carry a collector's prefix (journald, timestamps, CRI).
    PrefixedLog,
    /// Already a paste: shell prompts or Markdown fences inside, or a case of
    /// `cases/paste/` (pastes as people make them: diffs, Ansible output, wrapped copies).
    Paste,
    /// A tool's report that is no log (`nvidia-smi`, `rocm-smi`, `npu-smi` tables): pasted and
    /// quoted like any output, never behind a log collector's prefix.
    Output,
    /// A kubeconfig (read by the program before the diagnosis: not transformed here).
    Kubeconfig,
}

#[derive(Debug, Clone)]
struct Input {
    name: String,
    text: String,
    kind: Kind,
}

fn kind_of(name: &str, text: &str) -> Kind {
    let lines = || text.lines().filter(|l| !l.trim().is_empty());
    if name.contains("kubeconfigs/")
        || (text.contains("contexts")
            && text.contains("clusters")
            && text.contains("current-context"))
    {
        return Kind::Kubeconfig;
    }
    if name.starts_with("cases/paste/")
        || lines().any(|l| {
            let t = l.trim_start();
            t.starts_with("```")
                || t.starts_with("~~~")
                || cube_model::paste::prompt_command(l).is_some()
        })
    {
        return Kind::Paste;
    }
    if listing_tool(text).is_some() {
        return Kind::Output;
    }
    match detect_format(text.as_bytes()) {
        InputFormat::Json => Kind::Json,
        InputFormat::Yaml => Kind::Yaml,
        InputFormat::Text | InputFormat::Paste => {
            let prefixed = lines()
                .filter(|l| cube_model::paste::clean_line(l).text.trim() != l.trim())
                .count();
            if prefixed > 0 {
                Kind::PrefixedLog
            } else {
                Kind::Log
            }
        }
        other => Kind::Kubectl(other),
    }
}

/// The command that prints a GPU/NPU listing (`nvidia-smi`, `rocm-smi`, `npu-smi info`).
fn listing_tool(text: &str) -> Option<&'static str> {
    let head: String = text.lines().take(12).collect::<Vec<_>>().join("\n");
    if head.contains("NVIDIA-SMI") {
        Some("nvidia-smi")
    } else if head.contains("ROCm System Management Interface") {
        Some("rocm-smi")
    } else if head.contains("| npu-smi") {
        Some("npu-smi info")
    } else {
        None
    }
}

fn is_log(k: Kind) -> bool {
    matches!(k, Kind::Log | Kind::PrefixedLog)
}

/// The command a user would have run to print this input (the prompt line's command).
fn command_for(input: &Input) -> String {
    let header = input
        .text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let all = if header.starts_with("NAMESPACE") {
        " -A"
    } else {
        ""
    };
    match input.kind {
        Kind::Json => "kubectl get nodes,pods,events -A -o json".into(),
        Kind::Yaml => "kubectl get nodes,pods -A -o yaml".into(),
        Kind::Kubectl(InputFormat::DescribeNode) => "kubectl describe node".into(),
        Kind::Kubectl(InputFormat::DescribePod) => "kubectl describe pod".into(),
        Kind::Kubectl(InputFormat::DescribePersistentVolumeClaim) => "kubectl describe pvc".into(),
        Kind::Kubectl(InputFormat::EventsTable) if header.contains("LAST SEEN") => {
            format!("kubectl get events{all}")
        }
        Kind::Kubectl(InputFormat::EventsTable) => "kubectl describe pod".into(),
        Kind::Kubectl(InputFormat::NodesWideTable) => "kubectl get nodes -o wide".into(),
        Kind::Kubectl(InputFormat::GetTable) => format!("kubectl get pods{all}"),
        Kind::Kubectl(_) => "kubectl describe ds,quota,limitrange".into(),
        Kind::PrefixedLog => "journalctl -u kubelet --no-pager".into(),
        Kind::Output => listing_tool(&input.text).unwrap_or("nvidia-smi").into(),
        _ => "cat output.log".into(),
    }
}

/// The node a log collector's prefix or a shell prompt names: the case's expected node
/// subject, else `node-01`.
fn host_of(expect: &Value) -> String {
    expect["fire"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["subject"].as_str())
        .find_map(|s| s.strip_prefix("Node/"))
        .unwrap_or("node-01")
        .to_owned()
}

/// Each line through `f`, keeping the input's final newline.
fn map_lines(text: &str, mut f: impl FnMut(usize, &str) -> String) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for (i, l) in text.lines().enumerate() {
        out.push_str(&f(i, l));
        out.push('\n');
    }
    out
}

/// The text with a final newline (a closing fence goes on its own line).
fn with_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

fn fence_lang(k: Kind) -> &'static str {
    match k {
        Kind::Json => "json",
        Kind::Yaml => "yaml",
        Kind::Log | Kind::PrefixedLog => "log",
        _ => "console",
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn expand_tabs(line: &str) -> String {
    let mut out = String::new();
    let mut col = 0;
    for c in line.chars() {
        if c == '\t' {
            let n = 8 - col % 8;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    out
}

/// A terminal soft-wrapping lines longer than `width` columns (a copy of the screen has its
/// tabs as spaces).
fn soft_wrap(text: &str, width: usize) -> String {
    map_lines(text, |_, l| {
        let l = &expand_tabs(l);
        let chars: Vec<char> = l.chars().collect();
        if chars.len() <= width {
            return l.to_owned();
        }
        chars
            .chunks(width)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// RFC 3339 timestamps one second apart (`kubectl logs --timestamps`).
fn stamp(i: usize, nano: bool) -> String {
    let (m, s) = ((i / 60) % 60, i % 60);
    if nano {
        format!("2024-12-01T10:{m:02}:{s:02}.123456789Z")
    } else {
        format!("2024-12-01 10:{m:02}:{s:02}")
    }
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string is JSON")
}

/// One way a user pastes an input.
#[derive(Clone, Copy)]
struct Transform {
    name: &'static str,
    applies: fn(Kind) -> bool,
    apply: fn(&Input, &str) -> String,
}

fn any_text(k: Kind) -> bool {
    k != Kind::Kubeconfig
}
fn not_paste(k: Kind) -> bool {
    !matches!(k, Kind::Kubeconfig | Kind::Paste)
}
fn unprefixed_log(k: Kind) -> bool {
    k == Kind::Log
}
fn log_kind(k: Kind) -> bool {
    is_log(k)
}
fn terminal_text(k: Kind) -> bool {
    matches!(
        k,
        Kind::Log | Kind::PrefixedLog | Kind::Kubectl(_) | Kind::Output
    )
}

fn prompt(input: &Input, prompt: &str) -> String {
    format!("{prompt}{}\n{}", command_for(input), input.text)
}

const TRANSFORMS: &[Transform] = &[
    // GitHub / Markdown quoting
    Transform {
        name: "fence",
        applies: not_paste,
        apply: |i, _| format!("```\n{}```\n", with_newline(&i.text)),
    },
    Transform {
        name: "fence-lang",
        applies: not_paste,
        apply: |i, _| format!("```{}\n{}```\n", fence_lang(i.kind), with_newline(&i.text)),
    },
    Transform {
        name: "quote",
        applies: any_text,
        apply: |i, _| {
            map_lines(&i.text, |_, l| {
                if l.is_empty() {
                    ">".into()
                } else {
                    format!("> {l}")
                }
            })
        },
    },
    Transform {
        name: "indent4",
        applies: not_paste,
        apply: |i, _| {
            map_lines(&i.text, |_, l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("    {l}")
                }
            })
        },
    },
    Transform {
        name: "details",
        applies: not_paste,
        apply: |i, _| {
            format!(
                "<details><summary>{}</summary>\n\n```\n{}```\n\n</details>\n",
                command_for(i),
                with_newline(&i.text)
            )
        },
    },
    Transform {
        name: "html-entities",
        applies: any_text,
        apply: |i, _| html_escape(&i.text),
    },
    // terminal
    Transform {
        name: "crlf",
        applies: any_text,
        apply: |i, _| i.text.replace('\n', "\r\n"),
    },
    Transform {
        name: "ansi",
        applies: terminal_text,
        apply: |i, _| {
            map_lines(&i.text, |n, l| {
                if l.trim().is_empty() {
                    l.to_owned()
                } else if n % 2 == 0 {
                    format!("\x1b[0;31m{l}\x1b[0m")
                } else {
                    format!("\x1b[1m{l}\x1b[22m")
                }
            })
        },
    },
    Transform {
        name: "trailing-spaces",
        applies: any_text,
        apply: |i, _| map_lines(&i.text, |_, l| format!("{l}   ")),
    },
    Transform {
        name: "tabs-expanded",
        applies: |k| any_text(k),
        apply: |i, _| map_lines(&i.text, |_, l| expand_tabs(l)),
    },
    Transform {
        name: "prompt-dollar",
        applies: not_paste,
        apply: |i, _| prompt(i, "$ "),
    },
    Transform {
        name: "prompt-hash",
        applies: not_paste,
        apply: |i, _| prompt(i, "# "),
    },
    Transform {
        name: "prompt-root-host",
        applies: not_paste,
        apply: |i, host| prompt(i, &format!("[root@{host} ~]# ")),
    },
    Transform {
        name: "prompt-user-host",
        applies: not_paste,
        apply: |i, host| prompt(i, &format!("user@{host}:~$ ")),
    },
    Transform {
        name: "prompt-powershell",
        applies: not_paste,
        apply: |i, _| prompt(i, "PS C:\\> "),
    },
    Transform {
        name: "prompt-ansi",
        applies: not_paste,
        apply: |i, host| {
            format!(
                "\x1b[01;32muser@{host}\x1b[00m:\x1b[01;34m~\x1b[00m$ {}\n{}",
                command_for(i),
                i.text
            )
        },
    },
    Transform {
        name: "kubectl-grep",
        applies: |k| matches!(k, Kind::Kubectl(_) | Kind::Json | Kind::Yaml),
        apply: |i, _| {
            // `| grep -v Evicted`: the lines that say Evicted are gone, the rest as printed
            let kept: String = i
                .text
                .lines()
                .filter(|l| !l.contains("Evicted"))
                .map(|l| format!("{l}\n"))
                .collect();
            let cmd = command_for(i);
            let cmd = if cmd.starts_with("kubectl") {
                cmd
            } else {
                "kubectl get pods -A".into()
            };
            format!("$ {cmd} | grep -v Evicted\n{kept}")
        },
    },
    Transform {
        name: "soft-wrap-80",
        applies: log_kind,
        apply: |i, _| soft_wrap(&i.text, 80),
    },
    Transform {
        name: "soft-wrap-120",
        applies: log_kind,
        apply: |i, _| soft_wrap(&i.text, 120),
    },
    // log collectors' prefixes
    Transform {
        name: "kubectl-timestamps",
        applies: unprefixed_log,
        apply: |i, _| map_lines(&i.text, |n, l| format!("{} {l}", stamp(n, true))),
    },
    Transform {
        name: "kubectl-prefix",
        applies: unprefixed_log,
        apply: |i, _| {
            map_lines(&i.text, |_, l| {
                format!("[pod/agent-7d9f8c6b5-x2k4p/agent] {l}")
            })
        },
    },
    Transform {
        name: "stern",
        applies: unprefixed_log,
        apply: |i, _| map_lines(&i.text, |_, l| format!("agent-7d9f8c6b5-x2k4p agent {l}")),
    },
    Transform {
        name: "journald",
        applies: unprefixed_log,
        apply: |i, host| {
            map_lines(&i.text, |n, l| {
                format!(
                    "Dec 01 10:{:02}:{:02} {host} kubelet[1234]: {l}",
                    (n / 60) % 60,
                    n % 60
                )
            })
        },
    },
    Transform {
        name: "docker-json",
        applies: unprefixed_log,
        apply: |i, _| {
            map_lines(&i.text, |n, l| {
                format!(
                    "{{\"log\":{},\"stream\":\"stderr\",\"time\":\"{}\"}}",
                    json_string(&format!("{l}\n")),
                    stamp(n, true)
                )
            })
        },
    },
    Transform {
        name: "syslog",
        applies: unprefixed_log,
        apply: |i, host| {
            map_lines(&i.text, |n, l| {
                format!(
                    "Dec  1 10:{:02}:{:02} {host} kubelet[1234]: {l}",
                    (n / 60) % 60,
                    n % 60
                )
            })
        },
    },
    Transform {
        name: "bracketed-timestamp",
        applies: unprefixed_log,
        apply: |i, _| map_lines(&i.text, |n, l| format!("[{}] {l}", stamp(n, false))),
    },
];

/// The ways several inputs of one case are pasted into one file.
const CONCATS: &[(&str, &str, bool)] = &[
    ("concat-blank", "\n\n", false),
    ("concat-blank-reversed", "\n\n", true),
    ("concat-dashes", "\n---\n", false),
    ("concat-dashes-reversed", "\n---\n", true),
    ("concat-prompts", "", false),
    ("concat-prompts-reversed", "", true),
];

/// One run of the diagnosis in-process, as `cluster_diagnose --snapshot ... --output json`
/// does it: the JSON document and the exit code.
fn diagnose(engine: &Engine, files: &[(String, String)]) -> (Value, i32) {
    let mut inputs = Inputs::new();
    for (name, text) in files {
        inputs.add_bytes(name, text.as_bytes());
    }
    let problems = inputs.input_problems();
    let ctx = Context::new(&inputs.snapshot)
        .with_logs(inputs.logs.clone())
        .with_thresholds(engine.config().thresholds.clone());
    let report = engine
        .run(&ctx)
        .with_input_problems(problems)
        .with_locations(&inputs.locations);
    let code = report.exit_code();
    let mut buf = Vec::new();
    cube_diagnose::render::write_json(&report, &mut buf).expect("JSON report");
    (serde_json::from_slice(&buf).expect("report is JSON"), code)
}

fn alarms(report: &Value) -> BTreeSet<String> {
    report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| matches!(f["severity"].as_str(), Some("warning" | "error")))
        .filter_map(|f| f["ruleId"].as_str().map(str::to_owned))
        .collect()
}

/// The failures of one transformed run against the case and its untransformed run.
fn judge(expect: &Value, base: &(Value, i32), got: &(Value, i32)) -> Vec<String> {
    let mut failures = check_report(&got.0, Some(got.1), expect);
    let before = alarms(&base.0);
    for rule in alarms(&got.0).difference(&before) {
        failures.push(format!("{rule} raised (the case as given does not)"));
    }
    if got.1 != base.1 {
        failures.push(format!(
            "exit code {} (the case as given: {})",
            got.1, base.1
        ));
    }
    if !failures.is_empty() && !failures.last().is_some_and(|f| f.starts_with("findings")) {
        let findings = got.0["findings"].as_array().cloned().unwrap_or_default();
        failures.push(format!("findings were:\n{}", summary(&findings)));
    }
    failures
}

struct Case {
    rel: String,
    inputs: Vec<Input>,
    expect: Value,
}

fn load_cases() -> Vec<Case> {
    let fixtures = root().join("testdata/fixtures");
    let mut all = Vec::new();
    metas(&fixtures, &mut all);
    let mut cases = Vec::new();
    for meta_path in &all {
        let text = std::fs::read_to_string(meta_path).expect("meta readable");
        let meta: Value = serde_json::from_str(&text).expect("meta is JSON");
        let Some(expect) = meta.get("expect") else {
            continue;
        };
        let data = PathBuf::from(
            meta_path
                .to_string_lossy()
                .trim_end_matches(".meta.json")
                .to_owned(),
        );
        let dir = data.parent().expect("fixture folder").to_path_buf();
        let mut files = vec![data.clone()];
        if let Some(extra) = expect["inputs"].as_array() {
            files.extend(extra.iter().filter_map(Value::as_str).map(|f| dir.join(f)));
        }
        let rel = |p: &Path| p.strip_prefix(&fixtures).unwrap_or(p).display().to_string();
        let inputs = files
            .iter()
            .map(|f| {
                let bytes = std::fs::read(f).expect("fixture readable");
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let name = rel(f);
                Input {
                    kind: kind_of(&name, &text),
                    name,
                    text,
                }
            })
            .collect();
        cases.push(Case {
            rel: rel(&data),
            inputs,
            expect: expect.clone(),
        });
    }
    cases
}

/// The transformed inputs of `case` under every transform that applies to it, by name.
fn variants(case: &Case) -> Vec<(&'static str, Vec<(String, String)>)> {
    let host = host_of(&case.expect);
    let mut out = Vec::new();
    if case.inputs.iter().any(|i| i.kind == Kind::Kubeconfig) {
        return out;
    }
    for t in TRANSFORMS {
        if !case.inputs.iter().any(|i| (t.applies)(i.kind)) {
            continue;
        }
        let files = case
            .inputs
            .iter()
            .map(|i| {
                let text = if (t.applies)(i.kind) {
                    (t.apply)(i, &host)
                } else {
                    i.text.clone()
                };
                (i.name.clone(), text)
            })
            .collect();
        out.push((t.name, files));
    }
    if case.inputs.len() > 1 {
        for &(name, sep, reversed) in CONCATS {
            let mut parts: Vec<&Input> = case.inputs.iter().collect();
            if reversed {
                parts.reverse();
            }
            let text = if sep.is_empty() {
                parts
                    .iter()
                    .map(|i| {
                        if i.kind == Kind::Paste {
                            i.text.clone()
                        } else {
                            prompt(i, "$ ")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                parts
                    .iter()
                    .map(|i| i.text.trim_end().to_owned())
                    .collect::<Vec<_>>()
                    .join(sep)
                    + "\n"
            };
            out.push((name, vec![(case.inputs[0].name.clone(), text)]));
        }
    }
    out
}

#[derive(Default)]
struct Outcome {
    applied: BTreeMap<&'static str, usize>,
    broken: BTreeMap<&'static str, Vec<String>>,
    failures: Vec<String>,
    baseline: Vec<String>,
}

fn run_case(engine: &Engine, case: &Case, out: &mut Outcome) {
    let given: Vec<(String, String)> = case
        .inputs
        .iter()
        .map(|i| (i.name.clone(), i.text.clone()))
        .collect();
    let base = diagnose(engine, &given);
    let base_failures = check_report(&base.0, Some(base.1), &case.expect);
    if !base_failures.is_empty() {
        out.baseline.push(format!(
            "{} (as given, in-process):\n  {}",
            case.rel,
            base_failures.join("\n  ")
        ));
        return;
    }
    // one file made of several: a `text` naming an input's file name cannot be expected
    let mut joined = case.expect.clone();
    for fire in joined["fire"].as_array_mut().into_iter().flatten() {
        if let Some(texts) = fire["text"].as_array_mut() {
            texts.retain(|t| {
                !case
                    .inputs
                    .iter()
                    .any(|i| t.as_str().is_some_and(|t| i.name.ends_with(t)))
            });
        }
    }
    for (name, files) in variants(case) {
        *out.applied.entry(name).or_default() += 1;
        let got = diagnose(engine, &files);
        let expect = if name.starts_with("concat") {
            &joined
        } else {
            &case.expect
        };
        let failures = judge(expect, &base, &got);
        if !failures.is_empty() {
            if let Some(dir) = std::env::var_os("META_DUMP") {
                // the transformed inputs of a broken run, to run the program on by hand
                let dir = Path::new(&dir).join(name);
                for (file, text) in &files {
                    let path = dir.join(file);
                    let _ = std::fs::create_dir_all(path.parent().expect("a folder"));
                    let _ = std::fs::write(path, text);
                }
            }
            out.broken.entry(name).or_default().push(case.rel.clone());
            if !KNOWN.iter().any(|(c, t, _)| *c == case.rel && *t == name) {
                out.failures.push(format!(
                    "{} [{name}]:\n  {}",
                    case.rel,
                    failures.join("\n  ")
                ));
            }
        }
    }
}

#[test]
fn every_real_case_keeps_its_conclusion_in_every_paste_shape() {
    let cases = load_cases();
    let engine = Engine::new();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let chunk = cases.len().div_ceil(threads).max(1);
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                let engine = &engine;
                s.spawn(move || {
                    let mut out = Outcome::default();
                    for case in part {
                        run_case(engine, case, &mut out);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let mut all = Outcome::default();
    for o in outcomes {
        for (k, v) in o.applied {
            *all.applied.entry(k).or_default() += v;
        }
        for (k, v) in o.broken {
            all.broken.entry(k).or_default().extend(v);
        }
        all.failures.extend(o.failures);
        all.baseline.extend(o.baseline);
    }
    let runs: usize = all.applied.values().sum();
    if std::env::var_os("META_REPORT").is_some() {
        eprintln!("transform                   applies  breaks");
        for (name, n) in &all.applied {
            let broken = all.broken.get(name).map_or(0, Vec::len);
            eprintln!("{name:<28}{n:>7}{broken:>8}");
            if std::env::var_os("META_REPORT_CASES").is_some() {
                for c in all.broken.get(name).into_iter().flatten() {
                    eprintln!("    {c}");
                }
            }
        }
        let cases_broken: BTreeSet<&String> = all.broken.values().flatten().collect();
        eprintln!(
            "{} cases, {runs} transformed runs, {} broken runs, {} cases broken",
            cases.len(),
            all.broken.values().map(Vec::len).sum::<usize>(),
            cases_broken.len()
        );
    }
    let stale: Vec<String> = KNOWN
        .iter()
        .filter(|(c, t, _)| !all.broken.get(t).is_some_and(|v| v.iter().any(|x| x == c)))
        .map(|(c, t, why)| format!("{c} [{t}] now holds (remove it from KNOWN: {why})"))
        .collect();
    assert!(
        all.baseline.is_empty(),
        "cases that fail as given through the in-process path (it must stand for the program):\n{}",
        all.baseline.join("\n")
    );
    assert!(
        all.failures.is_empty(),
        "{} transformed cases lost their conclusion:\n{}",
        all.failures.len(),
        all.failures.join("\n")
    );
    assert!(stale.is_empty(), "{}", stale.join("\n"));
    assert!(runs > 1000, "only {runs} transformed runs");
    eprintln!(
        "{} cases, {runs} transformed runs keep their conclusions",
        cases.len()
    );
}

/// Error lines that a command prints next to its output (stderr interleaved with stdout): each
/// with a marker that only it carries, so its finding is told from the case's own. The
/// kubectl form (k8s.io/kubectl `pkg/cmd/util/helpers.go` `checkErr` printing an apimachinery
/// `NewForbidden`) and a client-go reflector's klog line of the same refusal
/// (k8s.io/client-go `tools/cache/reflector.go` `Failed to watch`).
const PROBES: &[(&str, &str)] = &[
    (
        "kubectl",
        "Error from server (Forbidden): nodes is forbidden: User \"system:serviceaccount:probe-ns:probe-sa-7f3e\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
    ),
    (
        "klog",
        "E1202 10:00:00.000000    4242 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1.Node: failed to list *v1.Node: nodes is forbidden: User \"system:serviceaccount:probe-ns:probe-sa-7f3e\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
    ),
];

/// The marker of [`PROBES`].
const PROBE_MARK: &str = "probe-sa-7f3e";

/// Where a probe line goes in an input of kind `k` (0-based line index, before that line): at
/// the start and the end of every input; for text (tables, `describe`, logs, pastes, tool
/// reports) also after the first non-blank line (a table's header) and in the middle. A JSON
/// or YAML dump is one value: stderr shows up above or below it, never inside it.
fn probe_positions(k: Kind, text: &str) -> Vec<usize> {
    let n = text.lines().count();
    let mut at = vec![0, n];
    if !matches!(k, Kind::Json | Kind::Yaml) {
        if let Some(first) = text.lines().position(|l| !l.trim().is_empty()) {
            at.push(first + 1);
        }
        at.push(n / 2);
    }
    at.sort_unstable();
    at.dedup();
    at
}

/// Nothing dropped (issue 9 item 3): a known error line injected anywhere in any input of any
/// real case (every paste shape the fixtures hold: tables, stacked tables, `describe` of every
/// kind, JSON and YAML dumps, logs with and without collectors' prefixes, terminal and issue
/// pastes, tool reports) reaches the log reader and yields its finding, whatever content is
/// around it. An error line next to recognised content used to be swallowed by the table and
/// describe readers: a false all-clear.
#[test]
fn an_error_line_injected_anywhere_yields_its_finding() {
    let cases = load_cases();
    let engine = Engine::new();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let chunk = cases.len().div_ceil(threads).max(1);
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                let engine = &engine;
                s.spawn(move || {
                    let mut runs = 0usize;
                    let mut failures = Vec::new();
                    for case in part {
                        if case.inputs.iter().any(|i| i.kind == Kind::Kubeconfig) {
                            continue;
                        }
                        for (n, input) in case.inputs.iter().enumerate() {
                            let lines: Vec<&str> = input.text.lines().collect();
                            for at in probe_positions(input.kind, &input.text) {
                                for (probe, line) in PROBES {
                                    let mut text = String::new();
                                    for (i, l) in lines.iter().enumerate() {
                                        if i == at {
                                            text.push_str(line);
                                            text.push('\n');
                                        }
                                        text.push_str(l);
                                        text.push('\n');
                                    }
                                    if at >= lines.len() {
                                        text.push_str(line);
                                        text.push('\n');
                                    }
                                    let mut files: Vec<(String, String)> = case
                                        .inputs
                                        .iter()
                                        .map(|i| (i.name.clone(), i.text.clone()))
                                        .collect();
                                    files[n].1 = text;
                                    runs += 1;
                                    let (report, _) = diagnose(engine, &files);
                                    let found = report["findings"]
                                        .as_array()
                                        .into_iter()
                                        .flatten()
                                        .any(|f| f.to_string().contains(PROBE_MARK));
                                    if !found {
                                        failures.push(format!(
                                            "{} ({}, {:?}) [{probe} line before line {}]: no finding carries the injected line; findings were:\n{}",
                                            case.rel,
                                            input.name,
                                            input.kind,
                                            at + 1,
                                            summary(
                                                report["findings"].as_array().map_or(&[][..], Vec::as_slice)
                                            )
                                        ));
                                    }
                                }
                            }
                        }
                    }
                    (runs, failures)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let runs: usize = results.iter().map(|(r, _)| r).sum();
    let failures: Vec<&String> = results.iter().flat_map(|(_, f)| f).collect();
    assert!(
        failures.is_empty(),
        "{} of {runs} runs lost the injected error line:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(runs > 1000, "only {runs} runs");
    eprintln!("{runs} runs with an injected error line each yield its finding");
}
