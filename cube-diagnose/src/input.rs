//! Reading what a user pastes into a bug report. Objects (`kubectl get -o json|yaml`, `kubectl
//! describe`, `kubectl get` tables) go through `cube_model`'s snapshot loader
//! ([`ClusterSnapshot::add_bytes`]); everything the loader says is not snapshot input
//! (kubeadm/kubelet/device-plugin logs, scheduler messages, error texts) is kept as [`LogText`]
//! for the classifiers. The format is detected from the content, never from the file name.
//! Broken objects become `snapshot.problems`; the rest of the input still loads.
//!
//! An input that is JSON or YAML as a whole is handed to the loader as it is, and parsed once:
//! the loader's own problems say why broken JSON/YAML could not be read. Anything else is read
//! as a paste ([`cube_model::paste`]): cut into sections at shell prompts and Markdown fences,
//! each section cleaned (ANSI, CRLF, journald/klog/CRI/timestamp prefixes) and detected on its
//! own; the `describe`/table sections of one input are read together (so a `describe node`
//! and a `get nodes -o wide` row of the same node make one node), JSON/YAML sections one by
//! one, and the text sections become one log text whose lines keep their line numbers in the
//! user's file.

use cube_model::ClusterSnapshot;
use cube_model::paste::{self, PasteLine};
use cube_model::snapshot::LoadOutcome;

pub use cube_model::snapshot::{InputFormat, detect_format};

use crate::LogText;
use crate::context::LineOrigin;

/// One problem with an input: a [`cube_model::snapshot::LoadProblem`] of the loader, or an input
/// that could not be used (unreadable, empty, binary, broken JSON/YAML, not recognised).
///
/// `fatal` inputs yielded nothing at all: the run's exit code is 2 ([`crate::Report::exit_code`]);
/// the other inputs are still diagnosed and reported.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct InputProblem {
    /// File name or label of the input (normalised path).
    pub source: String,
    /// Index of the YAML document or JSON value (0-based), when the problem is inside the input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<usize>,
    /// `kind/namespace/name` of the object, when known.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub object: String,
    /// Field path inside the object, when known.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// True when the input could not be used at all (nothing was read from it).
    pub fatal: bool,
}

impl InputProblem {
    /// Runs the message, object and field through the one redactor
    /// ([`cube_model::redact::redact`]); [`crate::Report::with_input_problems`] does it.
    pub fn redact_secrets(&mut self) {
        for s in [
            &mut self.source,
            &mut self.object,
            &mut self.field,
            &mut self.message,
        ] {
            if let std::borrow::Cow::Owned(r) = cube_model::redact::redact(s) {
                *s = r;
            }
        }
    }
}

impl std::fmt::Display for InputProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.source)?;
        if let Some(d) = self.document {
            write!(f, ": document {d}")?;
        }
        if !self.object.is_empty() {
            write!(f, " ({})", self.object)?;
        }
        if !self.field.is_empty() {
            write!(f, " at {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// What the loader did besides reading objects, as (non-fatal) input problems, so every output
/// lists it: objects replaced by a later input, objects kept apart (same name, another
/// identity), kinds that could not be read, objects of kinds the analyses skip, Secrets skipped.
pub fn snapshot_notes(s: &ClusterSnapshot) -> Vec<InputProblem> {
    let note = |source: &str, object: &str, message: String| InputProblem {
        source: source.to_owned(),
        object: object.to_owned(),
        message,
        ..InputProblem::default()
    };
    let mut out = Vec::new();
    for d in &s.duplicates {
        out.push(note(
            &d.source,
            "",
            format!(
                "{} {} object(s) already loaded from an earlier input were replaced by this input's",
                d.count, d.kind
            ),
        ));
    }
    for m in &s.mixed {
        let text = m.to_string();
        let message = text
            .strip_prefix(&format!("{}: ", m.source))
            .unwrap_or(&text)
            .to_owned();
        out.push(note(&m.source, "", message));
    }
    for c in &s.conflicts {
        let text = c.to_string();
        let message = text
            .strip_prefix(&format!("{}: ", c.source))
            .unwrap_or(&text)
            .to_owned();
        out.push(note(
            &c.source,
            &format!("{}/{}", c.kind, c.object),
            message,
        ));
    }
    for (kind, why) in &s.missing_kinds {
        out.push(note("cluster", kind, format!("could not be read: {why}")));
    }
    if !s.unknown_kinds.is_empty() {
        let total: usize = s.unknown_kinds.values().sum();
        let kinds: Vec<String> = s
            .unknown_kinds
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        out.push(note(
            "snapshot",
            "",
            format!(
                "skipped {total} object(s) of kinds the analyses do not read ({})",
                kinds.join(", ")
            ),
        ));
    }
    if s.skipped_secrets > 0 {
        out.push(note(
            "snapshot",
            "",
            format!(
                "skipped {} Secret(s) that are not bootstrap tokens (never stored)",
                s.skipped_secrets
            ),
        ));
    }
    out
}

/// Annotation set on events read by [`Inputs`]: the input (file name or label) they came from.
pub const SOURCE_ANNOTATION: &str = "cube-diagnose.invalid/source";

/// Lexically normalises a path label: `a/./b` and `a//b` become `a/b`, `a/x/../b` becomes `a/b`
/// (a leading `..` is kept). `-` (stdin) and labels without `/` are returned unchanged.
pub fn normalize_path(label: &str) -> String {
    if !label.contains('/') {
        return label.to_owned();
    }
    let absolute = label.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in label.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    }
}

/// Accumulates inputs into a snapshot plus log texts, and records what could not be used.
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// Objects read so far.
    pub snapshot: ClusterSnapshot,
    /// Texts for the classifiers.
    pub logs: Vec<LogText>,
    /// Inputs that could not be used, or only partly (see [`Inputs::input_problems`] for the
    /// complete list including the loader's problems).
    pub problems: Vec<InputProblem>,
    /// Where each object read from a file starts (file and line), for SARIF physical locations
    /// ([`crate::Report::with_locations`]).
    pub locations: crate::locate::Locations,
    /// Content fingerprints of the inputs seen so far, with their source (identical content given
    /// twice is read once).
    seen: Vec<(u64, usize, String)>,
    /// `nvidia-smi` / `rocm-smi` listings of inputs that hold no node, with their source: linked
    /// to a node of the other inputs ([`cube_model::smi::link_target`]) after every input.
    gpu_listings: Vec<(String, cube_model::smi::SmiListing)>,
    /// Why a listing of [`Inputs::gpu_listings`] is not linked (recomputed after every input).
    listing_notes: Vec<InputProblem>,
    /// Log lines handed to the classifiers so far, all inputs together (bounded by
    /// `Limits::max_log_lines`).
    log_lines: u64,
    /// JSON/YAML sections of the current paste that hold no Kubernetes object (a cloud CLI's
    /// output, an API answer of another kind): first and last line, and what it is. Named in
    /// the input problems when nothing in them was read either ([`Inputs::push_log`]).
    unread_sections: Vec<(usize, usize, String)>,
}

/// Binary data: the one test of the bounded reader ([`cube_model::io::looks_binary`]).
fn looks_binary(bytes: &[u8]) -> bool {
    cube_model::io::looks_binary(bytes)
}

fn fingerprint(text: &str) -> u64 {
    let mut f = Fingerprint::default();
    f.update(text.as_bytes());
    f.finish()
}

/// A content fingerprint taken eight bytes at a time (a dump of 500 MB is hashed in a few tens
/// of milliseconds, where SipHash took a third of a second), fed in pieces of any size (an
/// input read from a reader is hashed as it passes); only used to spot the same content given
/// twice.
struct Fingerprint {
    h: u64,
    len: u64,
    /// Bytes of an unfinished word.
    pending: [u8; 8],
    filled: usize,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint {
            h: 0x9E37_79B9_7F4A_7C15,
            len: 0,
            pending: [0; 8],
            filled: 0,
        }
    }
}

impl Fingerprint {
    fn mix(&mut self, w: u64) {
        self.h = (self.h ^ w)
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            .rotate_left(29);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.mix(u64::from_le_bytes(self.pending));
            self.filled = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for c in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.mix(u64::from_le_bytes(w));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    fn finish(mut self) -> u64 {
        let mut tail = [0u8; 8];
        tail[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        self.mix(u64::from_le_bytes(tail));
        self.mix(self.len);
        self.h ^ (self.h >> 33)
    }
}

/// A reader that fingerprints what passes through it.
struct Hashing<'r> {
    inner: &'r mut dyn std::io::Read,
    fingerprint: Fingerprint,
}

impl std::io::Read for Hashing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.fingerprint.update(&buf[..n]);
        Ok(n)
    }
}

impl Inputs {
    /// Empty inputs.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every input problem: the loader's [`cube_model::snapshot::LoadProblem`]s (not fatal) and
    /// the inputs that could not be used, in input order.
    pub fn input_problems(&self) -> Vec<InputProblem> {
        let mut out: Vec<InputProblem> = self
            .snapshot
            .problems
            .iter()
            .map(|p| InputProblem {
                source: p.file.clone(),
                document: Some(p.document),
                object: p.object.clone(),
                field: p.field.clone(),
                message: match p.item {
                    Some(i) => format!("item {i}: {}", p.message),
                    None => p.message.clone(),
                },
                fatal: false,
            })
            .collect();
        out.extend(self.problems.iter().cloned());
        out.extend(self.listing_notes.iter().cloned());
        out.extend(snapshot_notes(&self.snapshot));
        // an input that yielded nothing: its loader problems are part of the fatal one
        out.dedup();
        out
    }

    /// True when some input could not be used at all (exit code 2).
    pub fn has_fatal_problem(&self) -> bool {
        self.problems.iter().any(|p| p.fatal)
    }

    /// Records an input that could not be read (a file that does not exist, a permission error):
    /// a fatal input problem.
    pub fn add_unreadable(&mut self, source: &str, message: impl Into<String>) {
        self.problems.push(InputProblem {
            source: normalize_path(source),
            message: message.into(),
            fatal: true,
            ..InputProblem::default()
        });
    }

    /// Adds one input given as bytes (a file's content): binary data and empty inputs become fatal
    /// input problems; text goes to [`Inputs::add`]. Returns the detected format, or `None` when
    /// the input was not used.
    pub fn add_bytes(&mut self, source: &str, bytes: &[u8]) -> Option<InputFormat> {
        // UTF-16 text (Windows PowerShell's `>`) is text: read as UTF-8
        let utf8 = cube_model::io::utf16_to_utf8(bytes).map(|(b, _)| b);
        let bytes = utf8.as_deref().unwrap_or(bytes);
        if looks_binary(bytes) {
            self.problems.push(InputProblem {
                source: normalize_path(source),
                message: format!(
                    "binary data ({} bytes), not a snapshot, describe text or log",
                    bytes.len()
                ),
                fatal: true,
                ..InputProblem::default()
            });
            return None;
        }
        let text = String::from_utf8_lossy(bytes);
        let before = self.problems.iter().filter(|p| p.fatal).count();
        let format = self.add(source, &text);
        (self.problems.iter().filter(|p| p.fatal).count() == before).then_some(format)
    }

    /// Adds one large input read from `reader` without holding it whole (issue 12): a JSON
    /// `List` (`kubectl get ... -o json`) goes through [`ClusterSnapshot::add_json_reader`]
    /// (about 8 MB of its text in memory at a time) and its objects are located by the lines the
    /// loader counted. `source` is the path label (normalised as [`Inputs::add`] does), `len`
    /// the input's size in bytes (its file's length).
    ///
    /// Returns `Ok(Some(format))` when the input was read, with the same snapshot, problems and
    /// locations as [`Inputs::add_bytes`] on the same bytes. Returns `Ok(None)`, having added
    /// nothing, when the streaming reader does not take the input (see
    /// [`ClusterSnapshot::add_json_reader`]) or an input of the same size was read before (the
    /// same content is read once, which only the whole text tells): read it whole and give it to
    /// [`Inputs::add_bytes`]. Content too large for the secret scan or the kubeconfig check of
    /// the programs (over 64 MiB) is what this is for.
    ///
    /// # Errors
    /// An error of `reader` (nothing added).
    pub fn add_json_reader(
        &mut self,
        source: &str,
        reader: &mut dyn std::io::Read,
        len: u64,
    ) -> std::io::Result<Option<InputFormat>> {
        let source = normalize_path(source);
        let source = source.as_str();
        if self.seen.iter().any(|(_, l, _)| *l as u64 == len) {
            return Ok(None);
        }
        let mut hashing = Hashing {
            inner: reader,
            fingerprint: Fingerprint::default(),
        };
        let (events_before, nodes_before) = (self.snapshot.events.len(), self.snapshot.nodes.len());
        let lengths_before = crate::locate::list_lengths(&self.snapshot);
        let outcome = self.snapshot.add_json_reader(source, &mut hashing)?;
        let cube_model::StreamOutcome::Loaded(LoadOutcome::Loaded { format, .. }) = outcome else {
            return Ok(None);
        };
        let read = usize::try_from(hashing.fingerprint.len).unwrap_or(usize::MAX);
        self.seen
            .push((hashing.fingerprint.finish(), read, source.to_owned()));
        self.locations.record_source(source);
        self.stamp_source(source, events_before, nodes_before);
        self.locations
            .record_new_objects_read(source, &self.snapshot, &lengths_before);
        Ok(Some(format))
    }

