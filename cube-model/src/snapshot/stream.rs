//! A JSON List read from a reader through a bounded window (issue 12: reading streamed, never
//! the whole file and the whole snapshot in memory at once).
//!
//! The window holds [`WINDOW`] bytes (more only while one item is larger). The List's own keys
//! are read by a small scanner; its `items` are read by the one-pass reader of `fast.rs`, as
//! many as the window holds at a time. An item cut by the end of the window fails with an
//! end-of-input error before it leaves any trace (`fast::ItemSeed` stores an object, or counts
//! one, only once it was read to its end); the window then keeps the bytes from that item on,
//! reads more, and the item is read again from its start. Each byte is parsed once (the one
//! item at each window boundary twice).
//!
//! On a machine with more than one core, a window is shared out among threads
//! ([`Parallel`]): it is cut before items found by a cheap look at the separator before them
//! (the same whitespace as before the round's first item, and when that holds no newline, an
//! item that starts with `apiVersion` then `kind`), each part is read by the same one-pass
//! reader into a snapshot of its own on its own thread (`std::thread::scope`), and the parts
//! are added in input order. A cut is trusted only once the part before it was read exactly up
//! to it (its last item ends right before the `,` cut at); otherwise the parts are dropped and
//! the window is read on one thread as before, so objects, their order, counts, starts and
//! lines, and every outcome are those of the one-thread reader. Meanwhile the calling thread
//! reads the input's next window (into a second buffer, with room before it for the item the
//! window cuts, so the next round starts without copying it): the read of the file no longer
//! waits for the parts nor they for it. At most two windows of text are in memory.
//!
//! Anything the one-pass reader does not take (a broken item, items without `kind`, an input
//! that is not one List, a cut input, more than `limits.max_file_bytes`) stops the stream: the
//! caller rolls back and reads the input whole with the general path, which reports problems
//! precisely and salvages what it can.

use std::io::Read;

use super::{ClusterSnapshot, fast, is_list_kind};
use crate::projection::PodFields;

/// Bytes read from the reader at a time.
pub(super) const WINDOW: usize = 8 << 20;

/// Why the stream stopped.
pub(super) enum Stop {
    /// Not an input this reader takes: read it whole.
    ReadWhole,
    /// The reader failed.
    Io(std::io::Error),
}

/// The bytes of the input from `base` on, read so far.
pub(super) struct Window<'r> {
    reader: &'r mut dyn Read,
    pub(super) buf: Vec<u8>,
    /// Offset in the input of `buf[0]`.
    base: usize,
    /// The reader is exhausted.
    eof: bool,
    /// Bytes read in all.
    total: u64,
    /// At most this many bytes are read.
    max: u64,
    /// Bytes read at a time.
    window: usize,
    /// Line (1-based) of `buf[counted]`.
    line: usize,
    counted: usize,
    /// How a window's items are shared out among threads.
    parallel: Parallel,
    /// The fields of each Pod kept (`crate::projection`).
    pub(super) pod_fields: PodFields,
    /// The reader's next bytes, read while the parts of a round were read on other threads
    /// (taken by the next [`Window::refill`]).
    ahead: Option<Ahead>,
    /// A buffer to read ahead into (a former window, so its memory is reused).
    spare: Vec<u8>,
}

/// Bytes read ahead of the window: `bytes[head..]` (the first `head` bytes are room for the
/// part of the window that the next refill keeps, when it keeps as many bytes as guessed).
struct Ahead {
    bytes: Vec<u8>,
    head: usize,
    /// What the read returned (an error is reported by the refill that takes it, where the
    /// read would otherwise have happened).
    got: std::io::Result<usize>,
}

/// Items are read on at most this many threads at once.
const MAX_THREADS: usize = 8;

/// How the items of a window are shared out among threads.
#[derive(Debug, Clone, Copy)]
pub(super) struct Parallel {
    /// Threads reading at once (1: only the calling thread).
    pub(super) threads: usize,
    /// The smallest part given to a thread, in bytes (a smaller round is read on one thread).
    pub(super) min_part: usize,
}

impl Parallel {
    /// The calling thread only.
    #[cfg(test)]
    pub(super) const ONE: Parallel = Parallel {
        threads: 1,
        min_part: usize::MAX,
    };

    /// One thread per core of this machine (at most [`MAX_THREADS`]), parts of at least 1 MiB.
    pub(super) fn of_machine() -> Parallel {
        Parallel {
            threads: std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get)
                .min(MAX_THREADS),
            min_part: 1 << 20,
        }
    }
}

impl<'r> Window<'r> {
    pub(super) fn new(
        reader: &'r mut dyn Read,
        max: u64,
        window: usize,
        parallel: Parallel,
    ) -> Self {
        Window {
            parallel,
            pod_fields: PodFields::All,
            window: window.max(1),
            reader,
            buf: Vec::new(),
            base: 0,
            eof: false,
            total: 0,
            max,
            line: 1,
            counted: 0,
            ahead: None,
            spare: Vec::new(),
        }
    }

