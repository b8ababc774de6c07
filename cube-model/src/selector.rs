//! Label selectors, node selectors, taints and tolerations with Kubernetes' exact semantics.
//!
//! What lives here, and the upstream code each item mirrors:
//! - [`parse_selector`] / [`Selector`]: the selector string syntax of kubectl `-l` and
//!   apimachinery `labels.Parse` (`env=prod,location in (beijing)`, `!gpu`, `tier!=db`,
//!   `zone notin (a,b)`, `gpu`, `count>3`), matched with [`Selector::matches`].
//! - [`parse_label_selector`] (also `LabelSelector::from_str`): the same string turned into our
//!   [`LabelSelector`] as upstream `metav1.ParseToLabelSelector` does.
//! - [`LabelSelector::matches`]: `metav1.LabelSelectorAsSelector(sel).Matches(labels)`; an empty
//!   selector matches everything; an invalid one matches nothing.
//! - [`Toleration::tolerates`]: `v1.Toleration.ToleratesTaint` (component-helpers
//!   `scheduling/corev1`), and [`find_untolerated_taint`]: `FindMatchingUntoleratedTaint`.
//! - [`NodeSelectorTerm::matches`], [`NodeSelector::matches`]: component-helpers
//!   `scheduling/corev1/nodeaffinity` (labels via `matchExpressions`, `metadata.name` via
//!   `matchFields`; In, NotIn, Exists, DoesNotExist, Gt, Lt).
//! - [`pod_matches_node_selector_and_affinity`]: upstream `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`
//!   (the scheduler's NodeAffinity filter: `spec.nodeSelector` AND required node affinity).
//! - Name validation shared by the crate: [`validate_qualified_name`] (label keys, resource
//!   names), [`validate_label_value`], [`validate_dns1123_label`], [`validate_dns1123_subdomain`]
//!   (apimachinery `util/validation`).

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use crate::error::SelectorError;
use crate::objects::{
    LabelSelector, LabelSelectorRequirement, Labels, Node, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, PodSpec, Taint, Toleration,
};

// ------------------------------------------------------------------ validation helpers

const QUALIFIED_NAME_MAX: usize = 63;
const LABEL_VALUE_MAX: usize = 63;
const DNS1123_LABEL_MAX: usize = 63;
const DNS1123_SUBDOMAIN_MAX: usize = 253;

const QUALIFIED_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` (the name part of a qualified name, a label value).
fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => alnum(f) && alnum(l) && b.iter().all(|c| alnum(c) || *c == b'-'),
        _ => false,
    }
}

/// Checks a qualified name (label key, annotation key, extended resource name): an optional
/// DNS-1123 subdomain prefix of at most 253 characters and `/`, then a name of 1 to 63 characters
/// matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
///
/// Mirrors apimachinery `validation.IsQualifiedName`; returns every problem found (empty = valid),
/// worded as upstream (without upstream's example lists).
pub fn validate_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                for e in validate_dns1123_subdomain(prefix) {
                    errs.push(format!("prefix part {e}"));
                }
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {QUALIFIED_NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'MyName',  or 'my.name',  or '123-abc')"
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > QUALIFIED_NAME_MAX {
        errs.push(format!(
            "name part must be no more than {QUALIFIED_NAME_MAX} characters"
        ));
    }
    if !name.is_empty() && !is_qualified_name_part(name) {
        errs.push(format!("name part {QUALIFIED_NAME_MSG}"));
    }
    errs
}

/// Checks a label value: empty, or at most 63 characters matching
/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]` (apimachinery `validation.IsValidLabelValue`).
pub fn validate_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX {
        errs.push(format!("must be no more than {LABEL_VALUE_MAX} characters"));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errs.push(format!("a valid label {QUALIFIED_NAME_MSG}"));
    }
    errs
}

/// Checks a DNS-1123 label (namespace names, most object names): 1 to 63 characters of
/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?` (apimachinery `validation.IsDNS1123Label`).
pub fn validate_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX {
        errs.push(format!(
            "must be no more than {DNS1123_LABEL_MAX} characters"
        ));
    }
    if !is_dns1123_label(value) {
        errs.push(DNS1123_LABEL_MSG.to_owned());
    }
    errs
}

/// Checks a DNS-1123 subdomain (label key prefixes, PriorityClass names): 1 to 253 characters,
/// dot-separated DNS-1123 labels (apimachinery `validation.IsDNS1123Subdomain`).
pub fn validate_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(format!(
            "must be no more than {DNS1123_SUBDOMAIN_MAX} characters"
        ));
    }
    if value.is_empty() || !value.split('.').all(is_dns1123_label) {
        errs.push(DNS1123_SUBDOMAIN_MSG.to_owned());
    }
    errs
}

// ------------------------------------------------------------------ operators and requirements

/// A selector operator (apimachinery `selection.Operator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Operator {
    /// `in (a,b)`: the label exists and its value is one of the values.
    In,
    /// `notin (a,b)`: the label is absent, or its value is none of the values.
    NotIn,
    /// `key=value` (one value; same match as `In`).
    Equals,
    /// `key==value` (same as `Equals`).
    DoubleEquals,
    /// `key!=value` (same match as `NotIn`).
    NotEquals,
    /// `key`: the label exists.
    Exists,
    /// `!key`: the label is absent.
    DoesNotExist,
    /// `key>N`: the label exists and is an integer greater than `N`.
    GreaterThan,
    /// `key<N`: the label exists and is an integer less than `N`.
    LessThan,
}

impl Operator {
    /// The operator as written in a selector string (`in`, `notin`, `=`, `==`, `!=`, `exists`,
    /// `!`, `gt`, `lt`), as upstream's `selection.Operator` constants.
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::In => "in",
            Operator::NotIn => "notin",
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::Exists => "exists",
            Operator::DoesNotExist => "!",
            Operator::GreaterThan => "gt",
            Operator::LessThan => "lt",
        }
    }

    /// Parses an API operator name (`In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`) as used
    /// in `matchExpressions`; `None` for anything else (the API is case-sensitive).
    pub fn from_api(op: &str) -> Option<Operator> {
        Some(match op {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            "Gt" => Operator::GreaterThan,
            "Lt" => Operator::LessThan,
            _ => return None,
        })
    }
}