    /// Adds one input named `source` (a path label, normalised: `a/./b` is `a/b`); returns the
    /// detected format ([`InputFormat::Paste`] for an input of several sections).
    ///
    /// Text that is not snapshot input becomes a log text. YAML/JSON inputs whose documents were
    /// partly plain text (a manifest pasted together with a scheduler message after `---`) keep
    /// those documents as log text too. Text that is JSON or YAML but does not parse is never
    /// handed to the log classifiers: it becomes an input problem (the loader's own message),
    /// fatal when no object was read from it. An empty input is a fatal problem; text with
    /// neither objects nor a known log message is a (non-fatal) problem. The same content given
    /// twice (under any name) is read once. A terminal or issue paste is read section by
    /// section (see the module documentation).
    pub fn add(&mut self, source: &str, text: &str) -> InputFormat {
        let format = self.add_one(source, text);
        self.link_listings();
        format
    }

    /// Links the GPU listings of node-less inputs to the nodes read so far (the prompt's host,
    /// the file name, or the only node; see [`cube_model::smi::link_target`]); a listing that
    /// cannot be placed is an input note saying why.
    fn link_listings(&mut self) {
        self.listing_notes.clear();
        for (source, listing) in &self.gpu_listings {
            match cube_model::smi::link_target(listing, source, &self.snapshot.nodes) {
                cube_model::smi::LinkTarget::Node(i, why) => {
                    self.snapshot.nodes[i].metadata.annotations.insert(
                        listing.tool.annotation().to_owned(),
                        format!("{} (from {source}, linked by {why})", listing.summary()),
                    );
                }
                cube_model::smi::LinkTarget::Ambiguous(why) => {
                    self.listing_notes.push(problem(source, why, false));
                }
                _ => {}
            }
        }
    }

    fn add_one(&mut self, source: &str, text: &str) -> InputFormat {
        let source = normalize_path(source);
        let source = source.as_str();
        if text.trim_start_matches('\u{feff}').trim().is_empty() {
            self.problems
                .push(problem(source, "empty input".into(), true));
            return InputFormat::Text;
        }
        let fp = fingerprint(text);
        if let Some((_, _, first)) = self
            .seen
            .iter()
            .find(|(h, len, _)| *h == fp && *len == text.len())
        {
            if first != source {
                self.problems.push(problem(
                    source,
                    format!("same content as {first}: read once"),
                    false,
                ));
            }
            return detect_format(text.as_bytes());
        }
        self.seen.push((fp, text.len(), source.to_owned()));
        self.locations.record_source(source);
        // a dump or log HTML-escaped as a whole (`&quot;` for every `"`): read as printed
        let unescaped = paste::html_unescaped(text);
        let text = unescaped.as_deref().unwrap_or(text);
        // `kubectl get` output pasted into an issue as a Markdown table: read as kubectl
        // printed it
        let aligned = paste::markdown_tables(text);
        let text = aligned.as_deref().unwrap_or(text);
        let detected = detect_format(text.as_bytes());
        // text (no JSON/YAML dump): every line cut at the log-line bound before any reader
        // copies it (a 300 MB single-line paste is read as its first 64 KiB, not cleaned,
        // split and classified whole; fresh-user report 2 G31), said once as a limit hit
        let cut_text;
        let text = if matches!(detected, InputFormat::Json | InputFormat::Yaml) {
            text
        } else {
            let (cut, cuts) = cut_long_lines(text, self.max_log_line());
            self.said_cut_lines(source, &cuts);
            cut_text = cut;
            cut_text.as_ref()
        };
        // a dump with another command's output pasted after it (a blank line or `---` between
        // them): read section by section like any paste
        if matches!(detected, InputFormat::Json | InputFormat::Yaml)
            && !paste::holds_other_output(text)
        {
            // a dump: read as given, parsed once
            let routed = self.add_structured(source, text, source, 1);
            if let Routed::Text(format) = routed {
                let lines: Vec<PasteLine> = text
                    .lines()
                    .enumerate()
                    .map(|(i, l)| paste_line(i + 1, l))
                    .collect();
                self.push_log(source, &lines, false, false);
                return format;
            }
            return routed.format();
        }
        self.add_paste(source, text)
    }

    /// Reads a paste section by section (see the module documentation).
    ///
    /// JSON/YAML printed by an HTTP client (`curl`, `wget`, HTTPie) is read as text: it is the
    /// answer of one endpoint, never a listing of the cluster.
    fn add_paste(&mut self, source: &str, text: &str) -> InputFormat {
        let nodes_at_start = self.snapshot.nodes.len();
        // a listing is looked for in what the terminal showed: a quoted (`> `), coloured or
        // CRLF copy of `nvidia-smi` is the same table
        let shown: Option<String> = cube_model::smi::might_list_gpus(text).then(|| {
            text.split('\n')
                .map(paste::terminal_text)
                .collect::<Vec<_>>()
                .join("\n")
        });
        let listings = match &shown {
            Some(shown) => cube_model::smi::find_tables(shown),
            None => Vec::new(),
        };
        let sections = paste::split(text);
        let multi = sections.len() > 1;
        let mut object_text = String::new();
        let mut object_format = None;
        let mut log_lines: Vec<PasteLine> = Vec::new();
        let mut objects = 0usize;
        let mut quiet = false;
        let mut formats = Vec::new();
        for section in &sections {
            let body = section.text();
            let mut format = detect_format(body.as_bytes());
            // an accelerator self-check (deviceQuery's indented `Key: value` properties) is the
            // tool's output, whatever shape its lines resemble (cube_model::hostfacts)
            if format != InputFormat::Text && cube_model::hostfacts::self_check(&body) {
                format = InputFormat::Text;
            }
            // `kubectl get nodes -o custom-columns=...` / `-o jsonpath=...`: output whose
            // fields only the command names (cube_model::describe reads it through the column
            // specification or the template)
            if matches!(format, InputFormat::Text | InputFormat::Json)
                && section.command.as_ref().is_some_and(|c| {
                    (c.text.contains("custom-columns=") || c.text.contains("jsonpath="))
                        && !http_client(&c.text)
                        && c.text
                            .split_whitespace()
                            .any(|w| matches!(w, "node" | "nodes" | "no") || w.starts_with("node/"))
                })
            {
                format = InputFormat::DescribeNode;
            }
            formats.push(format);
            match format {
                // an HTTP client's answer (`curl -k https://.../cacerts` printing a `Status`
                // 401 body) is what one endpoint said, not a dump of the cluster: read as text
                InputFormat::Json | InputFormat::Yaml
                    if section
                        .command
                        .as_ref()
                        .is_some_and(|c| http_client(&c.text)) =>
                {
                    push_section_lines(&mut log_lines, section)
                }
                InputFormat::Json | InputFormat::Yaml => {
                    let label = if multi {
                        format!("{source}:{}", section.first_line())
                    } else {
                        source.to_owned()
                    };
                    match self.add_structured(&label, &body, source, section.first_line()) {
                        Routed::Objects { objects: n, .. } => objects += n,
                        Routed::Quiet(_) => quiet = true,
                        Routed::Fatal(_) => {}
                        Routed::Text(f) => {
                            let last = section.lines.last().map_or(0, |l| l.number);
                            let what = match &section.command {
                                Some(c) => format!("the output of `{}`", c.text.trim()),
                                None => format!("a {f:?} section"),
                            };
                            self.unread_sections
                                .push((section.first_line(), last, what));
                            push_section_lines(&mut log_lines, section)
                        }
                    }
                }
                InputFormat::Text => push_section_lines(&mut log_lines, section),
                other => {
                    object_format.get_or_insert(other);
                    // a scheduler message pasted as prose next to tables or describe output
                    // (the describe and table readers skip free text): read as a log line
                    let taken_from = log_lines.len();
                    push_bare_scheduler_lines(&mut log_lines, section);
                    // blocks of free text beside the table (a log or a command pasted below
                    // it with no prompt or fence between them) are read as a log too
                    push_free_text_blocks(&mut log_lines, section);
                    // `kubectl cluster-info` output pasted after a table without its own prompt
                    // is what kubectl connects to: read as text too
                    log_lines.extend(
                        section
                            .lines
                            .iter()
                            .filter(|l| cluster_info_line(&l.text))
                            .cloned(),
                    );
                    // an error line printed next to the output (stderr interleaved with a
                    // table, a describe excerpt's neighbour) is no row or field of it: read as
                    // a log line, never dropped (issue 9 item 3)
                    push_stray_error_lines(&mut log_lines, taken_from, section);
                    // the command stays in front of its output: the reader takes the namespace
                    // it asked for (`kubectl get pods -n team-a`) from it
                    if let Some(c) = &section.command {
                        object_text.push_str("$ ");
                        object_text.push_str(&c.text);
                        object_text.push('\n');
                    }
                    object_text.push_str(&body);
                    object_text.push('\n');
                }
            }
        }
        if !object_text.is_empty() {
            let (events_before, nodes_before) =
                (self.snapshot.events.len(), self.snapshot.nodes.len());
            let pods_before = self.snapshot.pods.len();
            let lengths_before = crate::locate::list_lengths(&self.snapshot);
            // the sections were detected one by one: together (headerless `get pods` rows and
            // a `describe | tail` Events excerpt) they may look like no one format, and must
            // still be read, never dropped without a word
            let joined = detect_format(object_text.as_bytes());
            let format = match (joined, object_format) {
                (InputFormat::Text, Some(f)) => {
                    Some(InputFormat::Paste).filter(|_| f != InputFormat::Text)
                }
                _ => None,
            };
            let outcome = self
                .snapshot
                .add_bytes_as(source, object_text.as_bytes(), format);
            self.stamp_pods(source, pods_before, usize::MAX, false);
            // `nvidia-smi` / `rocm-smi` output is a text section of the same paste: it tells the
            // GPUs of the node described with it
            if multi && let Some(nodes) = self.snapshot.nodes.get_mut(nodes_before..) {
                for note in cube_model::smi::attach(shown.as_deref().unwrap_or(text), nodes) {
                    self.problems.push(problem(source, note, false));
                }
            }
            self.stamp_source(source, events_before, nodes_before);
            // lines of the user's file: the objects are looked up in the paste as given
            self.locations
                .record_new_objects(source, text, &self.snapshot, &lengths_before);
            if let LoadOutcome::Loaded { objects: n, .. } = outcome {
                objects += n;
            }
            add_describe_volumes(&mut self.snapshot, &object_text);
        }
        // `kubectl get nodes -o custom-columns=...` (or `-o jsonpath=` rows) output whose command
        // is shown apart from it (no prompt right above: a fence of commands, prose, a quote)
        if text.contains("custom-columns=") || text.contains("jsonpath=") {
            // read in what the terminal showed (a `> ` quote, colour, CRLF removed)
            let shown: String = text
                .split('\n')
                .map(paste::terminal_text)
                .collect::<Vec<_>>()
                .join("\n");
            let (nodes, problems) = cube_model::describe::query_nodes(&shown);
            for n in nodes {
                if !self.snapshot.nodes[nodes_at_start..]
                    .iter()
                    .any(|m| m.metadata.name == n.metadata.name)
                {
                    self.snapshot.nodes.push(n);
                    objects += 1;
                }
            }
            self.snapshot
                .problems
                .extend(problems.into_iter().map(|mut p| {
                    p.file = source.to_owned();
                    p
                }));
        }
        // a GPU listing of an input without nodes: linked to the other inputs' nodes
        // an nvidia-smi / rocm-smi listing is the input read; `lspci` rows are host facts whose
        // other lines are judged as such (a `(rev ff)` row is a failure)
        let listed = listings
            .iter()
            .any(|l| !matches!(l.tool, cube_model::smi::SmiTool::Lspci(_)));
        if self.snapshot.nodes.len() == nodes_at_start {
            self.gpu_listings
                .extend(listings.into_iter().map(|l| (source.to_owned(), l)));
        }
        if !log_lines.is_empty() {
            self.push_log(source, &log_lines, objects > 0 || quiet || listed, true);
        }
        match (multi, formats.as_slice()) {
            (false, [one]) => *one,
            (_, []) => InputFormat::Text,
            _ => InputFormat::Paste,
        }
    }