    /// Drops `buf[..keep]` and reads up to `window` more bytes; false when nothing more came.
    pub(super) fn refill(&mut self, keep: usize) -> Result<bool, Stop> {
        let keep = keep.min(self.buf.len());
        if keep > self.counted {
            self.line += newlines(&self.buf[self.counted..keep]);
            self.counted = keep;
        }
        let want = self.window as u64;
        let old = self.buf.len() - keep;
        let got = if let Some(ahead) = self.ahead.take() {
            // the bytes read ahead follow the kept ones: in the buffer they were read into when
            // its room is the size of what is kept (no copy of the bytes read), else copied
            let got = ahead.got.map_err(Stop::Io)?;
            let mut next = ahead.bytes;
            if ahead.head == old {
                next[..old].copy_from_slice(&self.buf[keep..]);
                self.spare = std::mem::replace(&mut self.buf, next);
                #[cfg(test)]
                tests::AHEAD_IN_PLACE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            } else {
                self.buf.drain(..keep);
                self.buf.extend_from_slice(&next[ahead.head..]);
                self.spare = next;
                #[cfg(test)]
                tests::AHEAD_COPIED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            self.base += keep;
            self.counted -= keep;
            got
        } else {
            self.buf.drain(..keep);
            self.base += keep;
            self.counted -= keep;
            if self.eof {
                return Ok(false);
            }
            // read straight into the vector's spare room (not zeroed first: that was a memset
            // of the whole input); fewer bytes than asked for means the reader is exhausted
            (&mut *self.reader)
                .take(want)
                .read_to_end(&mut self.buf)
                .map_err(Stop::Io)?
        };
        if (got as u64) < want {
            self.eof = true;
        }
        let filled = old + got;
        self.total += got as u64;
        if self.total > self.max {
            return Err(Stop::ReadWhole);
        }
        Ok(filled > old)
    }

    /// The line of window offset `at` (calls in increasing order of `at`).
    fn line_of(&mut self, at: usize) -> usize {
        if at > self.counted {
            self.line += newlines(&self.buf[self.counted..at]);
            self.counted = at;
        }
        self.line
    }

    /// The next byte that is not whitespace at or after `pos`, reading more as needed; its
    /// offset in the (possibly moved) window.
    fn skip_ws(&mut self, mut pos: usize) -> Result<usize, Stop> {
        loop {
            while self.buf.get(pos).is_some_and(u8::is_ascii_whitespace) {
                pos += 1;
            }
            if pos < self.buf.len() {
                return Ok(pos);
            }
            if !self.refill(pos)? {
                return Err(Stop::ReadWhole);
            }
            pos = 0;
        }
    }

    /// The end (exclusive) of the JSON value at `pos`, reading more as needed; the value is
    /// checked to be JSON. Returns the value's (possibly moved) start and its end.
    fn value_end(&mut self, mut pos: usize) -> Result<(usize, usize), Stop> {
        loop {
            if let Some(end) = scan_end(&self.buf, pos) {
                let ok = serde_json::from_slice::<serde::de::IgnoredAny>(&self.buf[pos..end]);
                return ok.map(|_| (pos, end)).map_err(|_| Stop::ReadWhole);
            }
            if !self.refill(pos)? {
                return Err(Stop::ReadWhole);
            }
            pos = 0;
        }
    }

    fn byte(&self, pos: usize) -> u8 {
        self.buf.get(pos).copied().unwrap_or(0)
    }
}

/// Newlines in `bytes`, counted 255 bytes at a time into a byte-wide sum (which the compiler
/// makes vector compares of 16 bytes at a time; a plain filter-count widened every byte to a
/// 64-bit sum and took about 5x as long, 6% of a 500 MB load).
fn newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
            usize::from(n)
        })
        .sum()
}

/// The end (exclusive) of the JSON value starting at `start` when it ends inside `bytes`: a
/// string, an object or array (brackets matched outside strings), or a scalar (up to the next
/// delimiter). Not a validation: the caller parses what it needs.
pub(super) fn scan_end(bytes: &[u8], start: usize) -> Option<usize> {
    let first = *bytes.get(start)?;
    let mut i = start;
    match first {
        b'"' => {
            i += 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
            None
        }
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut in_string = false;
            while i < bytes.len() {
                let b = bytes[i];
                if in_string {
                    match b {
                        b'\\' => i += 1,
                        b'"' => in_string = false,
                        _ => {}
                    }
                } else {
                    match b {
                        b'"' => in_string = true,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(i + 1);
                            }
                        }
                        _ => {}
                    }
                }
                i += 1;
            }
            None
        }
        _ => {
            while i < bytes.len() {
                if matches!(bytes[i], b',' | b'}' | b']') || bytes[i].is_ascii_whitespace() {
                    return Some(i);
                }
                i += 1;
            }
            None
        }
    }
}

