//! Text safe for a terminal: control, escape, bidirectional and invisible characters made
//! visible.
//!
//! Server messages, object names and pasted logs can carry escape sequences (`ESC [ 2 J`),
//! carriage returns, Unicode bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E,
//! U+200F, U+061C) that reorder what a reader sees, and invisible characters that make two
//! different names look the same or carry hidden text (zero-width spaces and joiners, U+FEFF,
//! the soft hyphen, tag characters). [`escape`] writes each such character as a visible escape
//! (`\x1b`, `\r`, `\u{202e}`, `\u{200b}`) so human-readable output shows exactly what was
//! received and nothing more; [`is_unsafe`] is the one list of them, used by the table, stderr,
//! JSON, SARIF and JUnit writers alike.

use std::borrow::Cow;
use std::fmt::Write as _;

/// True for a character [`escape`] rewrites (newline and tab excluded): C0 and C1 controls,
/// bidirectional controls, line and paragraph separators, and characters that show nothing
/// (zero-width space, joiners and marks U+200B–U+200F, word joiner and invisible operators
/// U+2060–U+206F, U+FEFF, soft hyphen U+00AD, combining grapheme joiner U+034F, Hangul fillers
/// U+115F, U+1160, U+3164, U+FFA0, Mongolian vowel separator U+180E, interlinear annotation
/// U+FFF9–U+FFFB, musical formatting U+1D173–U+1D17A, tag characters U+E0000–U+E007F) and the
/// variation selectors used to smuggle hidden bytes (U+FE00–U+FE0D, U+E0100–U+E01EF).
///
/// U+FE0E and U+FE0F (text and emoji presentation, `⚠️`) are kept: each follows a visible
/// character whose look it only picks, they are common in messages, and one of them carries no
/// more than a bit.
pub fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2060}'..='\u{2065}'
                | '\u{206A}'..='\u{206F}'
                | '\u{061C}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{00AD}'
                | '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{FE00}'..='\u{FE0D}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E007F}'
                | '\u{E0100}'..='\u{E01EF}'
        )
}

/// JSON text with every character [`is_unsafe`] names that JSON may carry raw (C1 controls,
/// bidirectional controls, line and paragraph separators; serde_json escapes only the C0
/// controls) written as a `\uXXXX` escape: the same JSON value for every parser, and nothing
/// a terminal acts on when the document is printed. Structure characters are ASCII, so the
/// rewritten characters can only stand inside strings.
///
/// ```
/// use cube_model::terminal::json_safe;
/// assert_eq!(json_safe("{\"n\":\"a\u{202e}b\"}"), "{\"n\":\"a\\u202eb\"}");
/// let v: String = serde_json::from_str(&json_safe("\"x\u{9b}y\"")).unwrap();
/// assert_eq!(v, "x\u{9b}y");
/// ```
pub fn json_safe(json: &str) -> Cow<'_, str> {
    if !json.chars().any(|c| !c.is_ascii() && is_unsafe(c)) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if !c.is_ascii() && is_unsafe(c) {
            // a character outside the BMP (a tag character) as its UTF-16 surrogate pair, the
            // only `\u` form JSON has for it
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A writer that passes JSON text through [`json_safe`] on its way to `inner` (for documents
/// streamed with `serde_json::to_writer`): a character split between two writes is held until
/// it is complete.
#[derive(Debug)]
pub struct JsonSafeWriter<W: std::io::Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: std::io::Write> JsonSafeWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }

    /// Writes what is still held (the bytes of a character never completed) and returns the
    /// inner writer, unflushed.
    ///
    /// # Errors
    /// The inner writer's.
    pub fn finish(mut self) -> std::io::Result<W> {
        let rest = std::mem::take(&mut self.pending);
        self.inner.write_all(&rest)?;
        Ok(self.inner)
    }
}