    /// Hands one JSON/YAML text to the loader; `source` labels it in problems, `file` and
    /// `first_line` say where it is for locations (a section of a paste starts further down).
    fn add_structured(
        &mut self,
        source: &str,
        text: &str,
        file: &str,
        first_line: usize,
    ) -> Routed {
        let problems_before = self.snapshot.problems.len();
        let (events_before, nodes_before) = (self.snapshot.events.len(), self.snapshot.nodes.len());
        let (pods_before, claims_before) = (
            self.snapshot.pods.len(),
            self.snapshot.persistent_volume_claims.len(),
        );
        let lengths_before = crate::locate::list_lengths(&self.snapshot);
        let statuses_before = self.snapshot.api_statuses.len();
        let unknown_before: usize = self.snapshot.unknown_kinds.values().sum();
        let outcome = self.snapshot.add_bytes(source, text.as_bytes());
        self.stamp_source(source, events_before, nodes_before);
        self.stamp_pods(source, pods_before, claims_before, true);
        // API Status bodies (the whole input, a document, List items): their messages are
        // what the API server said, read as log lines at the line each message is on
        let statuses = self.snapshot.api_statuses.len() - statuses_before;
        if statuses > 0 {
            let (lines, origins) = status_lines(
                text,
                first_line,
                &self.snapshot.api_statuses[statuses_before..],
            );
            // cut at the log-line bound like any log text
            let log = self.bounded_log(source, &lines).with_origins(origins);
            self.logs.push(log);
        }
        let only_statuses =
            statuses > 0 && self.snapshot.unknown_kinds.values().sum::<usize>() == unknown_before;
        self.locations.record_new_objects_at(
            file,
            text,
            first_line,
            &self.snapshot,
            &lengths_before,
        );
        let new_problems = self.snapshot.problems.len() - problems_before;
        match outcome {
            LoadOutcome::NotSnapshot { format } => {
                // a cloud CLI's node pools (`az aks list`, `aws eks describe-nodegroup`,
                // `eksctl get nodegroup -o json`, `gcloud container node-pools list
                // --format=json`): the GPU pools the cluster should have
                // JSON (`-o json`, `--format=json`) or YAML (`-o yaml`, gcloud's default for
                // `describe`), every document, within the snapshot's alias budget
                let pools: Vec<cube_model::cloudpool::CloudPool> = match format {
                    InputFormat::Json => serde_json::from_str::<serde_json::Value>(text)
                        .map(|v| cube_model::cloudpool::read(&v, source))
                        .unwrap_or_default(),
                    InputFormat::Yaml => cube_model::yaml::from_multiple::<serde_json::Value>(
                        text,
                        self.snapshot.limits(),
                        serde_saphyr::Options::default(),
                    )
                    .map(|docs| {
                        docs.iter()
                            .flat_map(|v| cube_model::cloudpool::read(v, source))
                            .collect()
                    })
                    .unwrap_or_default(),
                    _ => Vec::new(),
                };
                if pools.is_empty() {
                    return Routed::Text(format);
                }
                self.problems.push(problem(
                    source,
                    format!(
                        "read as a cloud CLI's node pools ({}): GPU pool(s) {}",
                        pools[0].cli,
                        cube_model::cloudpool::list(&pools.iter().collect::<Vec<_>>())
                    ),
                    false,
                ));
                self.snapshot.cloud_pools.extend(pools);
                Routed::Quiet(format)
            }
            LoadOutcome::Loaded {
                format, objects, ..
            } => {
                if objects == 0 && new_problems > 0 {
                    // broken JSON/YAML: never a log text; the loader said why
                    self.problems.push(problem(
                        source,
                        format!(
                            "nothing could be read from this input ({new_problems} problem(s) listed)"
                        ),
                        true,
                    ));
                    return Routed::Fatal(format);
                }
                // a kind the snapshot does not keep next to kept ones: the device plugin's
                // sharing ConfigMap, a Volcano Queue or a Kueue ClusterQueue, read as text
                let sharing_config = (format == InputFormat::Yaml
                    && text.contains("kind: ConfigMap")
                    && text.contains("sharing:"))
                    || (text.contains("scheduling.volcano.sh") && text.contains("Queue"))
                    || (text.contains("ClusterQueue") && text.contains("resourceGroups"));
                if objects == 0 && only_statuses {
                    // API Status bodies only: read above, message by message
                    return Routed::Quiet(format);
                }
                if objects == 0 || sharing_config {
                    // e.g. a kind the snapshot does not keep: still text evidence
                    let log = self.bounded_log(source, text);
                    self.logs.push(log);
                    if objects == 0 {
                        return Routed::Quiet(format);
                    }
                } else if format == InputFormat::Yaml && text.contains("\n---") {
                    for (i, part) in text.split("\n---").enumerate() {
                        let body = part
                            .lines()
                            .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
                            .count();
                        if body > 0
                            && !part
                                .lines()
                                .any(|l| l.starts_with("kind:") || l.starts_with("apiVersion:"))
                        {
                            let log = self.bounded_log(&format!("{source}#{i}"), part);
                            self.logs.push(log);
                        }
                    }
                }
                Routed::Objects { format, objects }
            }
            _ => {
                self.problems
                    .push(problem(source, "empty input".into(), true));
                Routed::Fatal(InputFormat::Text)
            }
        }
    }

    /// Marks the input each new pending pod came from ([`SOURCE_ANNOTATION`]: a scheduler
    /// message of the same input that names no pod is about it when it is the input's only
    /// pending pod); only pods without a node are marked, so a dump of many bound pods costs
    /// nothing. `manifests`: the input is JSON/YAML, whose pods and claims without
    /// `metadata.namespace` are manifests that `kubectl apply -f` creates in the context's
    /// namespace, `default` unless one is set; they are read in `default` (a `kubectl get`
    /// dump always names the namespace). Claims from `claims_before` on are read the same way.
    fn stamp_pods(
        &mut self,
        source: &str,
        pods_before: usize,
        claims_before: usize,
        manifests: bool,
    ) {
        for p in self.snapshot.pods.iter_mut().skip(pods_before) {
            if manifests && p.metadata.namespace.is_empty() {
                p.metadata.namespace = "default".to_owned();
            }
            if p.spec.node_name.is_empty()
                && !p.metadata.annotations.contains_key(SOURCE_ANNOTATION)
            {
                p.metadata
                    .annotations
                    .insert(SOURCE_ANNOTATION.to_owned(), source.to_owned());
            }
        }
        if manifests {
            for c in self
                .snapshot
                .persistent_volume_claims
                .iter_mut()
                .skip(claims_before)
                .filter(|c| c.metadata.namespace.is_empty())
            {
                c.metadata.namespace = "default".to_owned();
            }
        }
    }

    /// Marks where new events came from ([`SOURCE_ANNOTATION`], used in evidence and as the
    /// subject of events about no named object) and names nameless nodes (a `describe node`
    /// excerpt without its `Name:` line) `unnamed node (from <source>)`, and nameless pods (a
    /// container-state excerpt of `describe pod`) `unnamed pod (from <source>)`.
    fn stamp_source(&mut self, source: &str, events_before: usize, nodes_before: usize) {
        for e in self.snapshot.events.iter_mut().skip(events_before) {
            if !e.metadata.annotations.contains_key(SOURCE_ANNOTATION) {
                e.metadata
                    .annotations
                    .insert(SOURCE_ANNOTATION.to_owned(), source.to_owned());
            }
        }
        for n in self.snapshot.nodes.iter_mut().skip(nodes_before) {
            if n.metadata.name.trim().is_empty() {
                n.metadata.name = format!("unnamed node (from {source})");
            }
        }
        // a container-state excerpt of `describe pod` without its `Name:` line (earlier
        // inputs' pods were named when they were read)
        for p in self.snapshot.pods.iter_mut() {
            if p.metadata.name.trim().is_empty() {
                p.metadata.name = format!("unnamed pod (from {source})");
            }
        }
    }

    /// The log-line bound of the policy (`Limits::max_log_line_bytes`, 64 KiB by default).
    fn max_log_line(&self) -> usize {
        usize::try_from(self.snapshot.limits().max_log_line_bytes)
            .unwrap_or(usize::MAX)
            .max(1)
    }

    /// Lines cut at the log-line bound (`(line number, length)`, in order): one input problem
    /// naming how to raise the bound, and a limit hit (the snapshot-incomplete finding).
    fn said_cut_lines(&mut self, source: &str, cut: &[(usize, usize)]) {
        let Some(&(line, len)) = cut.first() else {
            return;
        };
        let max_line = self.max_log_line();
        let longest = cut.iter().map(|&(_, len)| len).max().unwrap_or(len);
        let hit = self.snapshot.limits().exceeded(
            cube_model::limits::Limit::LogLineBytes,
            format!("{source} line {line}"),
            Some(longest as u64),
        );
        self.problems.push(InputProblem {
            source: source.to_owned(),
            message: format!(
                "{} log line(s) longer than {max_line} bytes (line {line}: {len} bytes): only the first {max_line} bytes of each are read as a log line; {}",
                cut.len(),
                hit.limit.how_to_raise()
            ),
            fatal: false,
            ..InputProblem::default()
        });
        self.snapshot.limits_hit.push(hit);
    }

    /// How many of `lines` more log lines may be read (`Limits::max_log_lines`, all inputs
    /// together): the lines past the budget are counted, not read, and said once per input as an
    /// input problem and a limit hit (the snapshot-incomplete finding).
    fn take_log_lines(&mut self, source: &str, lines: usize) -> usize {
        let max = self.snapshot.limits().max_log_lines;
        let left = max.saturating_sub(self.log_lines);
        let keep = usize::try_from(left).unwrap_or(usize::MAX).min(lines);
        self.log_lines += keep as u64;
        if keep < lines {
            let hit = self.snapshot.limits().exceeded(
                cube_model::limits::Limit::LogLines,
                source.to_owned(),
                Some(self.log_lines + (lines - keep) as u64),
            );
            self.problems.push(InputProblem {
                source: source.to_owned(),
                message: format!(
                    "{} log line(s) not read: the classifiers read at most {max} log lines of all inputs together ({keep} of this input's {lines} read); {}",
                    lines - keep,
                    hit.limit.how_to_raise()
                ),
                fatal: false,
                ..InputProblem::default()
            });
            self.snapshot.limits_hit.push(hit);
        }
        keep
    }