/// Reads the List in `w` (its first window already read, `pos` at its first byte); returns the
/// List's kind. On [`Stop`] the snapshot may hold a partial result the caller rolls back.
pub(super) fn read_list(
    s: &mut ClusterSnapshot,
    w: &mut Window<'_>,
    pos: usize,
) -> Result<String, Stop> {
    let mut pos = w.skip_ws(pos)?;
    if w.byte(pos) != b'{' {
        return Err(Stop::ReadWhole);
    }
    pos += 1;
    let mut kind: Option<String> = None;
    let mut items = false;
    loop {
        pos = w.skip_ws(pos)?;
        match w.byte(pos) {
            b'}' if kind.is_none() && !items => return Err(Stop::ReadWhole),
            b'"' => {}
            _ => return Err(Stop::ReadWhole),
        }
        let (start, end) = w.value_end(pos)?;
        let key: String =
            serde_json::from_slice(&w.buf[start..end]).map_err(|_| Stop::ReadWhole)?;
        pos = w.skip_ws(end)?;
        if w.byte(pos) != b':' {
            return Err(Stop::ReadWhole);
        }
        pos = w.skip_ws(pos + 1)?;
        match key.as_str() {
            "items" if !items && w.byte(pos) == b'[' => {
                pos = read_items(s, w, pos)?;
                items = true;
            }
            "items" => return Err(Stop::ReadWhole),
            _ => {
                let (start, end) = w.value_end(pos)?;
                if key == "kind" {
                    kind = Some(
                        serde_json::from_slice(&w.buf[start..end]).map_err(|_| Stop::ReadWhole)?,
                    );
                }
                pos = end;
            }
        }
        pos = w.skip_ws(pos)?;
        match w.byte(pos) {
            b',' => pos += 1,
            b'}' => {
                pos += 1;
                break;
            }
            _ => return Err(Stop::ReadWhole),
        }
    }
    // nothing but whitespace after the List (a stream of values is read whole)
    loop {
        while w.buf.get(pos).is_some_and(u8::is_ascii_whitespace) {
            pos += 1;
        }
        if pos < w.buf.len() {
            return Err(Stop::ReadWhole);
        }
        if !w.refill(pos)? {
            break;
        }
        pos = 0;
    }
    match kind {
        Some(k) if items && (k == "List" || is_list_kind(&k)) => Ok(k),
        _ => Err(Stop::ReadWhole),
    }
}

/// Reads the `items` array whose `[` is at `pos`; returns the offset after its `]`.
fn read_items(s: &mut ClusterSnapshot, w: &mut Window<'_>, pos: usize) -> Result<usize, Stop> {
    // `w.buf[at]` opens the rest of the array: the real `[`, or the `,` after the last item
    // read, overwritten with `[` (the bytes before it are no longer needed)
    let mut at = pos;
    // `w.buf[at]` is a `,` of the input made `[`
    let mut comma = false;
    loop {
        let (round, result) = match parallel_round(s, w, at)? {
            Some((last, round, result)) => {
                at = last;
                comma = true;
                (round, result)
            }
            None => fast::read_items(s, &w.buf, at, w.pod_fields),
        };
        place(s, w)?;
        // `[{...},]`: a trailing comma (a round that starts at a `,` made `[` and reads no
        // item before `]`) is not JSON, as the whole-input reader says
        if round.done == 0 && result.is_ok() && comma {
            return Err(Stop::ReadWhole);
        }
        let end = match (round.done, round.last_start) {
            (0, _) => None,
            (_, Some(start)) => Some(scan_end(&w.buf, start).ok_or(Stop::ReadWhole)?),
            (_, None) => return Err(Stop::ReadWhole),
        };
        match result {
            Ok(()) => {
                let after = end.unwrap_or(at + 1);
                let close = w.skip_ws(after)?;
                if w.byte(close) != b']' {
                    return Err(Stop::ReadWhole);
                }
                return Ok(close + 1);
            }
            Err(e) if e.is_eof() && !w.eof => match end {
                None => {
                    // the first item of this round is cut: keep it (and its `[`), read more
                    if !w.refill(at)? {
                        return Err(Stop::ReadWhole);
                    }
                    at = 0;
                }
                Some(end) => {
                    let next = w.skip_ws(end)?;
                    match w.byte(next) {
                        b',' => {
                            w.buf[next] = b'[';
                            at = next;
                            comma = true;
                        }
                        b']' => return Ok(next + 1),
                        _ => return Err(Stop::ReadWhole),
                    }
                }
            },
            Err(_) => return Err(Stop::ReadWhole),
        }
    }
}

/// What one thread read of a window.
struct Part {
    snapshot: ClusterSnapshot,
    round: fast::Round,
    result: Result<(), serde_json::Error>,
}

