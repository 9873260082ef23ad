//! `[[moves]]`: functions defined outside their class moved into it (C++'s
//! `struct C { int f(int); }; int C::f(int x) { .. }` -> `struct C { int f(int x) { .. } };`,
//! C-Vise's move-function-body), one candidate per definition.

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use crate::parse;
use crate::pass_data::MoveSpec;

/// Splices, sorted.
type Splices = Vec<(Range<usize>, Vec<u8>)>;

/// The candidates of every spec of `specs` in `tree`, a parse of `src`: per definition found
/// (in source order), the splices that move it into its class.
pub(super) fn moves(specs: &[MoveSpec], tree: &tree_sitter::Tree, src: &[u8]) -> Vec<Splices> {
    let mut out = Vec::new();
    for spec in specs {
        // Classes with a body by the text of their name, and the definitions with their
        // function declarator and qualified name.
        let mut classes: HashMap<&[u8], Vec<Node<'_>>> = HashMap::new();
        let mut definitions = Vec::new();
        parse::walk(tree, |node| {
            let kind = node.kind();
            if spec.classes.iter().any(|k| k == kind)
                && node.child_by_field_name(&spec.body).is_some()
            {
                if let Some(name) = node.child_by_field_name(&spec.name) {
                    classes
                        .entry(&src[name.byte_range()])
                        .or_default()
                        .push(node);
                }
            } else if kind == spec.kind {
                if let Some((function, qualified)) = function_declarator(node, spec) {
                    if qualified.kind() == spec.qualified {
                        definitions.push((node, function, qualified));
                    }
                }
            }
            true
        });
        for (definition, function, qualified) in definitions {
            out.extend(moved(spec, &classes, definition, function, qualified, src));
        }
    }
    out
}

/// Down `node`'s declarator (through `spec.declarator`, or a lone named child) to the function
/// declarator, the node with `spec.parameters`: it and its own declarator, the name.
fn function_declarator<'t>(node: Node<'t>, spec: &MoveSpec) -> Option<(Node<'t>, Node<'t>)> {
    let mut d = node.child_by_field_name(&spec.declarator)?;
    loop {
        if d.child_by_field_name(&spec.parameters).is_some() {
            return Some((d, d.child_by_field_name(&spec.declarator)?));
        }
        d = d.child_by_field_name(&spec.declarator).or_else(|| {
            (d.named_child_count() == 1)
                .then(|| d.named_child(0))
                .flatten()
        })?;
    }
}

/// The splices that move `definition` into its class, if the class and the member it defines
/// are found alone.
fn moved(
    spec: &MoveSpec,
    classes: &HashMap<&[u8], Vec<Node<'_>>>,
    definition: Node<'_>,
    function: Node<'_>,
    qualified: Node<'_>,
    src: &[u8],
) -> Option<Splices> {
    let text = |n: Node<'_>| &src[n.byte_range()];
    // `n::C::f` names `f` of `C` by the innermost qualified name.
    let mut qualified = qualified;
    while let Some(inner) =
        (qualified.child_by_field_name(&spec.name)).filter(|n| n.kind() == spec.qualified)
    {
        qualified = inner;
    }
    let scope = qualified.child_by_field_name(&spec.scope)?;
    let name = qualified.child_by_field_name(&spec.name)?;
    let wrapped = |n: Node<'_>| {
        n.parent()
            .is_some_and(|p| spec.wrappers.iter().any(|w| w == p.kind()))
    };
    // The class the scope names: by its whole text (a specialization's `C<int>`), or a class
    // template's by the template's name (`C<T>`), when the definition is a template too.
    let mut found: Vec<Node<'_>> = classes.get(text(scope)).cloned().unwrap_or_default();
    if let Some(base) = scope
        .child_by_field_name(&spec.name)
        .filter(|_| wrapped(definition))
    {
        let templates = classes.get(text(base)).into_iter().flatten();
        found.extend(templates.filter(|c| wrapped(**c)));
    }
    let [class] = found[..] else {
        return None;
    };
    // The definition comes after its class.
    if class.end_byte() > definition.start_byte() {
        return None;
    }
    let body = class.child_by_field_name(&spec.body)?;
    let parameters = function.child_by_field_name(&spec.parameters)?;
    let types = parameter_types(parameters, spec, src);
    let mut members = Vec::new();
    let mut c = body.walk();
    for child in body.named_children(&mut c) {
        let mut member = child;
        while spec.wrappers.iter().any(|w| w == member.kind()) {
            let mut c = member.walk();
            let last = member.named_children(&mut c).last();
            match last {
                Some(l) => member = l,
                None => break,
            }
        }
        if !spec.members.iter().any(|k| k == member.kind()) {
            continue;
        }
        let Some((f, n)) = function_declarator(member, spec) else {
            continue;
        };
        if squeezed(text(n)) != squeezed(text(name)) {
            continue;
        }
        let Some(p) = f.child_by_field_name(&spec.parameters) else {
            continue;
        };
        if parameter_types(p, spec, src) == types {
            members.push((member, p));
        }
    }
    let [(member, member_parameters)] = members[..] else {
        return None;
    };
    // A declaration only: one declarator, ending in `;` right after it (no `= 0`, no
    // `= default`, no body).
    let mut c = member.walk();
    if member
        .children_by_field_name(&spec.declarator, &mut c)
        .count()
        != 1
    {
        return None;
    }
    let declarator = member.child_by_field_name(&spec.declarator)?;
    let rest = &src[declarator.end_byte()..member.end_byte()];
    if squeezed(rest) != b";" {
        return None;
    }
    let mut splices = Vec::new();
    if text(member_parameters) != text(parameters) {
        splices.push((
            member_parameters.byte_range(),
            with_defaults(parameters, member_parameters, spec, src)?,
        ));
    }
    splices.push((
        declarator.end_byte()..member.end_byte(),
        src[function.end_byte()..definition.end_byte()].to_vec(),
    ));
    let mut whole = definition;
    while let Some(p) = whole
        .parent()
        .filter(|p| spec.wrappers.iter().any(|w| w == p.kind()))
    {
        whole = p;
    }
    splices.push((whole.byte_range(), Vec::new()));
    Some(splices)
}