    /// A text kept whole as a log text (a Status body, a YAML document of prose), every line cut
    /// at the log-line bound like [`Inputs::push_log`]'s, and the text cut at the log-lines
    /// budget ([`Inputs::take_log_lines`]).
    fn bounded_log(&mut self, source: &str, text: &str) -> LogText {
        let lines = text.split('\n').count();
        let keep = self.take_log_lines(source, lines);
        let text = if keep < lines {
            let end = text
                .match_indices('\n')
                .nth(keep.saturating_sub(1))
                .map_or(text.len(), |(i, _)| i);
            if keep == 0 { "" } else { &text[..end] }
        } else {
            text
        };
        let unfolded = unfold_yaml_plain_scalars(text);
        let text = unfolded.as_ref();
        let max_line = self.max_log_line();
        if !text.split('\n').any(|l| l.len() > max_line) {
            return LogText::new(source, text);
        }
        let mut out = String::with_capacity(text.len().min(1 << 20));
        let mut cut = Vec::new();
        for (i, l) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            if l.len() > max_line {
                let mut end = max_line;
                while !l.is_char_boundary(end) {
                    end -= 1;
                }
                out.push_str(&l[..end]);
                cut.push((i + 1, l.len()));
            } else {
                out.push_str(l);
            }
        }
        self.said_cut_lines(source, &cut);
        LogText::new(source, out)
    }

    /// Clean lines that are not snapshot input: one log text (line numbers of the user's file
    /// kept). When the classifiers recognise nothing in it and `quiet` is false (the input gave
    /// no objects either), the input is reported as not recognised.
    fn push_log(&mut self, source: &str, lines: &[PasteLine], quiet: bool, cleaned: bool) {
        let keep = self.take_log_lines(source, lines.len());
        let lines = &lines[..keep];
        let max_line = self.max_log_line();
        let mut text =
            String::with_capacity(lines.iter().map(|l| l.text.len().min(max_line) + 1).sum());
        let mut origins = Vec::with_capacity(lines.len());
        let mut cut: Vec<(usize, usize)> = Vec::new();
        for l in lines {
            if l.text.len() > max_line {
                let mut end = max_line;
                while !l.text.is_char_boundary(end) {
                    end -= 1;
                }
                text.push_str(&l.text[..end]);
                cut.push((l.number, l.text.len()));
            } else {
                text.push_str(&l.text);
            }
            text.push('\n');
            origins.push(LineOrigin {
                line: l.number,
                host: l.host.clone(),
            });
        }
        self.said_cut_lines(source, &cut);
        // a pasted status whose `message:` YAML folded over lines reads as one line
        let text = match unfold_yaml_plain_scalars(&text) {
            std::borrow::Cow::Owned(t) => t,
            std::borrow::Cow::Borrowed(_) => text,
        };
        let log = LogText::new(source, text).with_origins(
            if cleaned || lines.iter().any(|l| !l.host.is_empty()) {
                origins
            } else {
                Vec::new()
            },
        );
        let mut log = log;
        // lines that only look like errors are not a reading of the input, nor is a wrapper
        // whose inner error is unknown; a context line understood on its own is, and so is a
        // message of the healthy catalog (catalog::healthy)
        let signalled = !log
            .signals_shared()
            .iter()
            .all(|s| s.kind == crate::classify::SignalKind::Unrecognised)
            // a failed kubeadm run an Ansible playbook reports (rules::kubeadm_phase reads
            // its command, exit code and last output)
            || log
                .text
                .lines()
                .any(crate::rules::kubeadm_phase::is_ansible_kubeadm_failure);
        let (complete, healthy) = if signalled {
            (true, HealthyLines::default())
        } else {
            complete_lines(&log.text)
        };
        let read_nothing = !signalled && !complete;
        // only command lines the CLI refused (usage errors, `cli-usage-error`): read, but they
        // say nothing about the cluster, so an input of nothing else is no all-clear
        let usage = crate::rules::log_catalog::is_cli_usage;
        let only_usage = signalled
            && !crate::rules::log_catalog::container_log_text(&log.text)
            && log.signals().iter().any(usage)
            && log
                .signals()
                .iter()
                .all(|s| s.kind == crate::classify::SignalKind::Unrecognised || usage(s));
        if !quiet && only_usage {
            self.problems.push(InputProblem {
                source: source.to_owned(),
                message: "read: only command lines the CLI itself refused (usage errors); nothing in it tells about the cluster, so the picture is incomplete (exit 3)".into(),
                fatal: false,
                ..InputProblem::default()
            });
            log = log.with_unrecognised(true);
        }
        // tables of kinds no analysis reads (`get svc`, `top nodes`, `helm list`): named, never
        // passed over without a word; their lines that a classifier read are not among them
        let numbered: Vec<(usize, &str)> =
            lines.iter().map(|l| (l.number, l.text.as_str())).collect();
        let unread = crate::unread::find(&numbered);
        let sections = std::mem::take(&mut self.unread_sections);
        if quiet {
            let read_lines: std::collections::BTreeSet<usize> =
                log.signals().iter().map(|s| s.line).collect();
            for (first, last, what) in sections {
                if read_lines.range(first..=last.max(first)).next().is_none() {
                    self.problems.push(InputProblem {
                        source: source.to_owned(),
                        message: format!(
                            "not read: {what} (lines {first}-{last}) is JSON/YAML without Kubernetes objects, which no analysis reads"
                        ),
                        fatal: false,
                        ..InputProblem::default()
                    });
                }
            }
        }
        if quiet && let Some(found) = &unread {
            let read_lines: std::collections::BTreeSet<usize> =
                log.signals_shared().iter().map(|s| s.line).collect();
            let tables: Vec<crate::unread::UnreadTable> = found
                .tables
                .iter()
                .filter(|t| read_lines.range(t.lines.0..=t.lines.1).next().is_none())
                .cloned()
                .collect();
            if !tables.is_empty() {
                let found = crate::unread::UnreadTables {
                    tables,
                    covers_all: false,
                };
                self.problems.push(InputProblem {
                    source: source.to_owned(),
                    message: unread_tables_note(&found),
                    fatal: false,
                    ..InputProblem::default()
                });
            }
        }
        if !quiet && !signalled && complete && !healthy.entries.is_empty() {
            self.problems.push(InputProblem {
                source: source.to_owned(),
                message: healthy.note(),
                fatal: false,
                ..InputProblem::default()
            });
        }
        if !quiet && read_nothing {
            // each line as far as the log-line bound: the rest of a longer line is not read
            let texts: Vec<&str> = lines.iter().map(|l| cut_at(&l.text, max_line)).collect();
            let host = cube_model::hostfacts::read(&texts);
            match known_unused_shape(&texts) {
                Some(what) => self.problems.push(InputProblem {
                    source: source.to_owned(),
                    message: format!(
                        "{what}: recognised, but nothing in it is read by the analyses"
                    ),
                    fatal: false,
                    ..InputProblem::default()
                }),
                // every line a host fact (PCI listing, uname, versions, an issue template's
                // environment block) and no failure signal: read, nothing to diagnose
                None if healthy_shape(lines).is_some() => self.problems.push(InputProblem {
                    source: source.to_owned(),
                    message: format!(
                        "read: {}; nothing to diagnose",
                        healthy_shape(lines).unwrap_or_default()
                    ),
                    fatal: false,
                    ..InputProblem::default()
                }),
                None if unread.as_ref().is_some_and(|u| u.covers_all) => {
                    let found = unread.as_ref().map(unread_tables_note).unwrap_or_default();
                    let failing = unread.as_ref().is_some_and(|u| !u.failing().is_empty());
                    self.problems.push(InputProblem {
                        source: source.to_owned(),
                        message: if failing {
                            format!("{found}; the picture is incomplete (exit 3)")
                        } else {
                            found
                        },
                        fatal: false,
                        ..InputProblem::default()
                    });
                    // a failing status no analysis reads is never an all-clear
                    if failing {
                        log = log.with_unrecognised(true);
                    }
                }
                None if host.all_clear() => self.problems.push(InputProblem {
                    source: source.to_owned(),
                    message: format!(
                        "read as host facts: nothing to diagnose ({})",
                        host.summary()
                    ),
                    fatal: false,
                    ..InputProblem::default()
                }),
                None => {
                    self.problems.push(InputProblem {
                        source: source.to_owned(),
                        message: "not recognised: no Kubernetes objects and no known log or error message; nothing was read from it, so the picture is incomplete (exit 3)"
                            .into(),
                        fatal: false,
                        ..InputProblem::default()
                    });
                    log = log.with_unrecognised(true);
                }
            }
        }
        self.logs.push(log);
    }
}

/// The lines of a log text the healthy catalog recognised ([`crate::catalog::HEALTHY`]), and
/// what the rest of the text is.
#[derive(Debug)]
struct HealthyLines {
    /// Distinct healthy entries, in the order first seen, with the first line (1-based).
    entries: Vec<(&'static crate::catalog::Entry, usize)>,
    /// Lines a healthy entry matched.
    lines: usize,
    /// Non-blank lines no catalog entry (healthy or not) matched and that do not look like an
    /// error (those are reported by `log-line-unrecognised`).
    unknown: usize,
    /// The first of those lines: its number and text.
    first_unknown: Option<(usize, String)>,
    /// False when only the first [`NOTE_SCAN_LINES`] lines were counted.
    counted_all: bool,
}

/// Lines of a log text counted for the healthy note (the rest of a longer text is still read
/// by the classifiers; only the note's counts stop there).
const NOTE_SCAN_LINES: usize = 20_000;

impl Default for HealthyLines {
    fn default() -> Self {
        HealthyLines {
            entries: Vec::new(),
            lines: 0,
            unknown: 0,
            first_unknown: None,
            counted_all: true,
        }
    }
}

impl HealthyLines {
    /// The input note: the conclusion "known, healthy", which programs said so, and the lines
    /// that are in no catalog (never hidden: counted, the first one quoted).
    fn note(&self) -> String {
        let mut families: Vec<&str> = Vec::new();
        for (e, _) in &self.entries {
            if !families.contains(&e.family.as_str()) {
                families.push(e.family.as_str());
            }
        }
        let examples: Vec<String> = self
            .entries
            .iter()
            .take(3)
            .map(|(e, line)| format!("line {line}: {} `{}`", e.id, e.template))
            .collect();
        let mut note = format!(
            "read: known healthy output of {} ({} line(s) of the healthy catalog{}, e.g. {}); no finding drawn from it",
            families.join(", "),
            self.lines,
            if self.counted_all {
                ""
            } else {
                " in the first 20000 lines"
            },
            examples.join("; ")
        );
        if let Some((line, text)) = &self.first_unknown {
            note.push_str(&format!(
                "; {} other line(s) match no catalog message and none looks like an error (first: line {line} `{}`)",
                self.unknown,
                crate::finding::redact(cut_at(text, 160))
            ));
        }
        note
    }
}

/// Whether any line of `text` is a catalog message understood on its own
/// ([`crate::catalog::Entry::complete`]), and what the healthy catalog recognised in it.
fn complete_lines(text: &str) -> (bool, HealthyLines) {
    let mut complete = false;
    let mut h = HealthyLines::default();
    for (i, l) in text.lines().enumerate() {
        // the note counts the head of a long text; whether anything is understood is known
        // as soon as one line is (bounded work on a million-line journal)
        if i >= NOTE_SCAN_LINES && complete {
            h.counted_all = false;
            break;
        }
        let ms = crate::catalog::match_line(l);
        complete |= ms.iter().any(|m| m.entry.complete);
        let mut healthy = false;
        for m in ms.iter().filter(|m| m.entry.healthy) {
            healthy = true;
            if !h.entries.iter().any(|(e, _)| e.id == m.entry.id) {
                h.entries.push((m.entry, i + 1));
            }
        }
        if healthy {
            h.lines += 1;
        } else if ms.is_empty()
            && !l.trim().is_empty()
            && !crate::catalog::looks_like_error(l)
            && !crate::catalog::marked_error(l)
        {
            h.unknown += 1;
            if h.first_unknown.is_none() {
                h.first_unknown = Some((i + 1, l.trim().to_owned()));
            }
        }
    }
    (complete, h)
}

/// `text` with every line longer than `max` bytes cut to its first `max` bytes (at a character
/// boundary; line count and numbers kept), and the cut lines as `(line number, length)`; the
/// text itself when no line is that long. A line that starts a JSON value (`{"`, `[{`, `["`:
/// a one-line dump inside a paste, `kubectl get -o json | jq -c`) is kept whole for the JSON
/// reader and its own limits. One pass, no copy when nothing is cut.
fn cut_long_lines(text: &str, max: usize) -> (std::borrow::Cow<'_, str>, Vec<(usize, usize)>) {
    let json_start = |l: &str| {
        let t = l.trim_start();
        t.starts_with("{\"") || t.starts_with("{ \"") || t.starts_with("[{") || t.starts_with("[\"")
    };
    let long = |l: &str| l.len() > max && !json_start(l);
    if !text.split('\n').any(long) {
        return (std::borrow::Cow::Borrowed(text), Vec::new());
    }
    let mut out = String::with_capacity(text.len().min(64 << 20));
    let mut cuts = Vec::new();
    for (i, l) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if long(l) {
            out.push_str(cut_at(l, max));
            cuts.push((i + 1, l.len()));
        } else {
            out.push_str(l);
        }
    }
    (std::borrow::Cow::Owned(out), cuts)
}