impl Part {
    /// Reads the items of `bytes[at..]` (`bytes[at]` is a `[`) into a snapshot of its own
    /// (no object limit: the caller checks it once the parts are added).
    fn read(
        bytes: &[u8],
        at: usize,
        limits: &crate::limits::Limits,
        pod_fields: PodFields,
    ) -> Part {
        let mut snapshot = ClusterSnapshot::new().with_limits(crate::limits::Limits {
            max_objects_per_snapshot: u64::MAX,
            ..limits.clone()
        });
        *snapshot.starts = Some(Box::default());
        let (round, result) = fast::read_items(&mut snapshot, bytes, at, pod_fields);
        Part {
            snapshot,
            round,
            result,
        }
    }

    /// Only what the one-pass reader adds (objects, their starts, counts): anything else
    /// means the part is not added.
    fn is_plain(&self) -> bool {
        let s = &self.snapshot;
        s.starts.is_some()
            && *s.over_limit == 0
            && s.problems.is_empty()
            && s.not_snapshot.is_empty()
            && s.duplicates.is_empty()
            && s.mixed.is_empty()
            && s.kinds_listed.is_empty()
            && s.limits_hit.is_empty()
            && s.missing_kinds.is_empty()
            && s.inputs.is_empty()
    }

    /// The part's items were read exactly up to `bytes[cut]` (the `,` before the next part):
    /// its input ended there with no item cut, and only whitespace follows its last item.
    fn ends_at(&self, bytes: &[u8], cut: usize) -> bool {
        let ended = matches!(&self.result, Err(e) if e.is_eof());
        let last_end = self
            .round
            .last_start
            .and_then(|start| scan_end(&bytes[..cut], start));
        ended
            && self.round.done > 0
            && last_end.is_some_and(|end| bytes[end..cut].iter().all(u8::is_ascii_whitespace))
    }
}

/// Adds a part's objects and counts after those already in `s` (input order).
fn add_part(s: &mut ClusterSnapshot, part: ClusterSnapshot) {
    // every field named, so a new one cannot be forgotten here
    let ClusterSnapshot {
        mut nodes,
        mut pods,
        mut namespaces,
        mut resource_quotas,
        mut limit_ranges,
        mut priority_classes,
        mut daemon_sets,
        mut workloads,
        mut events,
        mut storage_classes,
        mut persistent_volumes,
        mut persistent_volume_claims,
        mut roles,
        mut role_bindings,
        mut pod_disruption_budgets,
        mut bootstrap_tokens,
        mut runtime_classes,
        unknown_kinds,
        missing_kinds: _,
        problems: _,
        skipped_secrets,
        not_snapshot: _,
        duplicates: _,
        mixed: _,
        conflicts: _,
        kinds_listed: _,
        limits_hit: _,
        mut api_statuses,
        mut cloud_pools,
        limits: _,
        inputs: _,
        over_limit: _,
        starts,
        start_lines: _,
    } = part;
    s.nodes.append(&mut nodes);
    s.pods.append(&mut pods);
    s.namespaces.append(&mut namespaces);
    s.resource_quotas.append(&mut resource_quotas);
    s.limit_ranges.append(&mut limit_ranges);
    s.priority_classes.append(&mut priority_classes);
    s.daemon_sets.append(&mut daemon_sets);
    s.workloads.append(&mut workloads);
    s.events.append(&mut events);
    s.storage_classes.append(&mut storage_classes);
    s.persistent_volumes.append(&mut persistent_volumes);
    s.persistent_volume_claims
        .append(&mut persistent_volume_claims);
    s.roles.append(&mut roles);
    s.role_bindings.append(&mut role_bindings);
    s.pod_disruption_budgets.append(&mut pod_disruption_budgets);
    s.bootstrap_tokens.append(&mut bootstrap_tokens);
    s.runtime_classes.append(&mut runtime_classes);
    s.api_statuses.append(&mut api_statuses);
    s.cloud_pools.append(&mut cloud_pools);
    for (kind, count) in unknown_kinds {
        *s.unknown_kinds.entry(kind).or_insert(0) += count;
    }
    s.skipped_secrets += skipped_secrets;
    match (s.starts.as_mut(), starts.0) {
        (Some(all), Some(mut new)) => {
            for (all, new) in all.iter_mut().zip(new.iter_mut()) {
                all.append(new);
            }
        }
        _ => *s.starts = None,
    }
}

/// Where a part after the first may start, at or after `from`: the `,` before an item whose
/// `{` follows the same whitespace `ws` as the round's first item. When `ws` holds no newline
/// (a compact list, where nested objects follow a `,` the same way) the item must also start
/// with the keys `apiVersion` then `kind` (which also keeps the cut out of a string: a `"`
/// right after `{` would end one). Only a guess: the part before checks it (`Part::ends_at`).
fn next_cut(bytes: &[u8], from: usize, ws: &[u8]) -> Option<usize> {
    let lined = ws.contains(&b'\n');
    let mut i = from.max(ws.len() + 1);
    while i < bytes.len() {
        let brace = i + bytes[i..].iter().position(|&b| b == b'{')?;
        i = brace + 1;
        let Some(sep) = brace.checked_sub(ws.len() + 1) else {
            continue;
        };
        if bytes[sep] != b',' || &bytes[sep + 1..brace] != ws {
            continue;
        }
        if lined || starts_with_head(&bytes[brace..]) {
            return Some(sep);
        }
    }
    None
}