/// One requirement of a [`Selector`] (apimachinery `labels.Requirement`): a key, an operator and
/// a sorted, de-duplicated set of values. Built only through [`Requirement::new`], which applies
/// upstream `NewRequirement`'s checks, so a `Requirement` is always valid.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

/// Parses an int64 as Go's `strconv.ParseInt(s, 10, 64)` (optional sign, decimal digits).
fn parse_go_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Requirement {
    /// Builds a requirement with upstream `labels.NewRequirement`'s checks: the key must be a
    /// qualified name; `In`/`NotIn` need at least one value; `=`, `==`, `!=` exactly one;
    /// `Exists`/`DoesNotExist` none; `Gt`/`Lt` exactly one integer; every value must be a valid
    /// label value.
    ///
    /// # Errors
    /// [`SelectorError::InvalidKey`], [`SelectorError::InvalidValue`] or
    /// [`SelectorError::InvalidRequirement`]; `selector` in the error is the key.
    pub fn new<I, S>(key: &str, operator: Operator, values: I) -> Result<Self, SelectorError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let set: BTreeSet<String> = values.into_iter().map(Into::into).collect();
        Self::from_set(key, operator, set, key)
    }

    fn from_set(
        key: &str,
        operator: Operator,
        values: BTreeSet<String>,
        selector: &str,
    ) -> Result<Self, SelectorError> {
        let key_errs = validate_qualified_name(key);
        if !key_errs.is_empty() {
            return Err(SelectorError::InvalidKey {
                selector: selector.to_owned(),
                key: key.to_owned(),
                reason: key_errs.join("; "),
            });
        }
        let invalid = |reason: &str| SelectorError::InvalidRequirement {
            selector: selector.to_owned(),
            key: key.to_owned(),
            reason: reason.to_owned(),
        };
        match operator {
            Operator::In | Operator::NotIn if values.is_empty() => {
                return Err(invalid(
                    "for 'in', 'notin' operators, values set can't be empty",
                ));
            }
            Operator::Equals | Operator::DoubleEquals | Operator::NotEquals
                if values.len() != 1 =>
            {
                return Err(invalid(
                    "exact-match compatibility requires one single value",
                ));
            }
            Operator::Exists | Operator::DoesNotExist if !values.is_empty() => {
                return Err(invalid(
                    "values set must be empty for exists and does not exist",
                ));
            }
            Operator::GreaterThan | Operator::LessThan => {
                if values.len() != 1 {
                    return Err(invalid(
                        "for 'Gt', 'Lt' operators, exactly one value is required",
                    ));
                }
                if values.iter().any(|v| parse_go_int(v).is_none()) {
                    return Err(invalid(
                        "for 'Gt', 'Lt' operators, the value must be an integer",
                    ));
                }
            }
            _ => {}
        }
        for v in &values {
            let errs = validate_label_value(v);
            if !errs.is_empty() {
                return Err(SelectorError::InvalidValue {
                    selector: selector.to_owned(),
                    key: key.to_owned(),
                    value: v.clone(),
                    reason: errs.join("; "),
                });
            }
        }
        Ok(Requirement {
            key: key.to_owned(),
            operator,
            values: values.into_iter().collect(),
        })
    }

    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }
    /// The values, sorted and de-duplicated.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// Upstream `Requirement.Matches`: `In`/`=`/`==` need the key with one of the values;
    /// `NotIn`/`!=` hold when the key is absent or has none of the values; `Exists`/`!`; `Gt`/`Lt`
    /// need the key with an integer value compared to the requirement's integer.
    pub fn matches(&self, labels: &Labels) -> bool {
        matches_op(self.operator, &self.values, labels.get(&self.key))
    }
}

/// The shared matching rule for label selectors and node selector requirements.
fn matches_op(op: Operator, values: &[String], label: Option<&str>) -> bool {
    match op {
        Operator::In | Operator::Equals | Operator::DoubleEquals => {
            label.is_some_and(|l| values.iter().any(|v| v == l))
        }
        Operator::NotIn | Operator::NotEquals => {
            label.is_none_or(|l| values.iter().all(|v| v != l))
        }
        Operator::Exists => label.is_some(),
        Operator::DoesNotExist => label.is_none(),
        Operator::GreaterThan | Operator::LessThan => {
            let (Some(l), [v]) = (label, values) else {
                return false;
            };
            let (Some(l), Some(v)) = (parse_go_int(l), parse_go_int(v)) else {
                return false;
            };
            if op == Operator::GreaterThan {
                l > v
            } else {
                l < v
            }
        }
    }
}

impl fmt::Display for Requirement {
    /// Upstream `Requirement.String()`: `!key`, `key`, `key=v`, `key!=v`, `key>3`,
    /// `key in (a,b)`, `key notin (a,b)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = &self.key;
        let joined = self.values.join(",");
        match self.operator {
            Operator::DoesNotExist => write!(f, "!{key}"),
            Operator::Exists => write!(f, "{key}"),
            Operator::Equals => write!(f, "{key}={joined}"),
            Operator::DoubleEquals => write!(f, "{key}=={joined}"),
            Operator::NotEquals => write!(f, "{key}!={joined}"),
            Operator::GreaterThan => write!(f, "{key}>{joined}"),
            Operator::LessThan => write!(f, "{key}<{joined}"),
            Operator::In => write!(f, "{key} in ({joined})"),
            Operator::NotIn => write!(f, "{key} notin ({joined})"),
        }
    }
}

/// A parsed label selector (apimachinery `labels.Selector`): requirements ANDed, sorted by key as
/// upstream does. The empty selector matches everything.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