/// The types of a parameter list's parameters, without white space (`(int a, const T &)` ->
/// `int`, `constT`), and the text of each parameter that has none (`...`).
fn parameter_types(list: Node<'_>, spec: &MoveSpec, src: &[u8]) -> Vec<Vec<u8>> {
    let mut c = list.walk();
    list.children(&mut c)
        .filter(|p| p.is_named() || p.child_count() == 0 && !matches!(p.kind(), "(" | ")" | ","))
        .filter(|p| !p.is_extra())
        .map(|p| {
            let t = p.child_by_field_name(&spec.r#type).unwrap_or(p);
            squeezed(&src[t.byte_range()])
        })
        .collect()
}

/// The definition's parameter list `parameters`, with the default values the member's list
/// `own` gives its parameters (`(int x)` and `(int = 3)` -> `(int x = 3)`). `None` where a
/// default value is not found.
fn with_defaults(
    parameters: Node<'_>,
    own: Node<'_>,
    spec: &MoveSpec,
    src: &[u8],
) -> Option<Vec<u8>> {
    let (theirs, ours) = (named(parameters), named(own));
    let mut out = Vec::new();
    let mut at = parameters.start_byte();
    for (p, o) in theirs.iter().zip(&ours) {
        if !spec.defaults.iter().any(|k| k == o.kind()) {
            continue;
        }
        let value = o.child_by_field_name(spec.default_value.as_deref()?)?;
        out.extend_from_slice(&src[at..p.end_byte()]);
        out.extend_from_slice(b" = ");
        out.extend_from_slice(&src[value.byte_range()]);
        at = p.end_byte();
    }
    out.extend_from_slice(&src[at..parameters.end_byte()]);
    Some(out)
}

/// The named children of `list` but comments.
fn named(list: Node<'_>) -> Vec<Node<'_>> {
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|p| !p.is_extra())
        .collect()
}

/// `text` without white space.
fn squeezed(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::Lang;

    /// The text after each candidate of `src`.
    fn moved(src: &str) -> Vec<String> {
        let f = Lang::Cpp.facts(src.as_bytes()).unwrap();
        f.moves
            .iter()
            .map(|splices| {
                let mut out = String::new();
                let mut at = 0;
                for (r, t) in splices {
                    out.push_str(&src[at..r.start]);
                    out.push_str(std::str::from_utf8(t).unwrap());
                    at = r.end;
                }
                out.push_str(&src[at..]);
                out
            })
            .collect()
    }

    #[test]
    fn cpp_members_defined_outside_move_into_their_class() {
        let src = "struct C {\n  int v;\n  C(int a);\n  int get(int k) const;\n  \
                   int get(long k) const;\n  static int s(int = 3, int = 4);\n  \
                   template <class U> void put(U u);\n  virtual void pure() = 0;\n};\n\
                   C::C(int a) : v(a) { v += 1; }\n\
                   int C::get(int k) const { return v + k; }\n\
                   int C::s(int x, int y) { return x + y; }\n\
                   template <class U> void C::put(U u) { v = u; }\n\
                   void C::pure() { v = 0; }\n\
                   template <class T> struct D { T f(T t); };\n\
                   template <class T> T D<T>::f(T t) { return t; }\n\
                   namespace n { int g(); struct E { int h(); }; }\n\
                   int n::g() { return 1; }\nint n::E::h() { return 2; }\n";
        let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let got: Vec<String> = moved(src).iter().map(|s| squeeze(s)).collect();
        let base = squeeze(src);
        let expect = |from: &[&str], to: &[&str]| {
            let mut s = base.clone();
            for (f, t) in from.iter().zip(to) {
                assert!(s.contains(f), "{f}");
                s = s.replacen(f, t, 1);
            }
            s
        };
        assert_eq!(
            got,
            [
                // The initializers go with the body.
                expect(
                    &["C(int a);", "C::C(int a) : v(a) { v += 1; } "],
                    &["C(int a) : v(a) { v += 1; }", ""]
                ),
                // The overload whose parameter types match, its `const` kept.
                expect(
                    &[
                        "int get(int k) const;",
                        "int C::get(int k) const { return v + k; } "
                    ],
                    &["int get(int k) const { return v + k; }", ""]
                ),
                // The definition's names with the declaration's defaults; `static` stays.
                expect(
                    &[
                        "s(int = 3, int = 4);",
                        "int C::s(int x, int y) { return x + y; } "
                    ],
                    &["s(int x = 3, int y = 4) { return x + y; }", ""]
                ),
                // A member template goes without its `template <..>`.
                expect(
                    &[
                        "void put(U u);",
                        "template <class U> void C::put(U u) { v = u; } "
                    ],
                    &["void put(U u) { v = u; }", ""]
                ),
                // A class template's member.
                expect(
                    &[
                        "T f(T t); }",
                        "template <class T> T D<T>::f(T t) { return t; } "
                    ],
                    &["T f(T t) { return t; } }", ""]
                ),
                // A class in a namespace, named from outside it.
                expect(
                    &["int h(); }", " int n::E::h() { return 2; }"],
                    &["int h() { return 2; } }", ""]
                ),
            ]
        );
    }
}
