//! Message templates with `{name}` placeholders, rendered and read back with one definition.
//!
//! The scheduler grammar ([`crate::schedmsg`]) and the diagnosis message catalog
//! (`cube_diagnose::catalog`) describe each upstream message once, as a template such as
//! `node(s) had untolerated taint {{{key}: {value}}}` or
//! `token id "{token_id:w}" is invalid for this cluster or it has expired`, and use it both to
//! print the message and to recognise it in a log line, extracting the placeholder values.
//!
//! Syntax: `{name}` is a placeholder matching any text (possibly empty, shortest first, then
//! longer when the rest of the template does not match); `{name:w}` matches one word (no
//! whitespace, at least one character); `{{` and `}}` are literal braces. Two placeholders may
//! not touch (a literal must separate them), so every match is unambiguous enough to read back.

use std::fmt;

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Piece {
    /// Literal text.
    Literal(String),
    /// A placeholder.
    Hole {
        /// Its name.
        name: String,
        /// True for `{name:w}`: one word, no whitespace, not empty.
        word: bool,
    },
}

/// Why a template text is not a valid template.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("template {template:?}: {message}")]
#[non_exhaustive]
pub struct TemplateError {
    /// The template text.
    pub template: String,
    /// What is wrong with it.
    pub message: String,
}

/// A parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    text: String,
    pieces: Vec<Piece>,
}

/// Placeholder values extracted by a match, in template order.
pub type Captures = Vec<(String, String)>;