/// Output that says, as a whole, that something works, and whose every line the shape accounts
/// for (so an input holding only it was read and is not an incomplete picture):
///
/// - member-cluster tables of a multi-cluster hub (`kubectl get clusters` of Karmada,
///   `managedclusters`, `kubefedclusters`: `classify::multicluster`) in which every member is
///   Ready; a member not Ready is a finding of its own and never this;
/// - `minikube start` output that ends with minikube's success line (`Done! kubectl is now
///   configured to use "<profile>" cluster and "<ns>" namespace by default`, kubernetes/minikube
///   pkg/minikube/node/start.go / cmd/minikube/cmd/start.go `showKubectlInfo`), each line one
///   of minikube's styled messages (pkg/minikube/style/style.go: an emoji prefix such as `😄`,
///   `✨`, `🔥`, `🐳`, `🏄`, or the ASCII low-fi prefixes `* `, `! `, `- ` and the `▪`
///   sub-steps), the command itself or a fence; a failure (`Exiting due to <REASON>`, the `❌`
///   / `💣` / `😿` / `💥` / `X ` failure styles, an error word) leaves it unrecognised.
fn healthy_shape(lines: &[PasteLine]) -> Option<String> {
    let text: String = lines
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if let Some((program, names)) = crate::classify::multicluster::all_ready(&text) {
        if program == "Argo CD" {
            return Some(format!(
                "argocd cluster list: {} cluster(s), each connection Successful or not monitored yet (no Application targets it) ({})",
                names.len(),
                names.join(", ")
            ));
        }
        return Some(format!(
            "{program} member-cluster table: {} member(s), every one Ready ({})",
            names.len(),
            names.join(", ")
        ));
    }
    if let Some((program, names)) = crate::classify::join_agent::argocd_all_connected(&text) {
        return Some(format!(
            "{program}: {} cluster(s), every one connected ({})",
            names.len(),
            names.join(", ")
        ));
    }
    minikube_started(lines)
}

/// `minikube start` output that succeeded (see [`healthy_shape`]).
fn minikube_started(lines: &[PasteLine]) -> Option<String> {
    const FAILURE: [&str; 8] = [
        "Exiting due to",
        "❌",
        "💣",
        "😿",
        "💥",
        "🆘",
        "X ",
        "error",
    ];
    let rows: Vec<&str> = lines
        .iter()
        .map(|l| l.text.trim())
        .filter(|t| !t.is_empty() && !t.starts_with("```"))
        .collect();
    if !rows
        .iter()
        .any(|r| r.contains("Done! kubectl is now configured to use"))
    {
        return None;
    }
    let styled = |r: &str| {
        let first = r.chars().next().unwrap_or(' ');
        // an emoji (or other symbol) prefix, minikube's low-fi prefixes, or a sub-step
        (!first.is_ascii() && !first.is_alphanumeric())
            || r.starts_with("* ")
            || r.starts_with("! ")
            || r.starts_with("- ")
            || r.starts_with('▪')
    };
    let command = |r: &str| {
        let r = r.trim_start_matches(['$', '#', '>', ' ']);
        r.starts_with("minikube ") || r.starts_with("sudo minikube ")
    };
    let failed = rows.iter().any(|r| {
        FAILURE
            .iter()
            .any(|f| r.starts_with(f) || (f.len() > 2 && r.contains(f)))
            || r.to_ascii_lowercase().contains("failed")
    });
    if failed || !rows.iter().all(|r| styled(r) || command(r)) {
        return None;
    }
    let version = |prefix: &str| {
        rows.iter().find_map(|r| {
            let at = r.find(prefix)? + prefix.len();
            r[at..].split_whitespace().next().map(str::to_owned)
        })
    };
    let mut facts = Vec::new();
    if let Some(v) = version("minikube v") {
        facts.push(format!("minikube v{v}"));
    }
    if let Some(v) = version("Preparing Kubernetes v") {
        facts.push(format!("Kubernetes v{v}"));
    }
    Some(format!(
        "minikube start output: the cluster started{}",
        if facts.is_empty() {
            String::new()
        } else {
            format!(" ({})", facts.join(", "))
        }
    ))
}

/// `text` up to `max` bytes (cut at a character boundary).
fn cut_at(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The input note for tables no analysis reads ([`crate::unread`]): what they are, and the
/// rows whose status says something failed.
fn unread_tables_note(found: &crate::unread::UnreadTables) -> String {
    let failing = found.failing();
    let mut note = format!(
        "not read: table(s) of kinds no analysis reads: {}",
        found.summary()
    );
    if failing.is_empty() {
        note.push_str("; no row shows a failing status");
    } else {
        note.push_str(&format!(
            "; rows with a failing status, worth reading yourself: {}",
            failing.join(", ")
        ));
    }
    note
}

/// Output whose shape is known but whose facts no analysis reads (so an input holding only it is
/// recognised, not an incomplete picture):
///
/// - `kubectl top nodes|pods` (usage from metrics-server; kubectl `pkg/cmd/top` prints the
///   `NAME CPU(cores) CPU% MEMORY(bytes) MEMORY%` and `NAME CPU(cores) MEMORY(bytes)` headers,
///   `NAMESPACE` first with `-A`); usage is never read as allocatable or requests;
/// - the API server's `/version` answer (`kubectl version -o json`'s `serverVersion`:
///   k8s.io/apimachinery `pkg/version/types.go` Info, `gitVersion`, `major`, `minor`);
/// - access-review answers (`kubectl auth can-i`/`whoami`: SelfSubjectAccessReview,
///   SelfSubjectRulesReview, SubjectAccessReview of `authorization.k8s.io`, SelfSubjectReview and
///   TokenReview of `authentication.k8s.io`), which cube-cluster reads, not the diagnosis.
fn known_unused_shape(lines: &[&str]) -> Option<&'static str> {
    let rows: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .filter(|t| !t.is_empty())
        .collect();
    let has = |needle: &str| rows.iter().any(|r| r.contains(needle));
    if has("\"gitVersion\"") && has("\"major\"") && has("\"minor\"") {
        return Some("an API server /version answer");
    }
    let review_kind = [
        "SelfSubjectAccessReview",
        "SelfSubjectRulesReview",
        "SubjectAccessReview",
        "SelfSubjectReview",
        "TokenReview",
    ]
    .iter()
    .any(|k| has(&format!("\"kind\": \"{k}\"")) || has(&format!("kind: {k}")));
    if review_kind && (has("authorization.k8s.io/") || has("authentication.k8s.io/")) {
        return Some("access-review answers (authorization.k8s.io / authentication.k8s.io)");
    }
    if let Some(what) = kubeadm_token_list(&rows) {
        return Some(what);
    }
    // the header, after at most the command line that printed it
    let at = rows.iter().take(2).position(|r| {
        let cols: Vec<&str> = r.split_whitespace().collect();
        matches!(cols.first(), Some(&"NAME") | Some(&"NAMESPACE"))
            && cols.contains(&"CPU(cores)")
            && cols.contains(&"MEMORY(bytes)")
    })?;
    if at == 1 && !rows[0].contains("top ") {
        return None;
    }
    let width = rows[at].split_whitespace().count();
    // every other line a row of the table: nothing else in the input went unread
    rows[at + 1..]
        .iter()
        .all(|r| r.split_whitespace().count() == width)
        .then_some("kubectl top output (CPU and memory usage)")
}

/// `kubeadm token list` output: the header `TOKEN TTL EXPIRES USAGES DESCRIPTION` (`EXTRA
/// GROUPS` since v1.8; kubernetes/kubernetes cmd/kubeadm/app/cmd/token.go `RunListTokens` and,
/// from v1.22, its `tokenTextPrinter`), after at most the command line, then only rows whose
/// first cell is a bootstrap token (`[a-z0-9]{6}.[a-z0-9]{16}`, cmd/kubeadm/app/apis/bootstraptoken
/// `BootstrapTokenPattern`; the secret part may be masked) or, with `-o wide` / a long
/// description, continuation text. The tokens themselves are not read (a listing of the tokens
/// that exist says nothing failed).
fn kubeadm_token_list(rows: &[&str]) -> Option<&'static str> {
    let at = rows.iter().take(2).position(|r| {
        let cols: Vec<&str> = r.split_whitespace().collect();
        cols.starts_with(&["TOKEN", "TTL", "EXPIRES"])
    })?;
    if at == 1 && !rows[0].contains("token list") {
        return None;
    }
    let token = |cell: &str| {
        cell.split_once('.').is_some_and(|(id, secret)| {
            id.len() == 6
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && !secret.is_empty()
                && secret.len() <= 24
                && !secret.contains(char::is_whitespace)
        })
    };
    let body = &rows[at + 1..];
    (!body.is_empty()
        && body
            .iter()
            .all(|r| r.split_whitespace().next().is_some_and(token)))
    .then_some("kubeadm token list output (the bootstrap tokens that exist)")
}

/// What [`Inputs::add_structured`] did with a JSON/YAML text.
enum Routed {
    /// Objects were read.
    Objects {
        /// The format.
        format: InputFormat,
        /// Objects read.
        objects: usize,
    },
    /// Nothing to keep as objects, but kept as text evidence (a Status body, unknown kinds).
    Quiet(InputFormat),
    /// Not snapshot input (JSON Lines logs, YAML text documents): the caller keeps it as log.
    Text(InputFormat),
    /// Broken: a fatal input problem was recorded.
    Fatal(InputFormat),
}

impl Routed {
    fn format(&self) -> InputFormat {
        match self {
            Routed::Objects { format, .. }
            | Routed::Quiet(format)
            | Routed::Text(format)
            | Routed::Fatal(format) => *format,
        }
    }
}

/// The lines of the API `Status` bodies read from `text` (a JSON/YAML input or section
/// starting at line `first_line` of its file): each Status's lines
/// ([`cube_model::status::ApiStatus::lines`]) with the line of the input its `message` is on
/// (found in input order; the first line of the text when it cannot be found).
fn status_lines(
    text: &str,
    first_line: usize,
    statuses: &[cube_model::status::ApiStatus],
) -> (String, Vec<LineOrigin>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0usize;
    let mut out = String::new();
    let mut origins = Vec::new();
    for st in statuses {
        // a piece of the message that reads the same escaped or not
        let probe: String = st
            .message
            .chars()
            .take_while(|c| !matches!(c, '"' | '\\' | '\n'))
            .take(40)
            .collect();
        let found = (!probe.trim().is_empty())
            .then(|| {
                (at..lines.len())
                    .chain(0..at)
                    .find(|&i| lines[i].contains("message") && lines[i].contains(probe.as_str()))
            })
            .flatten();
        if let Some(i) = found {
            at = i + 1;
        }
        let line = first_line + found.unwrap_or(0);
        for l in st.lines() {
            out.push_str(&l);
            out.push('\n');
            origins.push(LineOrigin {
                line,
                host: String::new(),
            });
        }
    }
    (out, origins)
}

/// `text` (YAML kept as a log text: a pod's `status:` block, a Status body) with a `message:`
/// plain scalar that YAML folds over several lines joined back into its key's line, as a YAML reader
/// folds them (YAML 1.2 "line folding": each line break inside a plain or double-quoted scalar
/// reads as one space): `  message: Pod Allocate failed due to ... container` and its more
/// indented next line `    wait-gcs-ready unable to find ...` are one message for the
/// classifiers. The joined lines stay as blank lines, so every line keeps its number.
/// Borrowed when nothing is folded.
fn unfold_yaml_plain_scalars(text: &str) -> std::borrow::Cow<'_, str> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    // `key: value` with a plain (or opened double-quoted) scalar value
    let head = |l: &str| -> bool {
        let t = l.trim_start();
        let Some((key, value)) = t.split_once(": ") else {
            return false;
        };
        let value = value.trim();
        // free-text fields only (a status or Status body's `message`): long values are folded
        // there, and a log line that only looks like YAML is left alone
        let closed_quote =
            value.starts_with(['"', '\'']) && value.len() > 1 && value.ends_with(['"', '\'']);
        let plain_or_open = !value.is_empty()
            && !value.starts_with(['|', '>', '[', '{', '&', '*', '!', '#'])
            && !closed_quote;
        matches!(key, "message" | "msg" | "\"message\"") && plain_or_open
    };
    // a line that only continues a scalar: no key of its own, no sequence item, no comment
    let continues = |l: &str| -> bool {
        let t = l.trim();
        !t.is_empty()
            && !t.starts_with(['-', '#', '{', '}', '[', ']'])
            && !t.starts_with('"')
            && !t
                .split_once(':')
                .is_some_and(|(k, v)| (v.is_empty() || v.starts_with(' ')) && !k.contains(' '))
    };
    let lines: Vec<&str> = text.split('\n').collect();
    if !lines
        .windows(2)
        .any(|w| head(w[0]) && indent(w[1]) > indent(w[0]) && continues(w[1]))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        out.push(l.trim_end_matches('\r').to_owned());
        i += 1;
        if !head(l) {
            continue;
        }
        let base = indent(l);
        while let Some(next) = lines.get(i)
            && indent(next) > base
            && continues(next)
        {
            let last = out.len() - 1;
            out[last].push(' ');
            out[last].push_str(next.trim());
            out.push(String::new());
            i += 1;
        }
    }
    std::borrow::Cow::Owned(out.join("\n"))
}

