//! The bodies the `bodies` pass may empty (`[[bodies]]` of passes.toml) and the declarations
//! that go with them ([`Tied`]).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::{declaration_sites, Ident};
use crate::pass_data::{DeclareSpec, PassData};

/// A body of a function that may take a text valid wherever it is (`[[bodies]]`): Python's
/// `0`, Rust's `{loop{}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    pub range: Range<usize>,
    pub text: Vec<u8>,
    /// Left out of the early coarse sequence (`coarse_unless` of `[[bodies]]`).
    pub not_coarse: bool,
    /// The splice of an outermost body, where `[[bodies]]` has `declare`: the range it
    /// replaces (the body and what stands between it and the declarator, or the whole
    /// definition) and its text.
    pub declaration: Option<(Range<usize>, Vec<u8>)>,
}

/// A declaration the compiler rejects when nothing uses it (`must_use` of `[[declarations]]`:
/// Go's imports), with what goes with it: the node, or the enclosing node it is the only
/// named child of (`import "fmt"`: the whole import declaration). Once every other occurrence
/// of its names is inside an emptied body, it is removed with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tied {
    pub range: Range<usize>,
    /// The other occurrences of the names it declares.
    pub uses: Vec<Range<usize>>,
}

/// Add the body of `node` to `bodies` if `[[bodies]]` names its kind and the body is larger
/// than the text it may become.
pub(super) fn visit(
    node: tree_sitter::Node<'_>,
    pd: &PassData,
    src: &[u8],
    bodies: &mut Vec<Body>,
) {
    let kind = node.kind();
    for spec in pd.bodies.iter().filter(|s| s.kind == kind) {
        let body = node.child_by_field_name(&spec.field);
        if let Some(body) = body.filter(|b| !b.is_missing()) {
            let text = spec.text.as_bytes();
            if chars(&src[body.byte_range()]) > chars(text)
                && !head_closes_a_block(node, body.start_byte(), src)
            {
                let head = |words: &[String]| head_holds(node, body.start_byte(), words, src);
                let declare = (spec.declare.as_ref()).filter(|d| !head(&d.unless));
                let declaration = declare.and_then(|d| declaration(node, d));
                let not_coarse = match declare.filter(|_| declaration.is_some()) {
                    Some(d) => head(&d.coarse_unless),
                    None => head(&spec.coarse_unless),
                };
                bodies.push(Body {
                    range: body.byte_range(),
                    text: text.to_vec(),
                    not_coarse,
                    declaration,
                });
            }
        }
    }
}

/// The definition `node` as a declaration (see [`DeclareSpec`]): its text after the
/// declarator replaced, or the whole of it (and its wrappers) removed when the declarator
/// names it by a `whole` kind. `None` without a declarator.
fn declaration(node: tree_sitter::Node<'_>, spec: &DeclareSpec) -> Option<(Range<usize>, Vec<u8>)> {
    let declarator = node.child_by_field_name(&spec.declarator)?;
    let mut name = declarator;
    let whole_kind = |n: tree_sitter::Node<'_>| spec.whole.iter().any(|k| k == n.kind());
    let mut qualified = whole_kind(name);
    // Down the nested declarators (`T& C::f()`: a reference declarator, whose one named child
    // is the function declarator, whose declarator is the name; `::f` is a qualified name of
    // one named child).
    while let Some(inner) = name.child_by_field_name(&spec.declarator).or_else(|| {
        (name.named_child_count() == 1)
            .then(|| name.named_child(0))
            .flatten()
    }) {
        name = inner;
        qualified |= whole_kind(name);
    }
    if !qualified {
        return Some((
            declarator.end_byte()..node.end_byte(),
            spec.text.as_bytes().to_vec(),
        ));
    }
    let mut whole = node;
    while let Some(p) = whole
        .parent()
        .filter(|p| spec.wrappers.iter().any(|w| w == p.kind()))
    {
        whole = p;
    }
    Some((whole.byte_range(), Vec::new()))
}

/// A token of the function's head is spelled as one of `words`: a token of `node` that
/// starts before byte `end` (its body), or of what stands in front of `node` among its
/// siblings as part of its head: tokens (`constexpr friend`), and a sibling the parse broke
/// off it, one that ends in a missing token (`[[nodiscard]] friend constexpr T` parsed as a
/// field declaration that misses its `;`).
fn head_holds(node: tree_sitter::Node<'_>, end: usize, words: &[String], src: &[u8]) -> bool {
    if words.is_empty() {
        return false;
    }
    let mut roots = vec![node];
    let mut before = node.prev_sibling();
    while let Some(b) = before.filter(|b| !b.is_named() && b.child_count() == 0) {
        roots.push(b);
        before = b.prev_sibling();
    }
    let broken_off = |b: &tree_sitter::Node<'_>| {
        let last = b.child_count().checked_sub(1);
        last.and_then(|l| b.child(l))
            .is_some_and(|c| c.is_missing())
    };
    roots.extend(before.filter(broken_off));
    roots.reverse();
    tokens_before(roots, end)
        .iter()
        .any(|t| words.iter().any(|w| src[t.byte_range()] == *w.as_bytes()))
}