impl Selector {
    /// The selector that matches everything (`labels.Everything()`).
    pub fn everything() -> Self {
        Self::default()
    }
    /// A selector from requirements (sorted by key, stable, as upstream `Add`).
    pub fn from_requirements(mut requirements: Vec<Requirement>) -> Self {
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Selector { requirements }
    }
    /// The requirements, sorted by key.
    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }
    /// True when there are no requirements (matches everything).
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }
    /// True when every requirement matches `labels`.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }

    /// Converts to a [`LabelSelector`] as upstream `metav1.ParseToLabelSelector`: `=`/`==` go to
    /// `matchLabels`; `in` to `In`; `notin` and `!=` to `NotIn`; `key` to `Exists`; `!key` to
    /// `DoesNotExist`.
    ///
    /// Divergence, on purpose: upstream overwrites `matchLabels[key]` when a key is given twice
    /// with `=` (`a=1,a=2` silently becomes `a=2`); we keep the second one as an `In` expression so
    /// the converted selector matches exactly what the string does (nothing, in that example).
    ///
    /// # Errors
    /// [`SelectorError::UnsupportedOperator`] for `>` and `<`, which label selector objects cannot
    /// express (upstream: `"gt" isn't supported in label selectors`).
    pub fn to_label_selector(&self) -> Result<LabelSelector, SelectorError> {
        let mut out = LabelSelector::default();
        for r in &self.requirements {
            let op = match r.operator {
                Operator::Equals | Operator::DoubleEquals => {
                    let v = r.values.first().cloned().unwrap_or_default();
                    match out.match_labels.get(&r.key) {
                        Some(existing) if *existing != v => "In",
                        _ => {
                            out.match_labels.insert(r.key.clone(), v);
                            continue;
                        }
                    }
                }
                Operator::In => "In",
                Operator::NotIn | Operator::NotEquals => "NotIn",
                Operator::Exists => "Exists",
                Operator::DoesNotExist => "DoesNotExist",
                Operator::GreaterThan | Operator::LessThan => {
                    return Err(SelectorError::UnsupportedOperator {
                        selector: self.to_string(),
                        key: r.key.clone(),
                        operator: r.operator.as_str(),
                    });
                }
            };
            out.match_expressions.push(LabelSelectorRequirement {
                key: r.key.clone(),
                operator: op.to_owned(),
                values: r.values.clone(),
            });
        }
        Ok(out)
    }
}

impl fmt::Display for Selector {
    /// Upstream `Selector.String()`: requirements joined by `,` (empty for everything).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

impl FromStr for Selector {
    type Err = SelectorError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_selector(s)
    }
}

// ------------------------------------------------------------------ lexer and parser

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    End,
    Ident(String),
    In,
    NotIn,
    Bang,
    Equals,
    DoubleEquals,
    NotEquals,
    Gt,
    Lt,
    Open,
    Close,
    Comma,
}

impl Token {
    fn literal(&self) -> &str {
        match self {
            Token::End => "",
            Token::Ident(s) => s,
            Token::In => "in",
            Token::NotIn => "notin",
            Token::Bang => "!",
            Token::Equals => "=",
            Token::DoubleEquals => "==",
            Token::NotEquals => "!=",
            Token::Gt => ">",
            Token::Lt => "<",
            Token::Open => "(",
            Token::Close => ")",
            Token::Comma => ",",
        }
    }
}

fn is_special(c: char) -> bool {
    matches!(c, '=' | '!' | '(' | ')' | ',' | '>' | '<')
}

/// Upstream lexer: whitespace is ` `, `\t`, `\r`, `\n`; special symbols are `=`, `==`, `!=`,
/// `!`, `>`, `<`, `(`, `)`, `,`; anything else up to whitespace or a symbol is an identifier,
/// with `in` and `notin` as keywords.
fn lex(input: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = input.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if matches!(c, ' ' | '\t' | '\r' | '\n') {
            chars.next();
            continue;
        }
        if is_special(c) {
            chars.next();
            let next = chars.peek().map(|&(_, n)| n);
            let tok = match (c, next) {
                ('=', Some('=')) => {
                    chars.next();
                    Token::DoubleEquals
                }
                ('!', Some('=')) => {
                    chars.next();
                    Token::NotEquals
                }
                ('=', _) => Token::Equals,
                ('!', _) => Token::Bang,
                ('>', _) => Token::Gt,
                ('<', _) => Token::Lt,
                ('(', _) => Token::Open,
                (')', _) => Token::Close,
                _ => Token::Comma,
            };
            out.push(tok);
            continue;
        }
        let start = i;
        let mut end = input.len();
        while let Some(&(j, d)) = chars.peek() {
            if matches!(d, ' ' | '\t' | '\r' | '\n') || is_special(d) {
                end = j;
                break;
            }
            chars.next();
        }
        let word = input.get(start..end).unwrap_or_default();
        out.push(match word {
            "in" => Token::In,
            "notin" => Token::NotIn,
            _ => Token::Ident(word.to_owned()),
        });
    }
    out.push(Token::End);
    out
}

struct Parser<'a> {
    input: &'a str,
    tokens: Vec<Token>,
    pos: usize,
}

/// Lexing context: in `Values` the keywords `in`/`notin` read as identifiers (upstream).
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    KeyAndOperator,
    Values,
}