/// How far back from the end of a window [`last_cut`] looks.
const LOOK_BACK: usize = 256 << 10;

/// The last place a part could start in `bytes[from..]` as [`next_cut`] finds them, within the
/// window's last [`LOOK_BACK`] bytes (a guess, used only to size a buffer).
fn last_cut(bytes: &[u8], from: usize, ws: &[u8]) -> Option<usize> {
    let lined = ws.contains(&b'\n');
    let low = from
        .max(bytes.len().saturating_sub(LOOK_BACK))
        .max(ws.len() + 1);
    let mut i = bytes.len();
    while i > low {
        i -= 1;
        if bytes[i] != b'{' {
            continue;
        }
        let sep = i - ws.len() - 1;
        if bytes[sep] == b','
            && &bytes[sep + 1..i] == ws
            && (lined || starts_with_head(&bytes[i..]))
        {
            return Some(sep);
        }
    }
    None
}

/// `{"apiVersion": "...", "kind"` (whitespace allowed between tokens).
fn starts_with_head(item: &[u8]) -> bool {
    /// The offset after `text` when it comes next at `at` (after whitespace).
    fn token(item: &[u8], at: usize, text: &[u8]) -> Option<usize> {
        let at = at
            + item
                .get(at..)?
                .iter()
                .position(|b| !b.is_ascii_whitespace())?;
        (item.get(at..at + text.len())? == text).then_some(at + text.len())
    }
    let value = |at: usize| {
        let at = token(item, at, b"\"")?;
        // a string without escapes
        let n = item
            .get(at..)?
            .iter()
            .position(|&b| b == b'"' || b == b'\\')?;
        (item[at + n] == b'"').then_some(at + n + 1)
    };
    token(item, 1, b"\"apiVersion\"")
        .and_then(|at| token(item, at, b":"))
        .and_then(value)
        .and_then(|at| token(item, at, b","))
        .and_then(|at| token(item, at, b"\"kind\""))
        .is_some()
}

/// The last part of a round read on several threads: the offset of its `[`, what it read.
type LastRound = (usize, fast::Round, Result<(), serde_json::Error>);

