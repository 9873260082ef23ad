//! `inline-calls`: a call of a function whose body is one `return` of a value replaced by
//! that value, with the parameters replaced by the arguments; in GNU C, every call of a
//! function replaced by its body with the parameters bound to the arguments (C-Reduce's
//! inliner).

use std::collections::HashMap;
use std::ops::Range;

use treedd_tree::{Bindings, Facts, Inlinable, Lang, ListSite};

use super::splice::{apply, push_separated, shorter_only, within, Splice};

/// Call inlining (C-Reduce's inliner). A call of a function whose body is one `return` of a
/// value becomes that value, with each parameter replaced by its argument (parenthesized
/// unless it is one token): first every call at once with the definition removed (unless the
/// function calls itself), then each call alone. A function that returns no value and is
/// called only as statements of their own (`a(0 - Math);`) has each call statement become its
/// body's statements (then, failing that, its body with the braces), with the arguments in
/// place of the parameters, and the definition removed (where `[[calls]]` names the
/// `statement` kind). Where the language has call bindings
/// (`[bindings]`, GNU C's statement expression), every call of a function whose body has no
/// early `return` at once becomes the body, each parameter declared and initialized with its
/// argument, with the definition removed (C-Reduce's `simple-inliner`, which keeps an
/// argument evaluated once where substituting it would not): `b(e(), g)` ->
/// `({int c=e();long d=g;c^d;})`; a call with fewer arguments (through C's declaration
/// without a prototype) declares the other parameters uninitialized (`unbound` of
/// `[bindings]`), and one with more leaves the rest out. Only candidates that shorten the
/// text.
pub(super) fn candidates(text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let one_token = |r: &Range<usize>| {
        facts
            .tokens
            .binary_search_by_key(&r.start, |t| t.start)
            .is_ok_and(|i| facts.tokens[i] == *r)
    };
    let wrap = |r: &Range<usize>, bytes: &[u8]| -> Vec<u8> {
        if one_token(r) {
            bytes.to_vec()
        } else {
            [b"(", bytes, b")"].concat()
        }
    };
    let mut by_name: HashMap<&[u8], Vec<&ListSite>> = HashMap::new();
    for c in &facts.calls {
        by_name.entry(&c.name).or_default().push(c);
    }
    // Identifier occurrences are in source order.
    let idents_in = |r: &Range<usize>| -> Vec<&Range<usize>> {
        let first = facts.idents.partition_point(|id| id.range.start < r.start);
        facts.idents[first..]
            .iter()
            .map(|id| &id.range)
            .take_while(|i| i.start < r.end)
            .filter(|i| within(i, r))
            .collect()
    };
    let any_arity = facts.bindings.as_ref().is_some_and(|b| b.any_arity());
    let mut out = Vec::new();
    for f in &facts.inlinable {
        // The calls of `f` from outside it; those the bindings' `unbound` form may take with
        // another number of arguments too.
        let bound_calls: Vec<&ListSite> = by_name
            .get(f.name.as_slice())
            .into_iter()
            .flatten()
            .copied()
            .filter(|c| any_arity || c.elems.len() == f.params.len())
            .filter(|c| !within(&c.range, &f.owner))
            .collect();
        let calls: Vec<&ListSite> = (bound_calls.iter().copied())
            .filter(|c| c.elems.len() == f.params.len())
            .collect();
        if bound_calls.is_empty()
            || idents_in(&f.body)
                .iter()
                .any(|r| text[(*r).clone()] == *f.name)
        {
            // Not called, or recursive.
            continue;
        }
        let without_definition = |mut splices: Vec<Splice>| {
            splices.push(Splice::new(f.owner.clone(), b""));
            splices.sort_by_key(|s| (s.range.start, s.range.end));
            splices
        };
        // `range` of the text with each parameter replaced by the call's argument.
        let substituted = |range: &Range<usize>, call: &ListSite| -> Vec<u8> {
            let subs: Vec<Splice> = idents_in(range)
                .iter()
                .filter_map(|r| {
                    let i = f
                        .params
                        .iter()
                        .position(|p| p.as_slice() == &text[(*r).clone()])?;
                    let arg = &call.elems[i];
                    let at = r.start - range.start..r.end - range.start;
                    Some(Splice::new(at, &wrap(arg, &text[arg.clone()])))
                })
                .collect();
            apply(&text[range.clone()], &subs)
        };
        // A body that is one `return`: each call becomes the value, the arguments spliced in.
        let values: Option<Vec<Splice>> = (f.expr.as_ref())
            .filter(|_| f.stmts.is_empty() && !calls.is_empty())
            .map(|expr| {
                calls
                    .iter()
                    .map(|c| Splice::new(c.range.clone(), &wrap(expr, &substituted(expr, c))))
                    .collect()
            });
        if let Some(values) = &values {
            out.push(without_definition(values.clone()));
        }
        // A function that returns no value, called only as statements of their own (`f(x);`):
        // each call statement becomes the body's statements, the arguments spliced in
        // (C-Reduce's inliner, as a splice); then the same with the braces, so that the body's
        // locals keep their scope.
        if f.expr.is_none() && !calls.is_empty() && calls.iter().all(|c| c.stmt.is_some()) {
            let inner = match (f.stmts.first(), f.stmts.last()) {
                (Some(a), Some(b)) => a.start..b.end,
                _ => f.body.start..f.body.start,
            };
            for range in [&inner, &f.body] {
                out.push(without_definition(
                    calls
                        .iter()
                        .filter_map(|c| Some(Splice::new(c.stmt.clone()?, &substituted(range, c))))
                        .collect(),
                ));
            }
        }
        if let Some(b) = &facts.bindings {
            out.push(without_definition(
                bound_calls.iter().map(|c| bound(text, f, c, b)).collect(),
            ));
        }
        out.extend(values.into_iter().flatten().map(|v| vec![v]));
    }
    shorter_only(text, out)
}

/// The call `call` of `f` replaced by `f`'s body with bound parameters (see [`candidates`]).
fn bound(text: &[u8], f: &Inlinable, call: &ListSite, b: &Bindings) -> Splice {
    let mut body = b.open.clone();
    for (i, decl) in f.param_decls.iter().enumerate() {
        let arg = call.elems.get(i).map(|a| &text[a.clone()]);
        // `candidates` takes a call with too few arguments only where `unbound` declares the
        // rest.
        if let Some(bound) = b.bind_or_declare(&text[decl.clone()], arg) {
            push_separated(&mut body, &bound);
        }
    }
    for s in &f.stmts {
        push_separated(&mut body, &text[s.clone()]);
    }
    if let Some(e) = &f.expr {
        push_separated(&mut body, &text[e.clone()]);
    }
    push_separated(&mut body, &b.close);
    Splice::new(call.range.clone(), &body)
}