impl Parser<'_> {
    fn adjust(tok: &Token, ctx: Ctx) -> Token {
        match (tok, ctx) {
            (Token::In | Token::NotIn, Ctx::Values) => Token::Ident(tok.literal().to_owned()),
            _ => tok.clone(),
        }
    }
    fn lookahead(&self, ctx: Ctx) -> Token {
        self.tokens
            .get(self.pos)
            .map_or(Token::End, |t| Self::adjust(t, ctx))
    }
    fn consume(&mut self, ctx: Ctx) -> Token {
        let t = self.lookahead(ctx);
        if self.pos < self.tokens.len() {
            self.pos += 1;
        }
        t
    }
    fn syntax(&self, found: &Token, expected: &'static str) -> SelectorError {
        SelectorError::Syntax {
            selector: self.input.to_owned(),
            found: found.literal().to_owned(),
            expected,
        }
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, SelectorError> {
        let mut reqs = Vec::new();
        loop {
            let tok = self.lookahead(Ctx::Values);
            match tok {
                Token::Ident(_) | Token::Bang => {
                    reqs.push(self.parse_requirement()?);
                    let t = self.consume(Ctx::Values);
                    match t {
                        Token::End => return Ok(reqs),
                        Token::Comma => {
                            let t2 = self.lookahead(Ctx::Values);
                            if !matches!(t2, Token::Ident(_) | Token::Bang) {
                                return Err(self.syntax(&t2, "identifier after ','"));
                            }
                        }
                        other => return Err(self.syntax(&other, "',' or 'end of string'")),
                    }
                }
                Token::End => return Ok(reqs),
                other => {
                    return Err(self.syntax(&other, "!, identifier, or 'end of string'"));
                }
            }
        }
    }

    fn parse_requirement(&mut self) -> Result<Requirement, SelectorError> {
        let (key, op) = self.parse_key_and_infer_operator()?;
        if let Some(op) = op {
            return Requirement::from_set(&key, op, BTreeSet::new(), self.input);
        }
        let op = self.parse_operator()?;
        let values = match op {
            Operator::In | Operator::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        Requirement::from_set(&key, op, values, self.input)
    }

    fn parse_key_and_infer_operator(
        &mut self,
    ) -> Result<(String, Option<Operator>), SelectorError> {
        let mut op = None;
        let mut tok = self.consume(Ctx::Values);
        if tok == Token::Bang {
            op = Some(Operator::DoesNotExist);
            tok = self.consume(Ctx::Values);
        }
        let Token::Ident(key) = tok else {
            return Err(self.syntax(&tok, "identifier"));
        };
        let errs = validate_qualified_name(&key);
        if !errs.is_empty() {
            return Err(SelectorError::InvalidKey {
                selector: self.input.to_owned(),
                key,
                reason: errs.join("; "),
            });
        }
        if op.is_none() && matches!(self.lookahead(Ctx::Values), Token::End | Token::Comma) {
            op = Some(Operator::Exists);
        }
        Ok((key, op))
    }

    fn parse_operator(&mut self) -> Result<Operator, SelectorError> {
        let tok = self.consume(Ctx::KeyAndOperator);
        Ok(match tok {
            Token::In => Operator::In,
            Token::NotIn => Operator::NotIn,
            Token::Equals => Operator::Equals,
            Token::DoubleEquals => Operator::DoubleEquals,
            Token::NotEquals => Operator::NotEquals,
            Token::Gt => Operator::GreaterThan,
            Token::Lt => Operator::LessThan,
            other => {
                return Err(self.syntax(&other, "[!= == = > < in notin]"));
            }
        })
    }

    fn parse_values(&mut self) -> Result<BTreeSet<String>, SelectorError> {
        let tok = self.consume(Ctx::Values);
        if tok != Token::Open {
            return Err(self.syntax(&tok, "'('"));
        }
        match self.lookahead(Ctx::Values) {
            Token::Ident(_) | Token::Comma => {
                let set = self.parse_identifiers_list()?;
                let t = self.consume(Ctx::Values);
                if t != Token::Close {
                    return Err(self.syntax(&t, "')'"));
                }
                Ok(set)
            }
            Token::Close => {
                // upstream: "()" is the set holding the empty string
                self.consume(Ctx::Values);
                Ok(BTreeSet::from([String::new()]))
            }
            other => Err(self.syntax(&other, "',', ')' or identifier")),
        }
    }

    fn parse_identifiers_list(&mut self) -> Result<BTreeSet<String>, SelectorError> {
        let mut set = BTreeSet::new();
        loop {
            let tok = self.consume(Ctx::Values);
            match tok {
                Token::Ident(v) => {
                    set.insert(v);
                    match self.lookahead(Ctx::Values) {
                        Token::Comma => continue,
                        Token::Close => return Ok(set),
                        other => return Err(self.syntax(&other, "',' or ')'")),
                    }
                }
                Token::Comma => {
                    // upstream: "(,", ",)" and ",," contribute the empty value
                    if set.is_empty() {
                        set.insert(String::new());
                    }
                    match self.lookahead(Ctx::Values) {
                        Token::Close => {
                            set.insert(String::new());
                            return Ok(set);
                        }
                        Token::Comma => {
                            self.consume(Ctx::Values);
                            set.insert(String::new());
                        }
                        _ => {}
                    }
                }
                other => return Err(self.syntax(&other, "',', or identifier")),
            }
        }
    }

    fn parse_exact_value(&mut self) -> Result<BTreeSet<String>, SelectorError> {
        if matches!(self.lookahead(Ctx::Values), Token::End | Token::Comma) {
            return Ok(BTreeSet::from([String::new()]));
        }
        match self.consume(Ctx::Values) {
            Token::Ident(v) => Ok(BTreeSet::from([v])),
            other => Err(self.syntax(&other, "identifier")),
        }
    }
}

/// Parses a selector string as kubectl `-l` / apimachinery `labels.Parse` does.
///
/// Grammar: requirements separated by `,`, each one of `key`, `!key`, `key=value`,
/// `key==value`, `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key>N`, `key<N`.
/// Whitespace around tokens is ignored; `key=` means the empty value; the empty (or all
/// whitespace) string is the selector that matches everything.
///
/// # Errors
/// [`SelectorError::Syntax`] with upstream's `found '...', expected: ...` wording, or a
/// validation error for a bad key, value or value count.
///
/// ```
/// use cube_model::selector::parse_selector;
/// let sel = parse_selector("env=prod,location in (beijing)")?;
/// let labels = [("env", "prod"), ("location", "beijing")]
///     .into_iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
/// assert!(sel.matches(&labels));
/// # Ok::<(), cube_model::error::SelectorError>(())
/// ```
pub fn parse_selector(input: &str) -> Result<Selector, SelectorError> {
    let mut p = Parser {
        input,
        tokens: lex(input),
        pos: 0,
    };
    let reqs = p.parse()?;
    Ok(Selector::from_requirements(reqs))
}

/// Parses a selector string into our [`LabelSelector`] object (upstream
/// `metav1.ParseToLabelSelector`); see [`Selector::to_label_selector`] for the mapping.
///
/// # Errors
/// As [`parse_selector`], plus [`SelectorError::UnsupportedOperator`] for `>` / `<`.
pub fn parse_label_selector(input: &str) -> Result<LabelSelector, SelectorError> {
    parse_selector(input)?.to_label_selector()
}

impl FromStr for LabelSelector {
    type Err = SelectorError;
    /// See [`parse_label_selector`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_label_selector(s)
    }
}