fn problem(source: &str, message: String, fatal: bool) -> InputProblem {
    InputProblem {
        source: source.to_owned(),
        message,
        fatal,
        ..InputProblem::default()
    }
}

/// Line `number` of an input, cleaned ([`paste::clean_line`]).
fn paste_line(number: usize, raw: &str) -> PasteLine {
    let clean = paste::clean_line(raw);
    let mut line = PasteLine::default();
    line.number = number;
    line.text = clean.text;
    line.host = clean.host;
    line
}

/// The lines of a text section for the log: its command line (a `kubeadm join ...` line is
/// evidence) and its output.
/// Whether a shown command line runs an HTTP client (`curl`, `wget`, HTTPie's `http`/`https`),
/// possibly after `sudo` or environment assignments.
fn http_client(command: &str) -> bool {
    command
        .split_whitespace()
        .find(|w| *w != "sudo" && !w.contains('='))
        .map(|w| w.rsplit('/').next().unwrap_or(w))
        .is_some_and(|p| matches!(p, "curl" | "wget" | "http" | "https"))
}

/// A line of `kubectl cluster-info` (k8s.io/kubectl `pkg/cmd/clusterinfo/clusterinfo.go`:
/// `Kubernetes control plane is running at <url>`, `Kubernetes master is running at <url>`
/// before v1.20, one `<service> is running at <url>` per cluster service, and the `kubectl
/// cluster-info dump` hint).
fn cluster_info_line(l: &str) -> bool {
    let t = l.trim();
    (t.contains(" is running at http") && !t.contains("  "))
        || t.starts_with("To further debug and diagnose cluster problems")
}

fn push_section_lines(out: &mut Vec<PasteLine>, section: &paste::Section) {
    if let Some(c) = &section.command {
        let mut line = PasteLine::default();
        line.number = c.number;
        line.text = c.text.clone();
        out.push(line);
    }
    out.extend(section.lines.iter().cloned());
}

/// The blocks (runs of non-blank lines) of an object section that are free text of their own
/// (detected as [`InputFormat::Text`]: no table header, describe key, event row or node fact in
/// them), e.g. a log or a command pasted right below a `kubectl get` table: the object readers
/// skip them, so they are read as log lines. A block with a scheduler message is left to
/// [`push_bare_scheduler_lines`].
fn push_free_text_blocks(out: &mut Vec<PasteLine>, section: &paste::Section) {
    let mut start = 0;
    let lines = &section.lines;
    while start < lines.len() {
        if lines[start].text.trim().is_empty() {
            start += 1;
            continue;
        }
        let end = lines[start..]
            .iter()
            .position(|l| l.text.trim().is_empty())
            .map_or(lines.len(), |n| start + n);
        let block = &lines[start..end];
        let mut text = String::new();
        for l in block {
            text.push_str(&l.text);
            text.push('\n');
        }
        let scheduler = block.iter().any(|l| {
            l.text.contains(" nodes are available:")
                || l.text.contains(" nodes are unavailable:")
                || l.text.contains("no nodes available to schedule pods")
        });
        if !scheduler && detect_format(text.as_bytes()) == InputFormat::Text {
            out.extend(block.iter().cloned());
        }
        start = end;
    }
}

/// The lines of an object section that carry a scheduler message outside any table or describe
/// field (`0/3 nodes are available: ...` pasted on its own, or inside a prose line), with the
/// lines that continue a message wrapped over several lines (up to 3, until it ends with `.`):
/// the describe and table readers skip free text, so they are read as a log. A table row or a
/// describe Events row (indented, or with three-space column gaps before the message) is the
/// readers' own and is left to them.
fn push_bare_scheduler_lines(out: &mut Vec<PasteLine>, section: &paste::Section) {
    const HEADERS: [&str; 3] = [
        " nodes are available:",
        " nodes are unavailable:",
        "no nodes available to schedule pods",
    ];
    let mut i = 0;
    while i < section.lines.len() {
        let line = &section.lines[i];
        let t = &line.text;
        let at = HEADERS.iter().filter_map(|h| t.find(h)).min();
        let bare = at.is_some_and(|at| {
            !t.starts_with([' ', '\t']) && !t[..at].contains("   ") && !t[..at].contains('\t')
        });
        if !bare {
            i += 1;
            continue;
        }
        out.push(line.clone());
        let ended = |s: &str| {
            s.trim_end()
                .trim_end_matches(['`', '"', '\''])
                .ends_with('.')
        };
        let mut joined = t.clone();
        let mut k = 1;
        while !ended(&joined) && k <= 3 {
            let Some(next) = section.lines.get(i + k) else {
                break;
            };
            if next.text.trim().is_empty() {
                break;
            }
            joined.push(' ');
            joined.push_str(next.text.trim());
            out.push(next.clone());
            k += 1;
        }
        i += k;
    }
}

/// The lines of an object section (a table, `describe` output) that are errors printed next to
/// the output, not part of it: at column 0, with no column gap (two spaces or a tab after a
/// klog header, as table rows and describe fields have), and an error by their own marking
/// ([`crate::catalog::marked_error`]: `Error from server (...)`, `error: ...`, klog `E`/`F`,
/// `FATA[`, `level=error` ...) or a message of the catalog. The object readers skip such lines,
/// so they are read as log lines (the catalog diagnoses them, or they are reported as not
/// recognised): nothing is dropped silently. Lines of `out[taken_from..]` (already taken by
/// the other passes over the section) are not taken twice.
fn push_stray_error_lines(out: &mut Vec<PasteLine>, taken_from: usize, section: &paste::Section) {
    let taken: std::collections::BTreeSet<usize> =
        out[taken_from..].iter().map(|l| l.number).collect();
    let mut found = Vec::new();
    // below an indented block (a describe `Events:` row, `Labels:` lines) until a blank line,
    // column-0 lines may go on with the last field or event message (kubectl prints a
    // multi-line event message as it is: `Mounting arguments: ...`, `Output: mount.nfs: ...`
    // under a FailedMount row): only a line that starts a record of its own is taken there
    let mut continuing = false;
    for l in &section.lines {
        let t = l.text.trim_end();
        if t.is_empty() {
            continuing = false;
            continue;
        }
        if t.starts_with([' ', '\t']) {
            continuing = true;
            continue;
        }
        if taken.contains(&l.number) {
            continue;
        }
        let body = after_klog_header(t);
        // a table row or a describe field: cells apart by two spaces or a tab
        if body.contains("  ") || body.contains('\t') {
            continue;
        }
        let error = if continuing {
            paste::starts_error_record(t)
        } else {
            crate::catalog::marked_error(t) || !crate::catalog::match_line(t).is_empty()
        };
        if error {
            found.push(l.clone());
        }
    }
    out.extend(found);
}

/// `line` after a klog header (`E1201 10:00:00.000000    1234 file.go:12] `, whose thread id
/// is padded with spaces: k8s.io/klog/v2 `klog.go` `formatHeader`), or the whole line.
fn after_klog_header(line: &str) -> &str {
    let b = line.as_bytes();
    let header = b.len() > 14
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5] == b' '
        && b[8] == b':';
    if header && let Some(end) = line.find("] ") {
        return &line[end + 2..];
    }
    line
}

