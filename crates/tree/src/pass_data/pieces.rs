//! The text templates of the passes' data: a rewrite's (`{condition};`) and the call
//! bindings' (`{param}={arg};`), split into literal text and placeholders.

use serde::Deserialize;

/// A rewrite: a node of `kind` becomes `template`, whose `{field}`s are the texts of the
/// node's fields (`{declarator.value}`: a field of a field; a step may also name the kind of
/// the node's only named child of that kind) (C-Reduce's `simplify-if`: `if (c) s` becomes `(c);`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RewriteSpec {
    pub kind: String,
    pub template: String,
    /// Only where the node's parent is of this kind (C's block-scope declarations).
    #[serde(default)]
    pub parent: Option<String>,
}

/// A piece of a rewrite template: literal text, a field's text, or (`{..}`) the node's text
/// without its first and last child: a block's statements without its braces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    Text(String),
    Field(String),
    Inner,
}

/// A checked rewrite: the node kind and its template's pieces.
#[derive(Debug, Clone)]
pub(crate) struct Rewrite {
    pub kind: String,
    pub pieces: Vec<Piece>,
    pub parent: Option<String>,
}

/// `{field}` placeholders and the text between them; `None` for an unbalanced brace.
/// `{{` and `}}` stand for a brace of the text (`{{}}`: an empty block).
pub(super) fn template_pieces(template: &str) -> Option<Vec<Piece>> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        for brace in ["{{", "}}"] {
            if let Some(r) = rest.strip_prefix(brace) {
                text.push_str(&brace[1..]);
                rest = r;
            }
        }
        if rest.starts_with('}') {
            return None;
        }
        if !rest.starts_with('{') || rest.starts_with("{{") {
            continue;
        }
        let close = rest.find('}')?;
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(match &rest[1..close] {
            ".." => Piece::Inner,
            field => Piece::Field(field.to_string()),
        });
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Some(pieces)
}

/// How a call binds a function's parameters when its body takes the call's place:
/// `open`, then `param` (with `{param}` and `{arg}` filled in) per parameter, the body's
/// statements, the returned value, then `close`. Where the language has an `unbound` form,
/// a call may give fewer arguments than the function has parameters (C's call through a
/// declaration without a prototype): the others are declared by it, uninitialized, and
/// arguments past the last parameter go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bindings {
    pub open: Vec<u8>,
    /// The `param` template, checked to name `{param}` then `{arg}`.
    pub(super) param: Vec<Piece>,
    /// The `unbound` template, checked to name `{param}` alone.
    pub(super) unbound: Option<Vec<Piece>>,
    pub close: Vec<u8>,
}

impl Bindings {
    /// `[bindings]` of `lang`'s passes.toml, its templates checked: `param` names `{param}`
    /// then `{arg}` and `unbound` names `{param}` alone (no other placeholder, `{..}`
    /// included).
    pub(super) fn new(
        lang: &str,
        open: String,
        param: &str,
        unbound: Option<String>,
        close: String,
    ) -> Result<Self, String> {
        let check = |t: &str, want: &[&str], what: &str| -> Result<Vec<Piece>, String> {
            let pieces = template_pieces(t).unwrap_or_default();
            let fields: Vec<&Piece> = (pieces.iter())
                .filter(|p| !matches!(p, Piece::Text(_)))
                .collect();
            let named = |(p, w): (&&Piece, &&str)| matches!(p, Piece::Field(f) if f == w);
            if fields.len() != want.len() || !fields.iter().zip(want).all(named) {
                return Err(format!(
                    "grammars/{lang}/passes.toml: [bindings] {what}, got `{t}`"
                ));
            }
            Ok(pieces)
        };
        let param = check(
            param,
            &["param", "arg"],
            "param must be a template with {param} then {arg}",
        )?;
        let unbound = (unbound.as_deref())
            .map(|t| {
                check(
                    t,
                    &["param"],
                    "unbound must be a template with {param} alone",
                )
            })
            .transpose()?;
        Ok(Bindings {
            open: open.into_bytes(),
            param,
            unbound,
            close: close.into_bytes(),
        })
    }

    /// Whether a call may give another number of arguments than the function's parameters.
    pub fn any_arity(&self) -> bool {
        self.unbound.is_some()
    }

    /// `param` with the parameter's declaration and the call's argument filled in, or, where
    /// the call gives no argument, the `unbound` template with the declaration (`None` where
    /// the language has no such form).
    pub fn bind_or_declare(&self, param: &[u8], arg: Option<&[u8]>) -> Option<Vec<u8>> {
        let template = match arg {
            Some(_) => &self.param,
            None => self.unbound.as_ref()?,
        };
        let mut out = Vec::new();
        for p in template {
            out.extend_from_slice(match p {
                Piece::Text(t) => t.as_bytes(),
                Piece::Field(f) if f == "param" => param,
                // `{arg}`, in `param` only: the checks leave no other placeholder.
                Piece::Field(_) | Piece::Inner => arg.unwrap_or_default(),
            });
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_split_into_text_and_fields() {
        assert_eq!(
            template_pieces("{condition};").unwrap(),
            [Piece::Field("condition".into()), Piece::Text(";".into())]
        );
        assert!(template_pieces("{a").is_none());
        assert!(template_pieces("a}").is_none());
        assert_eq!(template_pieces("{..}").unwrap(), [Piece::Inner]);
        assert_eq!(template_pieces("{{}}").unwrap(), [Piece::Text("{}".into())]);
        assert_eq!(
            template_pieces("{a} {{x}}").unwrap(),
            [Piece::Field("a".into()), Piece::Text(" {x}".into())]
        );
    }
}