impl Template {
    /// Parses `text` (see the module documentation for the syntax).
    ///
    /// # Errors
    /// An unclosed or empty placeholder, an unknown `:` flag, a lone `}`, or two placeholders
    /// without literal text between them.
    pub fn new(text: &str) -> Result<Self, TemplateError> {
        let err = |message: &str| TemplateError {
            template: text.to_owned(),
            message: message.to_owned(),
        };
        let mut pieces: Vec<Piece> = Vec::new();
        let mut lit = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    lit.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    lit.push('}');
                }
                '}' => return Err(err("lone `}` (write `}}` for a literal brace)")),
                '{' => {
                    let mut spec = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break,
                            Some(ch) => spec.push(ch),
                            None => return Err(err("unclosed placeholder")),
                        }
                    }
                    let (name, flag) = match spec.split_once(':') {
                        Some((n, f)) => (n, Some(f)),
                        None => (spec.as_str(), None),
                    };
                    if name.is_empty()
                        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        return Err(err("a placeholder name is letters, digits and `_`"));
                    }
                    let word = match flag {
                        None => false,
                        Some("w") => true,
                        Some(_) => return Err(err("unknown placeholder flag (only `:w`)")),
                    };
                    if !lit.is_empty() {
                        pieces.push(Piece::Literal(std::mem::take(&mut lit)));
                    } else if matches!(pieces.last(), Some(Piece::Hole { .. })) {
                        return Err(err("two placeholders need literal text between them"));
                    }
                    pieces.push(Piece::Hole {
                        name: name.to_owned(),
                        word,
                    });
                }
                _ => lit.push(c),
            }
        }
        if !lit.is_empty() {
            pieces.push(Piece::Literal(lit));
        }
        if pieces.is_empty() {
            return Err(err("empty template"));
        }
        Ok(Template {
            text: text.to_owned(),
            pieces,
        })
    }

    /// The template text as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Placeholder names, in order.
    pub fn holes(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Hole { name, .. } => Some(name.as_str()),
            Piece::Literal(_) => None,
        })
    }

    /// The literal parts, in order.
    pub fn literals(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Literal(l) => Some(l.as_str()),
            Piece::Hole { .. } => None,
        })
    }

    /// Renders the template; a placeholder `value` has no value for stays as `{name}`.
    pub fn render<'v>(&self, value: impl Fn(&str) -> Option<&'v str>) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Literal(l) => out.push_str(l),
                Piece::Hole { name, .. } => match value(name) {
                    Some(v) => out.push_str(v),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                },
            }
        }
        out
    }

    /// Renders with values given as pairs.
    pub fn render_with(&self, values: &[(&str, &str)]) -> String {
        self.render(|n| values.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
    }

    /// Matches the whole of `text` (no text before or after).
    pub fn match_whole(&self, text: &str) -> Option<Captures> {
        let mut caps = Vec::new();
        match_from(&self.pieces, text, 0, true, &mut caps).map(|_| caps)
    }

    /// The first place in `text` where the template matches: the byte range and the captures.
    ///
    /// A leading placeholder takes the word just before the first literal; a trailing
    /// placeholder takes one word (`{name:w}`) or the rest of the text, trailing whitespace
    /// removed (`{name}`).
    pub fn find(&self, text: &str) -> Option<(std::ops::Range<usize>, Captures)> {
        let (lead, rest) = match self.pieces.first() {
            Some(Piece::Hole { name, .. }) => (Some(name.as_str()), &self.pieces[1..]),
            _ => (None, &self.pieces[..]),
        };
        let Some(Piece::Literal(first)) = rest.first() else {
            // a template that is one placeholder matches any text
            let t = text.trim();
            let name = lead.unwrap_or("");
            return Some((0..text.len(), vec![(name.to_owned(), t.to_owned())]));
        };
        for (pos, _) in text.match_indices(first.as_str()) {
            let mut caps = Vec::new();
            let start = match lead {
                Some(name) => {
                    let before = &text[..pos];
                    let word_start = before.rfind(char::is_whitespace).map_or(0, |i| {
                        i + before[i..].chars().next().map_or(1, char::len_utf8)
                    });
                    if word_start == pos {
                        continue;
                    }
                    caps.push((name.to_owned(), text[word_start..pos].to_owned()));
                    word_start
                }
                None => pos,
            };
            if let Some(end) = match_from(rest, text, pos, false, &mut caps) {
                return Some((start..end, caps));
            }
        }
        None
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `value` without the closing brackets (`}`, `]`, `)`) at its end that it does not open
/// itself: the end of the struct or list a message was printed inside. (Quotes are left alone:
/// a value may hold the closing quote of text opened before it.)
fn trim_unbalanced_closers(mut value: &str) -> &str {
    loop {
        let t = value.trim_end();
        let Some(last) = t.chars().last() else {
            return t;
        };
        let unbalanced = match last {
            '}' => t.matches('}').count() > t.matches('{').count(),
            ']' => t.matches(']').count() > t.matches('[').count(),
            ')' => t.matches(')').count() > t.matches('(').count(),
            _ => false,
        };
        if !unbalanced {
            return t;
        }
        value = &t[..t.len() - 1];
    }
}

/// Matches `pieces` at `text[pos..]`; `whole`: must end at the end of `text`. Returns the end.
fn match_from(
    pieces: &[Piece],
    text: &str,
    pos: usize,
    whole: bool,
    caps: &mut Captures,
) -> Option<usize> {
    let Some((head, tail)) = pieces.split_first() else {
        return (!whole || pos == text.len()).then_some(pos);
    };
    match head {
        Piece::Literal(l) => {
            if text[pos..].starts_with(l.as_str()) {
                match_from(tail, text, pos + l.len(), whole, caps)
            } else {
                None
            }
        }
        Piece::Hole { name, word } => {
            let rest = &text[pos..];
            match tail.first() {
                None => {
                    let value = if *word {
                        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                        if whole && end != rest.len() {
                            return None;
                        }
                        &rest[..end]
                    } else if whole {
                        rest
                    } else {
                        rest.trim_end()
                    };
                    // a message embedded in a struct or list (`{... Message:PLEG is not
                    // healthy: ...; threshold is 3m0s}`, `err="[...]"`) ends before the
                    // brackets it did not open
                    let value = if whole {
                        value
                    } else {
                        trim_unbalanced_closers(value)
                    };
                    if *word && value.is_empty() {
                        return None;
                    }
                    caps.push((name.clone(), value.to_owned()));
                    Some(pos + value.len())
                }
                Some(Piece::Literal(next)) => {
                    for (off, _) in rest.match_indices(next.as_str()) {
                        let value = &rest[..off];
                        if *word && (value.is_empty() || value.contains(char::is_whitespace)) {
                            if value.contains(char::is_whitespace) {
                                return None;
                            }
                            continue;
                        }
                        let mark = caps.len();
                        caps.push((name.clone(), value.to_owned()));
                        if let Some(end) = match_from(tail, text, pos + off, whole, caps) {
                            return Some(end);
                        }
                        caps.truncate(mark);
                    }
                    None
                }
                Some(Piece::Hole { .. }) => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_value_ends_before_brackets_it_did_not_open() {
        let t = Template::new("threshold is {threshold:w}").unwrap();
        let (_, c) = t
            .find("{Message:PLEG is not healthy; threshold is 3m0s}")
            .unwrap();
        assert_eq!(c[0].1, "3m0s");
        let t = Template::new("failed: {error}").unwrap();
        let (_, c) = t.find("err=[failed: no route (to host)]").unwrap();
        assert_eq!(c[0].1, "no route (to host)");
        let (_, c) = t.find("failed: map[a:{b}]").unwrap();
        assert_eq!(c[0].1, "map[a:{b}]");
    }

    #[test]
    fn render_and_read_back() {
        let t = Template::new("node(s) had untolerated taint {{{key}: {value}}}").unwrap();
        let s = t.render_with(&[("key", "node-role.kubernetes.io/master"), ("value", "")]);
        assert_eq!(
            s,
            "node(s) had untolerated taint {node-role.kubernetes.io/master: }"
        );
        let caps = t.match_whole(&s).unwrap();
        assert_eq!(caps[0].1, "node-role.kubernetes.io/master");
        assert_eq!(caps[1].1, "");
    }

    #[test]
    fn find_inside_a_line_with_words() {
        let t = Template::new("token id \"{id:w}\" is invalid for this cluster").unwrap();
        let line =
            "[discovery] error: token id \"abcdef\" is invalid for this cluster or it has expired";
        let (r, caps) = t.find(line).unwrap();
        assert_eq!(
            &line[r.clone()],
            "token id \"abcdef\" is invalid for this cluster"
        );
        assert_eq!(caps, vec![("id".to_owned(), "abcdef".to_owned())]);
        let lead = Template::new("{host} kubelet[{pid:w}]: {rest}").unwrap();
        let (_, caps) = lead
            .find("Jul 24 11:45:25 node-01 kubelet[8442]: W0724 x")
            .unwrap();
        assert_eq!(caps[0].1, "node-01");
        assert_eq!(caps[2].1, "W0724 x");
    }

    #[test]
    fn backtracks_when_a_literal_repeats() {
        let t = Template::new("a {x} b {y} c").unwrap();
        let caps = t.match_whole("a 1 b 2 b 3 c").unwrap();
        assert_eq!(caps[0].1, "1");
        assert_eq!(caps[1].1, "2 b 3");
    }

    #[test]
    fn bad_templates_are_errors() {
        assert!(Template::new("{a}{b}").is_err());
        assert!(Template::new("x {a").is_err());
        assert!(Template::new("x } y").is_err());
        assert!(Template::new("{a:q}").is_err());
        assert!(Template::new("").is_err());
    }
}