/// `kubectl describe pod` Volumes blocks: hostPath and claim volumes (the model's describe reader
/// keeps containers and events; volumes matter for node-local storage findings).
fn add_describe_volumes(snapshot: &mut ClusterSnapshot, text: &str) {
    use cube_model::objects::{PvcVolumeSource, Volume};
    let mut pod_name = String::new();
    let mut in_volumes = false;
    let mut found: Vec<(String, Volume)> = Vec::new();
    for l in text.lines() {
        if l.starts_with('#') {
            continue;
        }
        let indent = l.len() - l.trim_start().len();
        let t = l.trim();
        if indent == 0 {
            if let Some(n) = t.strip_prefix("Name:") {
                pod_name = n.trim().to_owned();
            }
            in_volumes = t.starts_with("Volumes:");
            continue;
        }
        if !in_volumes {
            continue;
        }
        if indent == 2 && t.ends_with(':') {
            found.push((
                pod_name.clone(),
                Volume {
                    name: t.trim_end_matches(':').to_owned(),
                    ..Default::default()
                },
            ));
        } else if let Some((_, v)) = found.last_mut() {
            if let Some(ty) = t.strip_prefix("Type:") {
                if ty.trim().starts_with("HostPath") {
                    v.host_path = Some(Box::default());
                }
            } else if let (Some(hp), Some(path)) = (v.host_path.as_mut(), t.strip_prefix("Path:")) {
                hp.path = path.trim().to_owned();
            } else if let Some(claim) = t.strip_prefix("ClaimName:") {
                v.persistent_volume_claim = Some(Box::new(PvcVolumeSource {
                    claim_name: claim.trim().to_owned(),
                    ..Default::default()
                }));
            }
        }
    }
    for (pod, v) in found {
        if v.host_path.is_none() && v.persistent_volume_claim.is_none() {
            continue;
        }
        if let Some(p) = snapshot
            .pods
            .iter_mut()
            .find(|p| p.metadata.name == pod && !p.spec.volumes.iter().any(|x| x.name == v.name))
        {
            p.spec.volumes.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hold-out case (polyaxon#296): a cloud CLI's JSON next to a table that was read was
    /// passed over without a word; it is named in the input problems, with its lines (a CPU
    /// pool here: a GPU pool is read, see device_plugin_not_scheduled).
    #[test]
    fn a_json_section_without_objects_in_a_paste_that_was_read_is_named() {
        let paste = "$ az aks list\n[\n  {\n    \"agentPoolProfiles\": [ {\"count\": 1, \"vmSize\": \"Standard_D4s_v3\"} ]\n  }\n]\n\n$ kubectl get ds --all-namespaces\nNAMESPACE     NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                 AGE\nkube-system   kube-proxy   1         1         1       1            1           beta.kubernetes.io/os=linux   2h\n";
        let mut i = Inputs::new();
        i.add("p.txt", paste);
        assert_eq!(i.snapshot.daemon_sets.len(), 1);
        let problems = i.input_problems();
        assert!(
            problems
                .iter()
                .any(|p| p.message.contains("`az aks list`") && p.message.contains("not read")),
            "{problems:#?}"
        );
    }

    /// A text of one endless line (no newline) is read up to the line bound, said, and the
    /// lines around it still read.
    #[test]
    fn log_lines_past_the_budget_are_counted_not_read() {
        let mut i = Inputs::new();
        let mut limits = cube_model::limits::Limits::default();
        limits.max_log_lines = 1000;
        i.snapshot.set_limits(limits);
        let line = "Dec 02 07:00:00 node-01 kubelet[1234]: I1202 07:00:00.000000    1234 kubelet_pods.go:0] \"Clean up orphaned pod directories\"\n";
        i.add("a.log", &line.repeat(600));
        assert!(i.snapshot.limits_hit.is_empty());
        // the budget is shared by every input: 400 of the second input's 900 lines are read
        i.add(
            "b.log",
            &format!(
                "{}E1201 10:00:00.000000 1 kubelet.go:1] late\n",
                line.replace("I1202", "I1203").repeat(899)
            ),
        );
        let hit = i
            .snapshot
            .limits_hit
            .last()
            .expect("the limit hit is recorded");
        assert_eq!(hit.limit, cube_model::limits::Limit::LogLines);
        assert_eq!(hit.max, 1000);
        let said = i
            .problems
            .iter()
            .find(|p| p.message.contains("log line(s) not read"))
            .expect("said");
        // about 500 lines not read (a line more or less: the trailing empty line of a text)
        let not_read: usize = said.message.split(' ').next().unwrap().parse().unwrap();
        assert!((499..=503).contains(&not_read), "{said:?}");
        assert!(hit.observed.is_some_and(|o| o >= 1499), "{hit:?}");
        assert!(said.message.contains("--limit log-lines=N"), "{said:?}");
        let read: usize = i.logs.iter().map(|l| l.text.lines().count()).sum();
        assert!(read <= 1000, "{read}");
        // a structured input kept as a log text is bounded the same way
        i.add(
            "c.yaml",
            "apiVersion: v1\nkind: Status\nstatus: Failure\nmessage: x\n",
        );
        assert!(
            i.problems
                .iter()
                .filter(|p| p.message.contains("log line(s) not read"))
                .count()
                >= 2
        );
    }

    #[test]
    fn overlong_log_lines_are_cut_and_said() {
        let mut i = Inputs::new();
        let max = 64 << 10;
        assert_eq!(i.snapshot.limits().max_log_line_bytes, max as u64);
        let long = "abcdefghij".repeat(max / 5);
        let text = format!(
            "{long}\nE1201 10:00:00.000000 1 kubelet.go:1] container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\n"
        );
        let start = std::time::Instant::now();
        i.add("one-line.log", &text);
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
        let said = i
            .problems
            .iter()
            .find(|p| p.message.contains("longer than"))
            .expect("the cut is said");
        assert!(!said.fatal && said.message.contains("line 1"), "{said:?}");
        assert!(
            said.message.contains("--limit log-line-bytes=N"),
            "{said:?}"
        );
        assert_eq!(i.snapshot.limits_hit.len(), 1);
        assert_eq!(
            i.snapshot.limits_hit[0].limit,
            cube_model::limits::Limit::LogLineBytes
        );
        assert!(i.logs.iter().all(|l| l.text.len() < max + 4096));
        assert!(
            i.logs
                .iter()
                .any(|l| l.text.contains("cni plugin not initialized"))
        );
        // the bound is the policy's: a library caller (or `--max-log-line-bytes`) moves it
        let mut i = Inputs::new();
        let mut limits = cube_model::limits::Limits::default();
        limits.max_log_line_bytes = 1000;
        i.snapshot.set_limits(limits);
        i.add("short.log", &format!("{}\n", "x".repeat(1500)));
        assert!(
            i.problems
                .iter()
                .any(|p| p.message.contains("longer than 1000 bytes"))
        );
        assert!(i.logs.iter().all(|l| l.text.len() < 1100));
        // a structured input kept whole as a log text (a Status body) is cut the same way
        let mut i = Inputs::new();
        i.add(
            "status.yaml",
            &format!(
                "apiVersion: v1\nkind: Status\nstatus: Failure\nmessage: {}\n",
                "y".repeat(200_000)
            ),
        );
        assert!(!i.logs.is_empty());
        assert!(
            i.logs.iter().all(|l| l.text.len() < max + 4096),
            "{:?}",
            i.logs.iter().map(|l| l.text.len()).collect::<Vec<_>>()
        );
        assert!(
            i.problems
                .iter()
                .any(|p| p.message.contains("--limit log-line-bytes=N"))
        );
    }

    #[test]
    fn folded_yaml_message_reads_as_one_line() {
        // ray-project/kuberay#1414: a pod's `status:` block with its message folded by YAML
        let t = "status:\n  message: Pod Allocate failed due to pod 00000000-0000-0000-0000-000000000000 container\n    wait-gcs-ready unable to find GPU device allocation by scheduler, which is unexpected\n  phase: Failed\n  reason: UnexpectedAdmissionError\n";
        let u = unfold_yaml_plain_scalars(t);
        let lines: Vec<&str> = u.split('\n').collect();
        assert_eq!(lines.len(), t.split('\n').count());
        assert!(lines[1].ends_with("container wait-gcs-ready unable to find GPU device allocation by scheduler, which is unexpected"));
        assert_eq!(lines[2], "");
        assert_eq!(lines[3], "  phase: Failed");
        // nothing folded: borrowed
        assert!(matches!(
            unfold_yaml_plain_scalars("a: 1\nb:\n  c: 2\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn logs_and_objects_are_routed() {
        let mut i = Inputs::new();
        assert_eq!(
            i.add(
                "a.json",
                r#"{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}}"#
            ),
            InputFormat::Json
        );
        assert_eq!(
            i.add("join.log", "[preflight] Running pre-flight checks\n"),
            InputFormat::Text
        );
        assert_eq!(i.snapshot.nodes.len(), 1);
        assert_eq!(i.logs.len(), 1);
    }

    /// A List read from a reader gives the same snapshot, problems and locations as the same
    /// bytes read whole; content of a size read before, and what the streaming reader does not
    /// take, are left to the whole path.
    #[test]
    fn lists_read_from_a_reader_equal_lists_read_whole() {
        let mut items = Vec::new();
        for i in 0..50 {
            items.push(format!(
                r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n{i}"}}}}"#
            ));
            items.push(format!(
                r#"{{"apiVersion":"v1","kind":"Event","metadata":{{"name":"e{i}","namespace":"a"}},"reason":"FailedScheduling","message":"0/1 nodes are available"}}"#
            ));
        }
        let value: serde_json::Value = serde_json::from_str(&format!(
            r#"{{"apiVersion":"v1","items":[{}],"kind":"List"}}"#,
            items.join(",")
        ))
        .expect("valid");
        let text = serde_json::to_string_pretty(&value).expect("prints");
        let mut whole = Inputs::new();
        whole.add_bytes("dir/./dump.json", text.as_bytes());
        let mut streamed = Inputs::new();
        let format = streamed
            .add_json_reader("dir/./dump.json", &mut text.as_bytes(), text.len() as u64)
            .expect("no io error");
        assert_eq!(format, Some(InputFormat::Json));
        assert_eq!(streamed.snapshot, whole.snapshot);
        assert_eq!(streamed.locations, whole.locations);
        assert_eq!(streamed.input_problems(), whole.input_problems());
        assert_eq!(streamed.seen, whole.seen);
        // the same content again: read once, as add_bytes says
        assert_eq!(
            streamed
                .add_json_reader("other.json", &mut text.as_bytes(), text.len() as u64)
                .expect("no io error"),
            None
        );
        let mut broken = Inputs::new();
        let cut = &text[..text.len() / 2];
        assert_eq!(
            broken
                .add_json_reader("cut.json", &mut cut.as_bytes(), cut.len() as u64)
                .expect("no io error"),
            None
        );
        assert!(broken.snapshot.is_empty() && broken.locations.is_empty());
    }

    /// Issue 9 item 3: an error line beside a table or `describe` output (stderr printed with
    /// stdout, before, between or after the rows) is read as a log line, never dropped (a
    /// multi-line event message under a describe Events row stays the event's:
    /// `rules::storage_mount_failed` `options_are_read_from_describe_events_too`).
    #[test]
    fn error_lines_beside_objects_are_read() {
        let err = "Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:ci:probe\" cannot list resource \"pods\" in API group \"\" in the namespace \"team-a\"";
        let header = "NAME     STATUS   ROLES           AGE   VERSION\n";
        let row = "node-1   Ready    control-plane   10d   v1.28.2\n";
        for text in [
            format!("{err}\n{header}{row}"),
            format!("{header}{err}\n{row}"),
            format!("{header}{row}{err}\n"),
            format!(
                "Name:               node-1\nLabels:             a=b\nCapacity:\n  cpu:  8\n{err}\n"
            ),
        ] {
            let mut i = Inputs::new();
            i.add("paste.txt", &text);
            assert_eq!(i.snapshot.nodes.len(), 1, "{text}");
            assert!(
                i.logs
                    .iter()
                    .any(|l| l.text.contains("cannot list resource")),
                "{text}"
            );
        }
    }

    /// `kubeadm token list` (v1.6 layout without EXTRA GROUPS, and the current one) is read
    /// as what it is, not an unrecognised input.
    #[test]
    fn kubeadm_token_list_is_recognised() {
        for text in [
            "kubeadm token list\nTOKEN                     TTL         EXPIRES   USAGES                   DESCRIPTION\nabcdef.0123456789abcdef   <forever>   <never>   authentication,signing   The default bootstrap token generated by 'kubeadm init'.\n",
            "TOKEN                     TTL         EXPIRES                USAGES                   DESCRIPTION                                                EXTRA GROUPS\nabcdef.0123456789abcdef   23h         2024-01-02T00:00:00Z   authentication,signing   <none>                                                     system:bootstrappers:kubeadm:default-node-token\n",
        ] {
            let mut i = Inputs::new();
            i.add("tokens.txt", text);
            assert!(!unrecognised(&i), "{text}: {:?}", i.input_problems());
            assert!(
                i.input_problems()
                    .iter()
                    .any(|p| p.message.contains("kubeadm token list")),
                "{:?}",
                i.input_problems()
            );
        }
        // a header with rows that are no tokens: not this shape
        let mut i = Inputs::new();
        i.add("x.txt", "TOKEN TTL EXPIRES\nsomething failed badly here\n");
        assert!(
            !i.input_problems()
                .iter()
                .any(|p| p.message.contains("kubeadm token list"))
        );
    }

    fn unrecognised(i: &Inputs) -> bool {
        i.input_problems()
            .iter()
            .any(|p| p.message.starts_with("not recognised"))
    }

    /// The progress lines of a healthy `kubeadm join` / `init` in each version's wording, and
    /// the Ascend device plugin's INFO lines (hwlog prefix), are read as known output; an
    /// unknown error among them is still reported.
    #[test]
    fn healthy_tool_output_of_every_version_is_recognised() {
        for (name, text) in [
            (
                "kubeadm 1.8",
                "[preflight] Running pre-flight checks\n[discovery] Trying to connect to API Server \"10.0.0.1:6443\"\n[discovery] Successfully established connection with API Server \"10.0.0.1:6443\"\n[bootstrap] Detected server version: v1.8.2\n[bootstrap] The server supports the Certificates API (certificates.k8s.io/v1beta1)\n\nNode join complete:\n* Certificate signing request sent to master and response\n  received.\n\nRun 'kubectl get nodes' on the master to see this machine join.\n",
            ),
            (
                "kubeadm 1.11",
                "[preflight] running pre-flight checks\n[kubelet] Downloading configuration for the kubelet from the \"kubelet-config-1.11\" ConfigMap in the kube-system namespace\n[kubelet] Writing kubelet configuration to file \"/var/lib/kubelet/config.yaml\"\n[preflight] Activating the kubelet service\n[tlsbootstrap] Waiting for the kubelet to perform the TLS Bootstrap...\n",
            ),
            (
                "kubeadm 1.13 (tags only)",
                "[join] Reading configuration from the cluster...\n[join] FYI: You can look at this config file with 'kubectl -n kube-system get cm kubeadm-config -oyaml'\n",
            ),
            (
                "kubeadm 1.31",
                "[preflight] Reading configuration from the cluster...\n[kubelet-start] Starting the kubelet\n[kubelet-check] Waiting for a healthy kubelet at http://127.0.0.1:10248/healthz. This can take up to 4m0s\n[kubelet-check] The kubelet is healthy after 1.001s\n[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap\n\nThis node has joined the cluster:\n",
            ),
            (
                "kubeadm init",
                "[init] Using Kubernetes version: v1.30.2\n[certs] Generating \"apiserver\" certificate and key\n[addons] Applied essential addon: CoreDNS\n\nYour Kubernetes control-plane has initialized successfully!\n",
            ),
            (
                "nvidia plugin",
                "I1201 10:00:00.000000       1 main.go:199] Starting FS watcher.\nI1201 10:00:00.000100       1 main.go:206] Starting OS watcher.\nI1201 10:00:00.000200       1 main.go:221] Starting Plugins.\nI1201 10:00:00.000300       1 main.go:278] Loading configuration.\nI1201 10:00:00.000400       1 main.go:303] Updating config with default resource matching patterns.\nI1201 10:00:00.000500       1 main.go:346] Retrieving plugins.\nI1201 10:00:00.100100       1 server.go:117] Starting to serve 'nvidia.com/gpu' on /var/lib/kubelet/device-plugins/nvidia-gpu.sock\n",
            ),
            (
                "ascend",
                "[INFO]     2025/07/09 20:08:32.625129 269     server/server.go:57    register Ascend910 to kubelet success.\n[INFO]     2025/07/09 20:08:32.626171 308     server/plugin.go:201    ListAndWatch resp devices: inner device: Ascend910-0 Healthy, real device: Ascend910-0 Healthy, NotPodUsed: false\n",
            ),
        ] {
            let mut i = Inputs::new();
            i.add("x.log", text);
            assert!(!unrecognised(&i), "{name}: {:?}", i.input_problems());
            let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
            let report = crate::Engine::new().run(&ctx);
            assert!(
                report
                    .findings
                    .iter()
                    .all(|f| f.severity == crate::Severity::Info),
                "{name}: {:#?}",
                report.findings
            );
        }
        // an error the catalog does not know, after healthy lines, is still reported
        let mut i = Inputs::new();
        i.add("x.log", "[preflight] Running pre-flight checks\nE0101 10:00:00.000000 1 x.go:1] the frobnicator exploded\n");
        let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
        let report = crate::Engine::new().run(&ctx);
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule_id == "log-line-unrecognised"),
            "{:#?}",
            report.findings
        );
        // an unhealthy NPU is a finding
        let mut i = Inputs::new();
        i.add("plugin.log", "[INFO]     2022/11/21 11:20:06.007755 35      server/plugin.go:87    ListAndWatch resp devices: Ascend910-4 Unhealthy\n");
        let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
        let report = crate::Engine::new().run(&ctx);
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.rule_id == "gpu-plugin-log-error" && f.message.contains("Ascend910-4")),
            "{:#?}",
            report.findings
        );
    }

    /// The healthy catalog (catalog::healthy): a paste of healthy output of each program is
    /// read (no "not recognised", nothing above info, a note naming what was read and the lines
    /// no catalog knows); the same paste with an error line anywhere, or with the healthy
    /// state replaced by a failing one, is not quiet.
    #[test]
    fn healthy_catalog_pastes_are_read_and_errors_in_them_still_fire() {
        let run = |text: &str| {
            let mut i = Inputs::new();
            i.add("x.log", text);
            let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
            (
                unrecognised(&i),
                i.input_problems(),
                crate::Engine::new().run(&ctx),
            )
        };
        let pastes = [
            (
                "gke plugin",
                "I0305 10:12:01.123456       1 nvidia_gpu.go:75] device-plugin started\nI0305 10:12:01.200000       1 manager.go:163] Found Nvidia GPU \"nvidia0\"\nI0305 10:12:01.400100       1 manager.go:262] starting device-plugin server at: /device-plugin/nvidiaGPU-1678011121.sock\nI0305 10:12:01.400300       1 manager.go:281] device-plugin server started serving\nI0305 10:12:01.411000       1 manager.go:289] device-plugin registered with the kubelet\n",
            ),
            (
                "hami scheduler",
                "I0410 03:20:01.000100       1 config.go:105] Initializing devices with configuration\nI0410 03:20:01.000400       1 config.go:122] NVIDIA device initialized successfully\nI0410 03:20:01.000500       1 config.go:257] All devices initialized successfully\nI0410 03:20:01.000600       1 main.go:151] listen on 127.0.0.1:8888\n",
            ),
            (
                "gpu-operator validator",
                "$ kubectl -n gpu-operator logs nvidia-operator-validator-x7k2p\nDefaulted container \"nvidia-operator-validator\" out of: nvidia-operator-validator, driver-validation (init)\nall validations are successful\n",
            ),
            (
                "vectorAdd",
                "[Vector addition of 50000 elements]\nCopy input data from the host memory to the CUDA device\nCUDA kernel launch with 196 blocks of 256 threads\nCopy output data from the CUDA device to the host memory\nTest PASSED\nDone\n",
            ),
            (
                "systemctl status k3s-agent",
                "● k3s-agent.service - Lightweight Kubernetes\n     Loaded: loaded (/etc/systemd/system/k3s-agent.service; enabled; vendor preset: enabled)\n     Active: active (running) since Wed 2025-05-21 18:13:05 UTC; 2h 3min ago\n    Process: 1644 ExecStartPre=/sbin/modprobe br_netfilter (code=exited, status=0/SUCCESS)\n   Main PID: 1648 (k3s-agent)\n\nMay 21 18:13:10 node-02 k3s[1648]: time=\"2025-05-21T18:13:10Z\" level=info msg=\"k3s agent is up and running\"\nMay 21 18:13:10 node-02 systemd[1]: Started k3s-agent.service - Lightweight Kubernetes.\n",
            ),
            (
                "argocd cluster list",
                "SERVER                          NAME        VERSION  STATUS      MESSAGE                                                  PROJECT\nhttps://10.0.0.11:6443          prod-bj     1.29     Successful\nhttps://kubernetes.default.svc  in-cluster           Unknown     Cluster has no applications and is not being monitored.\n",
            ),
        ];
        for (name, text) in pastes {
            let (unread, problems, r) = run(text);
            assert!(!unread, "{name}: {problems:?}");
            assert!(
                problems.iter().any(|p| p.message.starts_with("read: ")),
                "{name}: {problems:?}"
            );
            assert!(
                r.findings
                    .iter()
                    .all(|f| f.severity == crate::Severity::Info),
                "{name}: {:#?}",
                r.findings
            );
            // an error line after the healthy prefix still gives its finding
            let broken = format!(
                "{text}E0305 10:13:00.000000       1 server.go:1] the frobnicator exploded\n"
            );
            let (_, _, r) = run(&broken);
            assert!(
                r.findings
                    .iter()
                    .any(|f| f.rule_id == "log-line-unrecognised"
                        && f.severity >= crate::Severity::Warning),
                "{name}: {:#?}",
                r.findings
            );
        }
        // the note names the lines no catalog knows
        let (_, problems, _) = run(pastes[4].1);
        assert!(
            problems
                .iter()
                .any(|p| p.message.contains("match no catalog message")),
            "{problems:?}"
        );
        // failing states are not the healthy texts, and progress lines (`Loaded: loaded`, a
        // successful ExecStartPre, `Loading NVML`) alone do not make a paste read: a unit that
        // keeps restarting stays not recognised, never an all-clear
        for failing in [
            "● kubelet.service - kubelet: The Kubernetes Node Agent\n     Loaded: loaded (/lib/systemd/system/kubelet.service; enabled; vendor preset: enabled)\n     Active: activating (auto-restart) (Result: exit-code) since Mon 2024-03-04 09:12:44 UTC; 3s ago\n    Process: 9121 ExecStartPre=/bin/mkdir -p /var/lib/kubelet (code=exited, status=0/SUCCESS)\n    Process: 9123 ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS (code=exited, status=1/FAILURE)\n   Main PID: 9123 (code=exited, status=1/FAILURE)\n",
            "2019/11/05 09:14:33 Loading NVML\n2019/11/05 09:14:33 Fetching devices.\n2019/11/05 09:14:33 the frobnicator is not there\n",
            "     Active: activating (auto-restart) (Result: exit-code) since Wed 2025-05-21 18:13:05 UTC; 2s ago\n",
            "     Active: failed (Result: exit-code) since Wed 2025-05-21 18:13:05 UTC; 2s ago\n",
            "I0612 08:01:02.000601       1 main.go:416] No devices found. Waiting indefinitely.\n",
            "SERVER                  NAME     VERSION  STATUS  MESSAGE                                           PROJECT\nhttps://10.0.0.12:6443  prod-sh           Failed  the frobnicator is not reachable at all\n",
        ] {
            let (unread, problems, r) = run(failing);
            assert!(
                unread
                    || r.findings
                        .iter()
                        .any(|f| f.severity >= crate::Severity::Warning),
                "{failing}: {problems:?} {:#?}",
                r.findings
            );
        }
        // a healthy text on a line marked as an error is not read as healthy
        assert!(
            crate::catalog::match_line(
                "E0101 00:00:00.000000 1 x.go:1] Registered device plugin for 'nvidia.com/gpu' with Kubelet failed"
            )
            .iter()
            .all(|m| !m.entry.healthy)
        );
    }

    /// Healthy outputs read as such (a minikube start that ended with `Done!`, member-cluster
    /// tables with every member Ready, a sharing config pasted as diff lines); their broken
    /// variants are not.
    #[test]
    fn healthy_outputs_are_read_and_broken_ones_are_not() {
        let report = |text: &str| {
            let mut i = Inputs::new();
            i.add("x.txt", text);
            let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
            (
                unrecognised(&i),
                i.input_problems(),
                crate::Engine::new().run(&ctx),
            )
        };
        let minikube = "```\n$ minikube start --gpus all\n😄  minikube v1.31.2 on Debian rodete\n✨  Using the docker driver based on user configuration\n🔥  Creating docker container (CPUs=2, Memory=32100MB) ...\n❗  Using GPUs with the Docker driver is experimental, if you experience any issues please report them at: https://github.com/kubernetes/minikube/issues/new/choose\n🐳  Preparing Kubernetes v1.28.2 on Docker 24.0.6 ...\n    ▪ Generating certificates and keys ...\n🌟  Enabled addons: storage-provisioner, nvidia-device-plugin, default-storageclass\n🏄  Done! kubectl is now configured to use \"minikube\" cluster and \"default\" namespace by default\n```\n";
        let (unread, problems, r) = report(minikube);
        assert!(!unread, "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.message.contains("minikube v1.31.2, Kubernetes v1.28.2")),
            "{problems:?}"
        );
        assert!(
            r.findings
                .iter()
                .all(|f| f.severity == crate::Severity::Info),
            "{:#?}",
            r.findings
        );
        // the low-fi prefixes of a terminal without emoji
        let ascii = "* minikube v1.32.0 on Ubuntu 22.04\n* Using the docker driver based on existing profile\n! Using GPUs with the Docker driver is experimental\n* Done! kubectl is now configured to use \"minikube\" cluster and \"default\" namespace by default\n";
        assert!(!report(ascii).0);
        // a failed start stays unread (never an all-clear)
        for failed in [
            minikube.replace("🏄  Done!", "❌  Exiting due to GUEST_START: failed to start node\n🏄  Done!"),
            ascii.replace("* Done!", "X Exiting due to RSRC_INSUFFICIENT_CORES: Requested cpu count 2 is greater than the available cpus of 1\n* Done!"),
            minikube.replace("🏄  Done! kubectl is now configured to use \"minikube\" cluster and \"default\" namespace by default", ""),
        ] {
            assert!(report(&failed).0, "{failed}");
        }
        // karmada-io/karmada#397: two push members, both Ready
        let karmada = "I created 2 Clusters, and they are all normal.\n\n```\n[root@node-01 operation]# kubectl get clusters\nNAME   VERSION   MODE   READY   AGE\nboat   v1.21.1   Push   True    4h20m\nhull   v1.13.9   Push   True    126m\n```\n";
        let (unread, problems, r) = report(karmada);
        assert!(!unread, "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.message.contains("every one Ready (boat, hull)"))
        );
        assert!(
            r.findings
                .iter()
                .all(|f| f.severity == crate::Severity::Info)
        );
        let (_, _, r) = report(&karmada.replace(
            "hull   v1.13.9   Push   True ",
            "hull   v1.13.9   Push   False",
        ));
        assert!(
            r.findings
                .iter()
                .any(|f| f.rule_id == "cluster-unreachable" && f.subject.name == "hull")
        );
        // NVIDIA/NeMo-Retriever#2510: a time-slicing config and its ClusterPolicy patch as `+`
        // lines of a diff
        let diff = "+    sharing:\n+      timeSlicing:\n+        resources:\n+        - name: nvidia.com/gpu\n+          replicas: 4\n+```\n+\n+```bash\n+kubectl create -n gpu-operator -f time-slicing-config-all.yaml\n+kubectl patch clusterpolicies.nvidia.com/cluster-policy \\\n+    -n gpu-operator --type merge \\\n+    -p '{\"spec\": {\"devicePlugin\": {\"config\": {\"name\": \"time-slicing-config-all\", \"default\": \"any\"}}}}'\n";
        let (unread, problems, r) = report(diff);
        assert!(!unread, "{problems:?}");
        assert!(
            r.findings
                .iter()
                .all(|f| f.severity == crate::Severity::Info),
            "{:#?}",
            r.findings
        );
    }

    #[test]
    fn broken_object_is_a_problem_not_a_failure() {
        let mut i = Inputs::new();
        i.add("x.json", r#"{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}},{"kind":"Node","apiVersion":"v1","metadata":{"name":"b"},"status":{"capacity":{"cpu":"lots"}}}]}"#);
        // The loader keeps node b and drops only its broken field (issue 2: never lose the rest).
        assert_eq!(i.snapshot.nodes.len(), 2);
        assert_eq!(i.snapshot.problems.len(), 1);
        assert_eq!(i.snapshot.problems[0].field, "status.capacity.cpu");
        assert!(i.snapshot.nodes[1].status.capacity.get("cpu").is_none());
    }
}