/// The head of `node` (its tokens before byte `end`, its body) closes a brace it did not
/// open: the parse's error recovery made one function of the end of what stands in front and
/// of the next thing with braces (`has_facet<T>(const locale&); } namespace std { ... }`
/// read as a function `... &std` whose body is the namespace's), so its "body" is no
/// function's.
fn head_closes_a_block(node: tree_sitter::Node<'_>, end: usize, src: &[u8]) -> bool {
    let mut depth = 0u32;
    for t in tokens_before(vec![node], end) {
        match &src[t.byte_range()] {
            b"{" => depth += 1,
            b"}" if depth == 0 => return true,
            b"}" => depth -= 1,
            _ => {}
        }
    }
    false
}

/// The tokens of `roots` (in source order) that start before byte `end`, in source order.
fn tokens_before(roots: Vec<tree_sitter::Node<'_>>, end: usize) -> Vec<tree_sitter::Node<'_>> {
    let mut tokens = Vec::new();
    let mut stack: Vec<_> = roots.into_iter().rev().collect();
    while let Some(n) = stack.pop() {
        if n.start_byte() >= end {
            continue;
        }
        if n.child_count() == 0 {
            tokens.push(n);
            continue;
        }
        let mut cursor = n.walk();
        let children: Vec<_> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    tokens
}

/// Non-whitespace bytes (the size measure).
fn chars(text: &[u8]) -> usize {
    text.iter().filter(|b| !b.is_ascii_whitespace()).count()
}

/// The declarations of `tree` that must be used, each with the other occurrences of its
/// names among `idents` (see [`Tied`]).
pub(super) fn tied(
    pd: &PassData,
    tree: &tree_sitter::Tree,
    idents: &[Ident],
    src: &[u8],
) -> Vec<Tied> {
    let mut by_name: HashMap<&[u8], Vec<&Range<usize>>> = HashMap::new();
    for i in idents {
        by_name
            .entry(&src[i.range.clone()])
            .or_default()
            .push(&i.range);
    }
    let root = tree.root_node();
    let mut out = Vec::new();
    for site in declaration_sites(pd, tree, src)
        .into_iter()
        .filter(|s| s.must_use)
    {
        let own: HashSet<usize> = site.tokens.iter().copied().collect();
        let names = site
            .tokens
            .iter()
            .filter_map(|&t| {
                let at = idents.binary_search_by_key(&t, |i| i.range.start).ok()?;
                Some(&src[idents[at].range.clone()])
            })
            .chain(site.path_name.as_deref());
        let uses: Vec<Range<usize>> = names
            .flat_map(|n| by_name.get(n).into_iter().flatten())
            .filter(|r| !own.contains(&r.start))
            .map(|r| (*r).clone())
            .collect();
        let Some(mut node) = root.descendant_for_byte_range(site.range.start, site.range.end)
        else {
            continue;
        };
        while let Some(p) = node.parent() {
            let only = p.named_child_count() == 1;
            if p.id() == root.id() || !(only || p.byte_range() == node.byte_range()) {
                break;
            }
            node = p;
        }
        out.push(Tied {
            range: node.byte_range(),
            uses,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Lang;

    fn text(src: &str, r: &std::ops::Range<usize>) -> String {
        src[r.clone()].to_string()
    }

    #[test]
    fn go_bodies_nest_and_imports_know_their_uses() {
        let src = "package p\n\nimport \"fmt\"\nimport (\n\t\"os\"\n\tu \"unicode/utf8\"\n)\n\n\
                   func F() { fmt.Println(os.Args); g := func() { u.RuneLen('a') }; g() }\n\
                   func (T) M() int { return 1 + 2 }\nfunc E() {}\n";
        let f = Lang::Go.facts(src.as_bytes()).unwrap();
        let bodies: Vec<String> = f.bodies.iter().map(|b| text(src, &b.range)).collect();
        // `E`'s body is not larger than `{panic(0)}`; the literal's is inside `F`'s.
        assert_eq!(
            bodies,
            [
                "{ fmt.Println(os.Args); g := func() { u.RuneLen('a') }; g() }",
                "{ u.RuneLen('a') }",
                "{ return 1 + 2 }",
            ]
        );
        assert!(f.bodies.iter().all(|b| b.text == b"{panic(0)}"));
        let tied: Vec<(String, Vec<String>)> = f
            .tied
            .iter()
            .map(|t| {
                (
                    text(src, &t.range),
                    t.uses.iter().map(|u| text(src, u)).collect(),
                )
            })
            .collect();
        // A lone import goes with its declaration; one of a list alone. `g` is a local
        // that must be used too.
        assert_eq!(
            tied,
            [
                ("import \"fmt\"".to_string(), vec!["fmt".to_string()]),
                ("\"os\"".to_string(), vec!["os".to_string()]),
                ("u \"unicode/utf8\"".to_string(), vec!["u".to_string()]),
                (
                    "g := func() { u.RuneLen('a') }".to_string(),
                    vec!["g".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn python_bodies_are_blocks_and_nothing_is_tied() {
        let src = "import os\n\ndef f(x):\n    y = os.sep\n    return y\n\ndef g():\n    0\n";
        let f = Lang::Python.facts(src.as_bytes()).unwrap();
        let bodies: Vec<String> = f.bodies.iter().map(|b| text(src, &b.range)).collect();
        assert_eq!(bodies, ["y = os.sep\n    return y"]);
        assert!(f.tied.is_empty());
    }

    #[test]
    fn a_head_that_closes_a_block_holds_no_body() {
        // The parse's error recovery reads `const a & } namespace a` as the head of one
        // function whose body is the namespace's: emptied, or made a declaration, it would
        // take the namespace's declarations with it.
        let src = "{ extern const a & }\nnamespace a {\nenum errc {};\n\
                   int f(int x) { x += 1; return x * 2; }\n}\n";
        let f = Lang::Cpp.facts(src.as_bytes()).unwrap();
        let bodies: Vec<String> = f.bodies.iter().map(|b| text(src, &b.range)).collect();
        assert_eq!(bodies, ["{ x += 1; return x * 2; }"]);
    }

    #[test]
    fn cpp_definitions_become_declarations_or_go_whole() {
        let src = "struct S {\n  int a;\n  S(int x) : a(x) { a += x; a *= 2; }\n  \
                   constexpr int get() const { return a * 2; }\n  \
                   [[nodiscard]] friend bool operator==(S l, S r) { return l.a == r.a; }\n  \
                   [[nodiscard]]\n  friend constexpr partial_ordering\n  \
                   operator<=>(partial_ordering __v, int) noexcept\n  { return __v; }\n  \
                   template <class T> void put(T t);\n  S &operator=(const S &o);\n};\n\
                   template <class T> void S::put(T t) { a = t + 1; a *= t; }\n\
                   S &S::operator=(const S &o) { a = o.a; return *this; }\n\
                   auto twice(int x) { return 2 * x; }\n\
                   void ::g(int x) { twice(x); twice(x); }\n";
        let f = Lang::Cpp.facts(src.as_bytes()).unwrap();
        // Each body's function as the early step makes it, and whether the step leaves it out
        // (a body no larger than `{for(;;);}` is none).
        let early: Vec<(String, bool)> = f
            .bodies
            .iter()
            .map(|b| {
                let (r, t) = b
                    .declaration
                    .clone()
                    .unwrap_or((b.range.clone(), b.text.clone()));
                let line = (src[..b.range.start].rfind('\n').unwrap() + 1)
                    ..(b.range.end + src[b.range.end..].find('\n').unwrap());
                let (before, after) = (
                    &src[line.start.min(r.start)..r.start],
                    &src[r.end..line.end],
                );
                let made = format!("{before}{}{after}", String::from_utf8_lossy(&t));
                (made.trim().to_string(), b.not_coarse)
            })
            .collect();
        assert_eq!(
            early,
            [
                // The initializers go with the body.
                ("S(int x);".to_string(), false),
                // A constexpr function's declaration is wrong only where it is evaluated.
                ("constexpr int get() const;".to_string(), false),
                // A friend keeps the body form.
                (
                    "[[nodiscard]] friend bool operator==(S l, S r) {for(;;);}".to_string(),
                    false
                ),
                // A constexpr friend keeps the body form and stays for the round, though
                // tree-sitter-cpp breaks its head off, `friend` and all, as a field
                // declaration missing its `;` (the body is on a line of its own).
                ("{for(;;);}".to_string(), true),
                // Defined outside the class: the definition goes whole, template and all.
                (String::new(), false),
                (String::new(), false),
                // A deduced return type is left to the round.
                ("auto twice(int x);".to_string(), true),
                // `::g` is qualified too.
                (String::new(), false),
            ]
        );
    }

    #[test]
    fn bodies_are_in_source_order_when_a_head_holds_a_function() {
        // `g` is defined inside `f`'s declarator (a local class of a lambda in its return
        // type), so the walk meets `f` first but `g`'s body comes first in the text.
        let src =
            "auto f(int x) -> decltype([] {\n  struct L {\n    int g() { return 1 + 2; }\n  };\n  \
                   return L();\n}()) {\n  return {};\n  x = x + 1;\n}\n";
        let f = Lang::Cpp.facts(src.as_bytes()).unwrap();
        let bodies: Vec<String> = f.bodies.iter().map(|b| text(src, &b.range)).collect();
        assert_eq!(
            bodies,
            ["{ return 1 + 2; }", "{\n  return {};\n  x = x + 1;\n}"]
        );
    }
}