impl<W: std::io::Write> std::io::Write for JsonSafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        // the longest prefix of whole characters
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => {
                // not UTF-8 (serde_json writes none): passed on as it is
                let all = std::mem::take(&mut self.pending);
                self.inner.write_all(&all)?;
                return Ok(buf.len());
            }
        };
        let text = std::str::from_utf8(&self.pending[..valid]).unwrap_or_default();
        let safe = json_safe(text).into_owned();
        self.inner.write_all(safe.as_bytes())?;
        self.pending.drain(..valid);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Escapes control characters (except newline and tab), C1 controls and bidirectional
/// controls. Newlines are kept: use [`escape_line`] for text that must stay on one line.
///
/// ```
/// use cube_model::terminal::{escape, escape_line};
/// assert_eq!(escape("a\u{1b}[2Jb"), "a\\x1b[2Jb");
/// assert_eq!(escape("evil\u{202e}txt.exe"), "evil\\u{202e}txt.exe");
/// assert_eq!(escape_line("two\nlines\r"), "two\\nlines\\r");
/// assert_eq!(escape("plain"), "plain");
/// ```
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_with(text, false)
}

/// [`escape`], and newlines too (`\n`): for names, one-line fields and table cells.
pub fn escape_line(text: &str) -> Cow<'_, str> {
    escape_with(text, true)
}

fn escape_with(text: &str, newlines: bool) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) || (newlines && c == '\n');
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !bad(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_is_escaped() {
        for (raw, want) in [
            ("\u{7}", "\\x07"),
            ("\u{7f}", "\\x7f"),
            ("\u{9b}31m", "\\x9b31m"),
            (
                "\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}",
                "\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}",
            ),
            (
                "\u{2066}\u{2067}\u{2068}\u{2069}",
                "\\u{2066}\\u{2067}\\u{2068}\\u{2069}",
            ),
            ("\u{200e}\u{200f}", "\\u{200e}\\u{200f}"),
            ("a\rb", "a\\rb"),
        ] {
            assert_eq!(escape(raw), want);
        }
        assert_eq!(escape("tab\tand\nnewline"), "tab\tand\nnewline");
        // invisible characters (red team 2 #05): a spoofed name shows its extra character
        for (raw, want) in [
            ("gpu-node-01\u{200b}", "gpu-node-01\\u{200b}"),
            ("zwj\u{200d}", "zwj\\u{200d}"),
            ("bom\u{feff}", "bom\\u{feff}"),
            ("soft\u{ad}hyphen", "soft\\xadhyphen"),
            ("wj\u{2060}\u{2064}", "wj\\u{2060}\\u{2064}"),
            ("tag\u{e0041}\u{e007f}", "tag\\u{e0041}\\u{e007f}"),
            ("filler\u{3164}", "filler\\u{3164}"),
            ("vs\u{fe00}\u{e0100}", "vs\\u{fe00}\\u{e0100}"),
        ] {
            assert_eq!(escape(raw), want);
        }
        // emoji presentation selectors and joined text stay as they are
        assert_eq!(
            escape("\u{26a0}\u{fe0f} warning"),
            "\u{26a0}\u{fe0f} warning"
        );
        assert_eq!(escape("naïve café"), "naïve café");
        assert_eq!(escape_line("a\nb"), "a\\nb");
        assert_eq!(escape("日本語 ümlaut"), "日本語 ümlaut");
    }

    /// JSON keeps the same value for every parser: supplementary characters become surrogate
    /// pairs, zero-width and bidirectional characters `\uXXXX`.
    #[test]
    fn json_escapes_parse_back_to_the_same_string() {
        let raw = "p\u{202e}evil\u{9b}31m\u{200b}\u{e0041}\u{feff}";
        let json = serde_json::to_string(raw).expect("json");
        let safe = json_safe(&json);
        assert!(safe.is_ascii(), "{safe}");
        assert!(safe.contains("\\udb40\\udc41"), "{safe}");
        let back: String = serde_json::from_str(&safe).expect("valid JSON");
        assert_eq!(back, raw);
    }
}