impl LabelSelector {
    /// Converts to a [`Selector`] as upstream `metav1.LabelSelectorAsSelector`: `matchLabels`
    /// become `=` requirements, `matchExpressions` their operators (`In`, `NotIn`, `Exists`,
    /// `DoesNotExist`; API spelling, case-sensitive).
    ///
    /// # Errors
    /// [`SelectorError::UnknownOperator`] for any other operator, or a validation error for a bad
    /// key, value or value count (for example `In` with no values).
    pub fn to_selector(&self) -> Result<Selector, SelectorError> {
        let shown = self.to_string();
        let mut reqs = Vec::new();
        for (k, v) in &self.match_labels {
            reqs.push(Requirement::from_set(
                k,
                Operator::Equals,
                BTreeSet::from([v.to_owned()]),
                &shown,
            )?);
        }
        for e in &self.match_expressions {
            let op = match e.operator.as_str() {
                "In" => Operator::In,
                "NotIn" => Operator::NotIn,
                "Exists" => Operator::Exists,
                "DoesNotExist" => Operator::DoesNotExist,
                other => {
                    return Err(SelectorError::UnknownOperator {
                        selector: shown,
                        key: e.key.clone(),
                        operator: other.to_owned(),
                    });
                }
            };
            reqs.push(Requirement::from_set(
                &e.key,
                op,
                e.values.iter().cloned().collect(),
                &shown,
            )?);
        }
        Ok(Selector::from_requirements(reqs))
    }

    /// Checks the selector; `Ok` when it converts (see [`LabelSelector::to_selector`]).
    ///
    /// # Errors
    /// The first problem found, as [`LabelSelector::to_selector`].
    pub fn validate(&self) -> Result<(), SelectorError> {
        self.to_selector().map(|_| ())
    }

    /// True when the selector has neither `matchLabels` nor `matchExpressions` (it then matches
    /// everything, as upstream's empty-but-non-nil selector).
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// True when `labels` satisfy every `matchLabels` entry and every `matchExpressions`
    /// requirement (upstream `LabelSelectorAsSelector(sel).Matches(labels)`). An empty selector
    /// matches everything; an invalid selector (unknown operator, `In` without values, ...)
    /// matches nothing, as callers of upstream that treat the conversion error as "no match".
    pub fn matches(&self, labels: &Labels) -> bool {
        self.to_selector().is_ok_and(|s| s.matches(labels))
    }
}

impl fmt::Display for LabelSelector {
    /// The selector string (upstream `metav1.FormatLabelSelector`): `<none>` for the empty
    /// selector, otherwise requirements as in [`Selector`]'s `Display`. Invalid expressions are
    /// shown as `key <operator> (values)` so error messages still name them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("<none>");
        }
        let mut parts: Vec<String> = self
            .match_labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        for e in &self.match_expressions {
            let vals = e.values.join(",");
            parts.push(match e.operator.as_str() {
                "In" => format!("{} in ({vals})", e.key),
                "NotIn" => format!("{} notin ({vals})", e.key),
                "Exists" => e.key.clone(),
                "DoesNotExist" => format!("!{}", e.key),
                other => format!("{} {other} ({vals})", e.key),
            });
        }
        f.write_str(&parts.join(","))
    }
}

// ------------------------------------------------------------------ taints and tolerations

impl Toleration {
    /// True when this toleration tolerates `taint` (upstream `v1.Toleration.ToleratesTaint`):
    /// a non-empty effect must equal the taint's effect (empty matches all effects); a non-empty
    /// key must equal the taint's key (empty key matches every key); then operator `Exists`
    /// tolerates any value and `Equal` (also the default when empty) needs equal values. Any
    /// other operator tolerates nothing.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if !self.effect.is_empty() && self.effect != taint.effect {
            return false;
        }
        if !self.key.is_empty() && self.key != taint.key {
            return false;
        }
        match self.operator.as_str() {
            "" | "Equal" => self.value == taint.value,
            "Exists" => true,
            _ => false,
        }
    }
}

/// True when some toleration tolerates `taint` (upstream `TolerationsTolerateTaint`).
pub fn tolerations_tolerate_taint(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| t.tolerates(taint))
}

/// The first taint accepted by `filter` that no toleration tolerates (upstream
/// `v1helper.FindMatchingUntoleratedTaint`). The scheduler's TaintToleration filter uses a
/// filter keeping `NoSchedule` and `NoExecute` taints (see [`is_scheduling_taint`]).
pub fn find_untolerated_taint<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    filter: impl Fn(&Taint) -> bool,
) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| filter(t))
        .find(|t| !tolerations_tolerate_taint(tolerations, t))
}

/// True for taints that block scheduling: effect `NoSchedule` or `NoExecute`
/// (`PreferNoSchedule` only lowers the score).
pub fn is_scheduling_taint(taint: &Taint) -> bool {
    matches!(taint.effect.as_str(), "NoSchedule" | "NoExecute")
}

// ------------------------------------------------------------------ node selectors

/// A node's field value for `matchFields`: only `metadata.name` is supported upstream.
const NODE_NAME_FIELD: &str = "metadata.name";