/// Reads the items of the window from `at` on several threads (see the module doc); `None`
/// when the window is not shared out (one thread, too small, no cut found, a cut that the part
/// before did not confirm), with the window as it was. Otherwise the parts before the last are
/// added to `s`, and the last part's round is returned with the offset of its `[` (a `,` of
/// the input overwritten), as [`fast::read_items`] from there would return it.
fn parallel_round(
    s: &mut ClusterSnapshot,
    w: &mut Window<'_>,
    at: usize,
) -> Result<Option<LastRound>, Stop> {
    let p = w.parallel;
    let len = w.buf.len();
    let span = len.saturating_sub(at);
    let min_part = p.min_part.max(1);
    if p.threads < 2 || span / min_part < 2 {
        return Ok(None);
    }
    let parts = p.threads.min(span / min_part);
    // the whitespace between the round's `[` and its first item
    let first = at
        + 1
        + w.buf[at + 1..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(span - 1);
    if w.buf.get(first) != Some(&b'{') {
        return Ok(None);
    }
    let ws = w.buf[at + 1..first].to_vec();
    let mut cuts = vec![at];
    for k in 1..parts {
        let from = (at + span / parts * k).max(cuts[cuts.len() - 1] + 1);
        match next_cut(&w.buf, from, &ws) {
            Some(cut) => cuts.push(cut),
            None => break,
        }
    }
    if cuts.len() < 2 {
        return Ok(None);
    }
    for &cut in &cuts[1..] {
        w.buf[cut] = b'[';
    }
    let limits = (*s.limits).clone();
    let pod_fields = w.pod_fields;
    // while the parts are read, this thread reads the input's next bytes (the read no longer
    // waits for the parts, nor they for it), leaving room before them for the bytes the next
    // refill keeps: the item the window cuts, from the `,` before it (a guess: when wrong, the
    // refill copies the bytes read ahead)
    let read_ahead = (!w.eof && w.ahead.is_none()).then(|| {
        let keep = last_cut(&w.buf, cuts[cuts.len() - 1] + 1, &ws).map_or(0, |cut| len - cut);
        (keep, w.window as u64)
    });
    let bytes = &w.buf[..];
    let (reader, spare) = (&mut w.reader, &mut w.spare);
    let (read, ahead): (Vec<Option<Part>>, Option<Ahead>) = std::thread::scope(|scope| {
        let spawned: Vec<_> = (0..cuts.len())
            .map(|k| {
                let (from, to) = (cuts[k], cuts.get(k + 1).copied().unwrap_or(len));
                let limits = &limits;
                std::thread::Builder::new()
                    .name("cube-read".to_owned())
                    .spawn_scoped(scope, move || {
                        Part::read(&bytes[..to], from, limits, pod_fields)
                    })
                    .ok()
            })
            .collect();
        let ahead = read_ahead.map(|(keep, want)| {
            let mut next = std::mem::take(spare);
            next.clear();
            next.resize(keep, 0);
            let got = (&mut **reader).take(want).read_to_end(&mut next);
            Ahead {
                bytes: next,
                head: keep,
                got,
            }
        });
        let read = spawned
            .into_iter()
            .map(|h| h.and_then(|h| h.join().ok()))
            .collect();
        (read, ahead)
    });
    if ahead.is_some() {
        w.ahead = ahead;
    }
    let last = cuts.len() - 1;
    let confirmed = read.iter().enumerate().all(|(k, part)| {
        part.as_ref()
            .is_some_and(|part| part.is_plain() && (k == last || part.ends_at(bytes, cuts[k + 1])))
    });
    if !confirmed {
        for &cut in &cuts[1..] {
            w.buf[cut] = b',';
        }
        return Ok(None);
    }
    #[cfg(test)]
    tests::PARALLEL_ROUNDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // the input's own `,` back where no round starts any more
    for &cut in &cuts[1..last] {
        w.buf[cut] = b',';
    }
    let mut last_round = None;
    for part in read.into_iter().flatten() {
        add_part(s, part.snapshot);
        last_round = Some((part.round, part.result));
    }
    // over `limits.max_objects_per_snapshot` (the one-thread reader counts what is past it
    // and the stream ends in `ReadWhole` all the same; here nothing past it is kept)
    if s.object_count() as u64 >= s.limits.max_objects_per_snapshot {
        return Err(Stop::ReadWhole);
    }
    Ok(last_round.map(|(round, result)| (cuts[last], round, result)))
}

/// The objects stored by the last round have their starts as window offsets: made offsets in
/// the input, and their lines recorded (every stored object of this input has its start).
fn place(s: &mut ClusterSnapshot, w: &mut Window<'_>) -> Result<(), Stop> {
    let Some(starts) = s.starts.as_mut() else {
        return Err(Stop::ReadWhole);
    };
    let lines = s.start_lines.get_or_insert_with(Box::default);
    let mut new: Vec<(usize, usize, usize)> = Vec::new();
    for (slot, v) in starts.iter().enumerate() {
        for (i, &at) in v.iter().enumerate().skip(lines[slot].len()) {
            new.push((at, slot, i));
        }
    }
    new.sort_unstable();
    for (at, slot, i) in new {
        let line = w.line_of(at);
        starts[slot][i] = w.base + at;
        lines[slot].push(line);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::Parallel;

    /// Rounds read on several threads and confirmed (by every test of this process).
    pub(super) static PARALLEL_ROUNDS: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    /// Bytes read ahead taken by a refill in the buffer they were read into, or copied (the
    /// guess of what the refill keeps was wrong).
    pub(super) static AHEAD_IN_PLACE: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);
    pub(super) static AHEAD_COPIED: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    /// One thread, and several threads with parts as small as a few bytes (so that small
    /// inputs are cut at many places, right or wrong).
    const PARALLEL: [Parallel; 4] = [
        Parallel::ONE,
        Parallel {
            threads: 2,
            min_part: 1,
        },
        Parallel {
            threads: 3,
            min_part: 40,
        },
        Parallel {
            threads: 8,
            min_part: 1,
        },
    ];

    fn item(i: usize) -> String {
        match i % 6 {
            0 => format!(
                r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n{i}","labels":{{"a":"b\"}}{{"}},"uid":"u{i}"}},"status":{{"capacity":{{"cpu":"8","nvidia.com/gpu":"4"}}}}}}"#
            ),
            1 => format!(
                r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"p{i}","namespace":"ns","ownerReferences":[{{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"u"}},{{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r2","uid":"u2"}}]}},"spec":{{"nodeName":"n0","containers":[{{"name":"c","resources":{{"requests":{{"cpu":"250m"}}}}}}]}}}}"#
            ),
            2 => format!(
                r#"{{"apiVersion":"apps/v1","kind":"Deployment","metadata":{{"name":"d{i}"}},"spec":{{"replicas":3}}}}"#
            ),
            3 => format!(
                r#"{{"apiVersion":"v1","data":{{"k":"c2VjcmV0"}},"kind":"Secret","metadata":{{"name":"s{i}"}},"type":"Opaque"}}"#
            ),
            4 => format!(
                r#"{{"apiVersion":"v1","kind":"Event","metadata":{{"name":"e{i}","namespace":"ns"}},"reason":"FailedScheduling","message":"0/3 nodes are available: [x]"}}"#
            ),
            _ => format!(
                r#"{{"apiVersion":"v1","kind":"ResourceQuota","metadata":{{"name":"q{i}","namespace":"ns"}},"spec":{{"hard":{{"pods":"10"}}}}}}"#
            ),
        }
    }

    /// A List of `n` items, compact or indented (one key per line, as `kubectl -o json`).
    fn list(n: usize, pretty: bool, bom: bool) -> Vec<u8> {
        let items: Vec<String> = (0..n).map(item).collect();
        let text = format!(
            r#"{{"apiVersion":"v1","items":[{}],"kind":"List","metadata":{{"resourceVersion":""}}}}"#,
            items.join(",")
        );
        let mut out = if bom {
            b"\xEF\xBB\xBF".to_vec()
        } else {
            Vec::new()
        };
        if pretty {
            let value: serde_json::Value = serde_json::from_str(&text).expect("valid");
            out.extend(serde_json::to_vec_pretty(&value).expect("prints"));
        } else {
            out.extend(text.into_bytes());
        }
        out.push(b'\n');
        out
    }

    fn line_of(bytes: &[u8], at: usize) -> usize {
        bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1
    }

    /// Streamed with any window, the snapshot and outcome equal `add_bytes` on the same bytes,
    /// and every object's line is the line of its start.
    #[test]
    fn streamed_lists_equal_lists_read_whole() {
        for (n, pretty, bom) in [
            (1, false, false),
            (7, true, false),
            (40, false, true),
            (40, true, true),
            (300, true, false),
            (300, false, false),
        ] {
            let bytes = list(n, pretty, bom);
            let mut whole = ClusterSnapshot::new();
            let outcome = whole.add_bytes("dump.json", &bytes);
            // (windows of a few bytes on the small lists only: they take long)
            let windows = [1, 2, 3, 17, 64, 500, 4096, 1 << 20];
            for (window, parallel) in windows
                .into_iter()
                .filter(|&w| n < 100 || w > 3)
                .flat_map(|w| PARALLEL.map(|p| (w, p)))
            {
                let mut streamed = ClusterSnapshot::new();
                let got = streamed
                    .add_json_reader_window("dump.json", &mut &bytes[..], window, parallel)
                    .expect("no io error");
                assert_eq!(
                    got,
                    StreamOutcome::Loaded(outcome),
                    "window {window}, {parallel:?}"
                );
                assert_eq!(streamed, whole, "window {window}");
                for kind in ["Node", "Pod", "Event", "ResourceQuota"] {
                    let starts = streamed.last_input_object_starts(kind).expect("starts");
                    assert_eq!(
                        starts,
                        whole.last_input_object_starts(kind).expect("starts")
                    );
                    let lines = streamed.last_input_object_lines(kind).expect("lines");
                    let want: Vec<usize> = starts.iter().map(|&at| line_of(&bytes, at)).collect();
                    assert_eq!(lines, want.as_slice(), "{kind}, window {window}");
                }
            }
        }
        // the pretty and compact lists of 300 items were shared out among threads, and the
        // bytes read ahead meanwhile were taken both ways
        assert!(PARALLEL_ROUNDS.load(std::sync::atomic::Ordering::Relaxed) > 0);
        assert!(AHEAD_IN_PLACE.load(std::sync::atomic::Ordering::Relaxed) > 0);
        assert!(AHEAD_COPIED.load(std::sync::atomic::Ordering::Relaxed) > 0);
    }

    /// Text with characters of two to four bytes, cut anywhere by the window (inside a
    /// character too), reads as the same List read whole; so does a List with bytes that are
    /// not UTF-8 in a field no object keeps (read as bytes, as the whole-input reader does).
    #[test]
    fn multibyte_text_and_stray_bytes_read_as_whole() {
        let text = String::from_utf8(list(60, true, false)).expect("utf-8");
        let multibyte = text
            .replace(r#""b\"}{""#, r#""é-日本-🚀""#)
            .replace("FailedScheduling", "Échec-調度-🙂");
        assert!(
            multibyte.len() > text.len() + 60,
            "non-ASCII text in the list"
        );
        // a byte that is not UTF-8 in a field that no object keeps
        let mut stray = text
            .replacen(r#""uid": "u6""#, r#""uid": "u6", "x": "~stray~""#, 1)
            .into_bytes();
        let at = stray
            .windows(7)
            .position(|w| w == b"~stray~")
            .expect("the stray field");
        stray.splice(at..at + 7, [b'a', 0xFF, b'b']);
        assert!(std::str::from_utf8(&stray).is_err());
        for bytes in [multibyte.into_bytes(), stray] {
            let mut whole = ClusterSnapshot::new();
            let outcome = whole.add_bytes("dump.json", &bytes);
            for (window, parallel) in [1, 2, 3, 5, 17, 64, 4096]
                .into_iter()
                .flat_map(|w| PARALLEL.map(|p| (w, p)))
            {
                let mut streamed = ClusterSnapshot::new();
                let got = streamed
                    .add_json_reader_window("dump.json", &mut &bytes[..], window, parallel)
                    .expect("no io error");
                assert_eq!(
                    got,
                    StreamOutcome::Loaded(outcome),
                    "window {window}, {parallel:?}"
                );
                assert_eq!(streamed, whole, "window {window}, {parallel:?}");
            }
        }
    }

    /// The byte-wide newline count is exact across its 255-byte chunks.
    #[test]
    fn newlines_are_counted_exactly() {
        for len in [0, 1, 254, 255, 256, 511, 1000] {
            let all = vec![b'\n'; len];
            assert_eq!(super::newlines(&all), len);
            let mixed: Vec<u8> = (0..len)
                .map(|i| if i % 3 == 0 { b'\n' } else { b'x' })
                .collect();
            assert_eq!(super::newlines(&mixed), len.div_ceil(3));
        }
    }

    /// What the streaming reader does not take leaves the snapshot as it was.
    #[test]
    fn other_inputs_are_read_whole_and_leave_nothing() {
        let good = String::from_utf8(list(12, false, false)).expect("utf-8");
        let cut = &good[..good.len() / 2];
        let broken = good.replacen(r#""cpu":"250m""#, r#""cpu":250m"#, 1);
        let kindless = good.replacen(
            r#"{"apiVersion":"v1","kind":"Pod","#,
            r#"{"apiVersion":"v1","#,
            1,
        );
        let bad_quantity = good.replacen(r#""cpu":"250m""#, r#""cpu":"lots""#, 1);
        // a broken item late in the list (in another part than the first)
        let last_cpu = good.rfind(r#""cpu":"250m""#).expect("a pod");
        let broken_late = format!(
            "{}{}{}",
            &good[..last_cpu],
            r#""cpu":250m"#,
            &good[last_cpu + r#""cpu":"250m""#.len()..]
        );
        let trailing_comma = good.replacen(r#"}],"kind":"List""#, r#"},],"kind":"List""#, 1);
        let two_values = format!("{good}{good}");
        let not_list = good.replacen(r#""kind":"List""#, r#""kind":"Pod""#, 1);
        let unknown_only = r#"{"apiVersion":"v1","items":[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}}],"kind":"List"}"#;
        let yaml = "apiVersion: v1\nkind: List\nitems: []\n";
        for text in [
            cut,
            &broken,
            &kindless,
            &bad_quantity,
            &two_values,
            &broken_late,
            &trailing_comma,
            &not_list,
            unknown_only,
            yaml,
            "",
        ] {
            for (window, parallel) in [5, 1 << 20]
                .into_iter()
                .flat_map(|w| PARALLEL.map(|p| (w, p)))
            {
                let mut s =
                    ClusterSnapshot::from_slice("first.json", list(3, false, false).as_slice());
                let before = s.clone();
                let got = s
                    .add_json_reader_window("x.json", &mut text.as_bytes(), window, parallel)
                    .expect("no io error");
                assert_eq!(got, StreamOutcome::ReadWhole, "{text:.60}");
                assert_eq!(s, before);
                assert_eq!(s.inputs.len(), before.inputs.len());
            }
        }
    }

    /// Over `limits.max_file_bytes` the input is read whole (which reports the limit).
    #[test]
    fn the_file_limit_bounds_what_is_read() {
        let bytes = list(40, false, false);
        let limits = crate::limits::Limits {
            max_file_bytes: 100,
            ..Default::default()
        };
        let mut s = ClusterSnapshot::new().with_limits(limits);
        let got = s
            .add_json_reader_window("x.json", &mut &bytes[..], 64, PARALLEL[1])
            .expect("no io error");
        assert_eq!(got, StreamOutcome::ReadWhole);
        assert!(s.is_empty());
    }

    /// Over `limits.max_objects_per_snapshot`, or into a snapshot that already holds objects
    /// (which may be merged with this input's), the input is read whole.
    #[test]
    fn object_limits_and_merges_are_read_whole() {
        let bytes = list(30, false, false);
        let limits = crate::limits::Limits {
            max_objects_per_snapshot: 7,
            ..Default::default()
        };
        let mut s = ClusterSnapshot::new().with_limits(limits);
        let got = s
            .add_json_reader_window("a.json", &mut &bytes[..], 33, PARALLEL[1])
            .expect("no io error");
        assert_eq!(got, StreamOutcome::ReadWhole);
        assert!(s.is_empty() && s.limits_hit.is_empty() && s.problems.is_empty());
        let limits = crate::limits::Limits {
            max_objects_per_snapshot: 26,
            ..Default::default()
        };
        let mut s = ClusterSnapshot::new().with_limits(limits);
        let got = s
            .add_json_reader_window("a.json", &mut &bytes[..], 33, PARALLEL[1])
            .expect("no io error");
        assert!(matches!(got, StreamOutcome::Loaded(_)), "under the limit");
        let got = s
            .add_json_reader_window("b.json", &mut &bytes[..], 33, PARALLEL[1])
            .expect("no io error");
        assert_eq!(got, StreamOutcome::ReadWhole);
    }
}