impl NodeSelectorRequirement {
    /// Checks the requirement as a `matchExpressions` entry (upstream
    /// `NodeSelectorRequirementsAsSelector`): operator one of `In`, `NotIn`, `Exists`,
    /// `DoesNotExist`, `Gt`, `Lt` with the value counts of [`Requirement::new`].
    ///
    /// # Errors
    /// [`SelectorError::UnknownOperator`] or a validation error.
    pub fn to_requirement(&self) -> Result<Requirement, SelectorError> {
        let Some(op) = Operator::from_api(&self.operator) else {
            return Err(SelectorError::UnknownOperator {
                selector: self.key.clone(),
                key: self.key.clone(),
                operator: self.operator.clone(),
            });
        };
        Requirement::new(&self.key, op, self.values.iter().cloned())
    }

    /// Checks the requirement as a `matchFields` entry (upstream nodeaffinity
    /// `fieldSelectorAsSelector`): key `metadata.name`, operator `In` or `NotIn`, exactly one
    /// value.
    ///
    /// # Errors
    /// [`SelectorError::InvalidRequirement`] naming what is wrong.
    pub fn validate_field(&self) -> Result<(), SelectorError> {
        let bad = |reason: &str| SelectorError::InvalidRequirement {
            selector: self.key.clone(),
            key: self.key.clone(),
            reason: reason.to_owned(),
        };
        if self.key != NODE_NAME_FIELD {
            return Err(bad(
                "not a supported field selector key (only metadata.name)",
            ));
        }
        if !matches!(self.operator.as_str(), "In" | "NotIn") {
            return Err(bad(
                "not a valid field selector operator (only In and NotIn)",
            ));
        }
        if self.values.len() != 1 {
            return Err(bad("must have one element"));
        }
        Ok(())
    }
}

impl NodeSelectorTerm {
    /// True when the term is valid, not empty, and every `matchExpressions` requirement holds for
    /// the node's labels and every `matchFields` requirement for its `metadata.name`
    /// (upstream nodeaffinity `nodeSelectorTerm.match`). An empty term, and a term with any
    /// invalid requirement, matches no node.
    pub fn matches(&self, node: &Node) -> bool {
        self.matches_labels_and_name(&node.metadata.labels, &node.metadata.name)
    }

    /// As [`NodeSelectorTerm::matches`] with the node given as its labels and name.
    pub fn matches_labels_and_name(&self, labels: &Labels, node_name: &str) -> bool {
        if self.match_expressions.is_empty() && self.match_fields.is_empty() {
            return false;
        }
        for e in &self.match_expressions {
            match e.to_requirement() {
                Ok(r) if r.matches(labels) => {}
                _ => return false,
            }
        }
        for f in &self.match_fields {
            if f.validate_field().is_err() {
                return false;
            }
            let listed = f.values.iter().any(|v| v == node_name);
            let ok = if f.operator == "In" { listed } else { !listed };
            if !ok {
                return false;
            }
        }
        true
    }

    /// Every problem of the term (empty term, unknown operators, bad keys or values).
    pub fn problems(&self) -> Vec<SelectorError> {
        let mut out = Vec::new();
        if self.match_expressions.is_empty() && self.match_fields.is_empty() {
            out.push(SelectorError::InvalidRequirement {
                selector: String::new(),
                key: String::new(),
                reason: "a node selector term must have matchExpressions or matchFields".to_owned(),
            });
        }
        out.extend(
            self.match_expressions
                .iter()
                .filter_map(|e| e.to_requirement().err()),
        );
        out.extend(
            self.match_fields
                .iter()
                .filter_map(|f| f.validate_field().err()),
        );
        out
    }
}

impl NodeSelector {
    /// True when any term matches the node (terms are ORed; upstream
    /// `nodeaffinity.NodeSelector.Match`). No terms matches no node; invalid terms are skipped
    /// (they match nothing) while valid ones still count, as upstream's lazy-error selector.
    pub fn matches(&self, node: &Node) -> bool {
        self.node_selector_terms.iter().any(|t| t.matches(node))
    }

    /// As [`NodeSelector::matches`] with the node given as its labels and name.
    pub fn matches_labels_and_name(&self, labels: &Labels, node_name: &str) -> bool {
        self.node_selector_terms
            .iter()
            .any(|t| t.matches_labels_and_name(labels, node_name))
    }
}

/// True when every `key: value` of a pod's `spec.nodeSelector` equals the node's label
/// (upstream: `labels.SelectorFromSet(pod.Spec.NodeSelector).Matches(node labels)`; an empty map
/// matches every node).
pub fn node_selector_map_matches(node_selector: &Labels, labels: &Labels) -> bool {
    node_selector
        .iter()
        .all(|(k, v)| labels.get(k).is_some_and(|l| l == v))
}

/// The scheduler's NodeAffinity filter for one pod and one node (upstream
/// `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`): `spec.nodeSelector` must match the
/// node's labels AND, when `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`
/// is set, one of its terms must match (a required selector with no terms matches nothing).
/// Preferred terms do not affect the answer.
pub fn pod_matches_node_selector_and_affinity(spec: &PodSpec, node: &Node) -> bool {
    if !node_selector_map_matches(&spec.node_selector, &node.metadata.labels) {
        return false;
    }
    match spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| {
            na.required_during_scheduling_ignored_during_execution
                .as_ref()
        }) {
        Some(required) => required.matches(node),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{Affinity, NodeAffinity};

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[track_caller]
    fn check(selector: &str, pairs: &[(&str, &str)], expected: bool) {
        let sel = parse_selector(selector).unwrap_or_else(|e| panic!("{selector}: {e}"));
        assert_eq!(
            sel.matches(&labels(pairs)),
            expected,
            "{selector} on {pairs:?}"
        );
    }

    #[track_caller]
    fn check_err(selector: &str, needle: &str) {
        match parse_selector(selector) {
            Ok(s) => panic!("{selector:?} parsed as {s}"),
            Err(e) => assert!(
                e.to_string().contains(needle),
                "{selector:?}: {e} lacks {needle:?}"
            ),
        }
    }

    #[test]
    fn parses_and_matches_upstream_forms() {
        check("", &[("a", "b")], true);
        check("   ", &[], true);
        check("env=prod", &[("env", "prod")], true);
        check("env=prod", &[("env", "dev")], false);
        check("env==prod", &[("env", "prod")], true);
        check("env!=prod", &[], true);
        check("env!=prod", &[("env", "prod")], false);
        check("gpu", &[("gpu", "")], true);
        check("gpu", &[], false);
        check("!gpu", &[], true);
        check("!gpu", &[("gpu", "true")], false);
        check(
            "env=prod,location in (beijing)",
            &[("env", "prod"), ("location", "beijing")],
            true,
        );
        check(
            "env=prod, location in (beijing, shanghai)",
            &[("env", "prod"), ("location", "hangzhou")],
            false,
        );
        check("location notin (beijing)", &[], true);
        check(
            "location notin (beijing)",
            &[("location", "beijing")],
            false,
        );
        check("x in ()", &[("x", "")], true);
        check("x in (a,)", &[("x", "")], true);
        check("key=", &[("key", "")], true);
        check("count>3", &[("count", "4")], true);
        check("count>3", &[("count", "3")], false);
        check("count<3", &[("count", "x")], false);
        check("count<3", &[], false);
        check("in=notin", &[("in", "notin")], true);
        check("example.com/gpu=true", &[("example.com/gpu", "true")], true);
        check("a=1,a=2", &[("a", "1")], false);
    }

    #[test]
    fn rejects_bad_selectors_with_upstream_wording() {
        check_err("env=prod,", "found '', expected: identifier after ','");
        check_err("x in (a", "expected: ',' or ')'");
        check_err("x in a", "expected: '('");
        check_err("=a", "expected: !, identifier, or 'end of string'");
        check_err("!x=a", "expected: ',' or 'end of string'");
        check_err("a b", "found 'b', expected: [!= == = > < in notin]");
        check_err("x>a", "the value must be an integer");
        check_err("-bad=a", "name part must consist of alphanumeric");
        check_err("k=-v", "a valid label must consist");
        check_err("a/b/c=1", "qualified name");
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "a=1,b!=2,c,!d,e in (x,y),f notin (z)",
            "n>5",
            "zone in (a,b),gpu",
        ] {
            let sel = parse_selector(s).unwrap();
            let again = parse_selector(&sel.to_string()).unwrap();
            assert_eq!(sel, again);
        }
        assert_eq!(
            parse_selector("b=1, a in (y, x)").unwrap().to_string(),
            "a in (x,y),b=1"
        );
    }

    #[test]
    fn converts_to_label_selector() {
        let ls = parse_label_selector("env=prod,location in (beijing),tier!=db,!x,gpu").unwrap();
        assert_eq!(ls.match_labels, labels(&[("env", "prod")]));
        let ops: Vec<(&str, &str)> = ls
            .match_expressions
            .iter()
            .map(|e| (e.key.as_str(), e.operator.as_str()))
            .collect();
        assert_eq!(
            ops,
            [
                ("gpu", "Exists"),
                ("location", "In"),
                ("tier", "NotIn"),
                ("x", "DoesNotExist")
            ]
        );
        assert!(ls.matches(&labels(&[
            ("env", "prod"),
            ("location", "beijing"),
            ("gpu", "true")
        ])));
        assert!(matches!(
            parse_label_selector("n>1"),
            Err(SelectorError::UnsupportedOperator { .. })
        ));
        let twice: LabelSelector = "a=1,a=2".parse().unwrap();
        assert!(!twice.matches(&labels(&[("a", "1")])));
        assert!(!twice.matches(&labels(&[("a", "2")])));
    }

    #[test]
    fn label_selector_matching() {
        assert!(LabelSelector::default().matches(&Labels::new()));
        let bad = LabelSelector {
            match_expressions: vec![LabelSelectorRequirement {
                key: "a".into(),
                operator: "in".into(),
                values: vec!["x".into()],
            }],
            ..Default::default()
        };
        assert!(!bad.matches(&labels(&[("a", "x")])));
        assert!(matches!(
            bad.validate(),
            Err(SelectorError::UnknownOperator { .. })
        ));
        let empty_in = LabelSelector {
            match_expressions: vec![LabelSelectorRequirement {
                key: "a".into(),
                operator: "In".into(),
                values: vec![],
            }],
            ..Default::default()
        };
        assert!(!empty_in.matches(&labels(&[("a", "x")])));
        assert_eq!(
            empty_in.to_string(),
            "a in ()",
            "display keeps invalid expressions visible"
        );
    }

    fn taint(key: &str, value: &str, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
            time_added: None,
        }
    }
    fn tol(key: &str, op: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.into(),
            operator: op.into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        }
    }

    #[test]
    fn tolerations_follow_upstream() {
        let t = taint("dedicated", "dev", "NoSchedule");
        assert!(tol("", "Exists", "", "").tolerates(&t));
        assert!(tol("dedicated", "Exists", "", "").tolerates(&t));
        assert!(tol("dedicated", "", "dev", "").tolerates(&t));
        assert!(tol("dedicated", "Equal", "dev", "NoSchedule").tolerates(&t));
        assert!(!tol("dedicated", "Equal", "prod", "NoSchedule").tolerates(&t));
        assert!(!tol("dedicated", "Equal", "dev", "NoExecute").tolerates(&t));
        assert!(!tol("other", "Exists", "", "").tolerates(&t));
        assert!(!tol("dedicated", "exists", "", "").tolerates(&t));
        // empty key with Equal: any key, value must match (upstream function, not validation)
        assert!(tol("", "Equal", "dev", "").tolerates(&t));
        let taints = [
            taint("a", "", "PreferNoSchedule"),
            t.clone(),
            taint("b", "", "NoExecute"),
        ];
        let found = find_untolerated_taint(&taints, &[tol("dedicated", "Exists", "", "")], |x| {
            is_scheduling_taint(x)
        });
        assert_eq!(found.map(|x| x.key.as_str()), Some("b"));
    }

    fn node(name: &str, pairs: &[(&str, &str)]) -> Node {
        let mut n = Node::default();
        n.metadata.name = name.into();
        n.metadata.labels = labels(pairs);
        n
    }
    fn req(key: &str, op: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|v| (*v).to_owned()).collect(),
        }
    }

    #[test]
    fn node_selector_terms() {
        let n = node("gpu-1", &[("gpu", "true"), ("cores", "64")]);
        let term = |exprs: Vec<NodeSelectorRequirement>, fields: Vec<NodeSelectorRequirement>| {
            NodeSelectorTerm {
                match_expressions: exprs,
                match_fields: fields,
            }
        };
        assert!(!term(vec![], vec![]).matches(&n));
        assert!(term(vec![req("gpu", "In", &["true"])], vec![]).matches(&n));
        assert!(term(vec![req("gpu", "NotIn", &["false"])], vec![]).matches(&n));
        assert!(term(vec![req("gpu", "Exists", &[])], vec![]).matches(&n));
        assert!(term(vec![req("cpu", "DoesNotExist", &[])], vec![]).matches(&n));
        assert!(term(vec![req("cores", "Gt", &["32"])], vec![]).matches(&n));
        assert!(!term(vec![req("cores", "Lt", &["32"])], vec![]).matches(&n));
        assert!(!term(vec![req("cores", "Gt", &["x"])], vec![]).matches(&n));
        assert!(!term(vec![req("gpu", "Exists", &["true"])], vec![]).matches(&n));
        assert!(!term(vec![req("gpu", "In", &[])], vec![]).matches(&n));
        assert!(term(vec![], vec![req("metadata.name", "In", &["gpu-1"])]).matches(&n));
        assert!(!term(vec![], vec![req("metadata.name", "NotIn", &["gpu-1"])]).matches(&n));
        assert!(!term(vec![], vec![req("metadata.name", "In", &["gpu-1", "x"])]).matches(&n));
        assert!(!term(vec![], vec![req("metadata.uid", "In", &["gpu-1"])]).matches(&n));
        assert_eq!(
            term(vec![req("gpu", "Foo", &[])], vec![]).problems().len(),
            1
        );

        let sel = NodeSelector {
            node_selector_terms: vec![
                term(vec![req("gpu", "Bogus", &[])], vec![]),
                term(vec![req("gpu", "In", &["true"])], vec![]),
            ],
        };
        assert!(sel.matches(&n), "an invalid term does not spoil valid ones");
        assert!(!NodeSelector::default().matches(&n));
    }

    #[test]
    fn pod_node_selector_and_required_affinity() {
        let n = node("n1", &[("gpu", "true"), ("org", "public")]);
        let mut spec = PodSpec::default();
        assert!(pod_matches_node_selector_and_affinity(&spec, &n));
        spec.node_selector = labels(&[("org", "public")]);
        assert!(pod_matches_node_selector_and_affinity(&spec, &n));
        spec.node_selector = labels(&[("org", "team-a")]);
        assert!(!pod_matches_node_selector_and_affinity(&spec, &n));
        spec.node_selector = labels(&[("gpu", "true")]);
        spec.affinity = Some(Box::new(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_expressions: vec![req("org", "In", &["team-a"])],
                        match_fields: vec![],
                    }],
                }),
                preferred_during_scheduling_ignored_during_execution: vec![],
            }),
            ..Default::default()
        }));
        assert!(!pod_matches_node_selector_and_affinity(&spec, &n));
        spec.affinity = Some(Box::new(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector::default()),
                preferred_during_scheduling_ignored_during_execution: vec![],
            }),
            ..Default::default()
        }));
        assert!(!pod_matches_node_selector_and_affinity(&spec, &n));
    }

    #[test]
    fn name_validation() {
        assert!(validate_qualified_name("nvidia.com/gpu").is_empty());
        assert!(validate_qualified_name("cpu").is_empty());
        assert!(!validate_qualified_name("/gpu").is_empty());
        assert!(!validate_qualified_name("Nvidia.com/gpu").is_empty());
        assert!(!validate_qualified_name(&"a".repeat(64)).is_empty());
        assert!(validate_label_value("").is_empty());
        assert!(!validate_label_value("a b").is_empty());
        assert!(validate_dns1123_label("team-a").is_empty());
        assert!(!validate_dns1123_label("Team").is_empty());
        assert!(!validate_dns1123_label("").is_empty());
        assert!(validate_dns1123_subdomain("a.b-c.d").is_empty());
        assert!(!validate_dns1123_subdomain("a..b").is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn parser_never_panics(s in "\\PC{0,40}") {
            let _ = parse_selector(&s);
        }
        #[test]
        fn label_selector_object_matches_like_the_string(
            s in "[ab]{1}( ?(=|!=|==| in | notin )[xy ]{0,1}|)(,[ab]{1}(=x|!=y| in \\(x,y\\)|))?",
            la in proptest::option::of("[xy]"),
            lb in proptest::option::of("[xy]"),
        ) {
            let mut labels = Labels::new();
            if let Some(v) = la { labels.insert("a".into(), v); }
            if let Some(v) = lb { labels.insert("b".into(), v); }
            if let Ok(sel) = parse_selector(&s) {
                let ls = sel.to_label_selector().unwrap();
                proptest::prop_assert_eq!(sel.matches(&labels), ls.matches(&labels), "{} vs {:?}", s, ls);
            }
        }
        #[test]
        fn parsed_selectors_print_and_reparse(s in "[a-c!=(), inot<>0-9]{0,24}") {
            if let Ok(sel) = parse_selector(&s) {
                let again = parse_selector(&sel.to_string());
                proptest::prop_assert_eq!(Ok(sel), again);
            }
        }
    }
}
