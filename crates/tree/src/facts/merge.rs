//! Declaration merging (`[[merges]]` in passes.toml): `int b; long c = e;` -> `long b, c = e;`,
//! and a block's `int b;` joined to a file-scope `long d;` -> `long d, b;`. C-Reduce's
//! combine-local-var and combine-global-var merge declarations of one type, and its
//! local-to-global moves a local to file scope; here one candidate does both, under the type
//! of either declaration, so every candidate is shorter than the text it comes from (the type
//! and the `;` of one declaration go, a `,` comes).

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use crate::pass_data::MergeSpec;

/// A declaration split for merging: its type part (everything before the first declarator),
/// its declarators (first to last, separators included) and the whole node.
#[derive(Clone)]
struct Decl {
    whole: Range<usize>,
    prefix: Range<usize>,
    decls: Range<usize>,
}

/// The declarations of the outermost scopes met so far (per `[[merges]]` entry and scope
/// node), each found once for all the scopes inside it.
#[derive(Default)]
pub(super) struct Scopes {
    outer: HashMap<(usize, usize), Outer>,
}

/// A scope's declarations in source order, and the positions of those of each type text.
struct Outer {
    decls: Vec<Decl>,
    by_type: HashMap<Vec<u8>, Vec<usize>>,
}

impl Scopes {
    /// The candidates merging a declaration child of `scope` (under `ancestors`, the root
    /// first) into an earlier declaration, each a list of splices (sorted, not overlapping)
    /// of `src`; `entry` is the index of `spec` among the language's `[[merges]]`. For every
    /// declaration, the targets in order: the nearest earlier declaration with the same type
    /// text in the same scope, then in the outermost enclosing scope (before the child
    /// holding `scope`), then the nearest earlier one of the outermost scope, then of the same
    /// scope; each under the target's type, then under the moved declaration's. Merges that
    /// keep every type come first; moving a local to file scope (where it starts as zero)
    /// comes before changing its type in its block.
    pub(super) fn merges(
        &mut self,
        entry: usize,
        scope: Node<'_>,
        ancestors: &[Node<'_>],
        spec: &MergeSpec,
        src: &[u8],
    ) -> Vec<Vec<(Range<usize>, Vec<u8>)>> {
        let own = decls_of(scope, spec);
        if own.is_empty() {
            return Vec::new();
        }
        // The outermost enclosing scope, and where the path from it to `scope` leaves it.
        let outermost = ancestors
            .iter()
            .position(|a| spec.scopes.iter().any(|s| s == a.kind()))
            .map(|k| {
                let child = ancestors.get(k + 1).unwrap_or(&scope);
                (ancestors[k], child.start_byte())
            });
        let empty = Outer {
            decls: Vec::new(),
            by_type: HashMap::new(),
        };
        let (outer, cut) = match outermost {
            Some((p, before)) => {
                let outer = self.outer.entry((entry, p.id())).or_insert_with(|| {
                    let decls = decls_of(p, spec);
                    let mut by_type: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
                    for (i, d) in decls.iter().enumerate() {
                        by_type
                            .entry(src[d.prefix.clone()].to_vec())
                            .or_default()
                            .push(i);
                    }
                    Outer { decls, by_type }
                });
                // Declarations do not overlap: their ends grow with their positions.
                (
                    &*outer,
                    outer.decls.partition_point(|d| d.whole.end <= before),
                )
            }
            None => (&empty, 0),
        };
        let outer_same = |prefix: &[u8]| {
            let at = outer.by_type.get(prefix)?;
            let k = at.partition_point(|&i| i < cut);
            k.checked_sub(1).map(|k| &outer.decls[at[k]])
        };
        let mut own_same: HashMap<&[u8], usize> = HashMap::new();
        let mut out = Vec::new();
        for (j, moved) in own.iter().enumerate() {
            let prefix = &src[moved.prefix.clone()];
            // Type-preserving merges first, then local-to-global, then a type change in place.
            let targets = [
                own_same.get(prefix).map(|&i| &own[i]),
                outer_same(prefix),
                cut.checked_sub(1).map(|i| &outer.decls[i]),
                j.checked_sub(1).map(|i| &own[i]),
            ];
            own_same.insert(prefix, j);
            let mut seen: Vec<Range<usize>> = Vec::new();
            for target in targets.into_iter().flatten() {
                if seen.contains(&target.whole) {
                    continue;
                }
                seen.push(target.whole.clone());
                let mut joined = vec![b','];
                joined.extend_from_slice(&src[moved.decls.clone()]);
                let merge = vec![
                    (target.decls.end..target.decls.end, joined),
                    (moved.whole.clone(), Vec::new()),
                ];
                out.push(merge.clone());
                if src[target.prefix.clone()] != *prefix {
                    let mut retyped = vec![(target.prefix.clone(), prefix.to_vec())];
                    retyped.extend(merge);
                    out.push(retyped);
                }
            }
        }
        out
    }
}

/// The declarations among `scope`'s children, split for merging.
fn decls_of(scope: Node<'_>, spec: &MergeSpec) -> Vec<Decl> {
    let mut c = scope.walk();
    scope
        .named_children(&mut c)
        .filter(|n| spec.kinds.iter().any(|k| k == n.kind()))
        .filter_map(|n| split(n, spec))
        .collect()
}

/// A declaration's parts, if it has declarators (the children at step `declarator` of a
/// field path), none of a kind in `except`, and something before them (its type).
fn split(node: Node<'_>, spec: &MergeSpec) -> Option<Decl> {
    if node.has_error() {
        return None;
    }
    let declarators = super::step_children(node, &spec.declarator);
    if declarators
        .iter()
        .any(|d| spec.except.iter().any(|k| k == d.kind()))
    {
        return None;
    }
    let (first, last) = (declarators.first()?, declarators.last()?);
    (first.start_byte() > node.start_byte()).then(|| Decl {
        whole: node.byte_range(),
        prefix: node.start_byte()..first.start_byte(),
        decls: first.start_byte()..last.end_byte(),
    })
}

#[cfg(test)]
mod tests {
    use crate::Lang;

    /// Every merge of `src`, applied (whitespace squeezed to one space).
    fn merged(lang: Lang, src: &str) -> Vec<String> {
        let facts = lang.facts(src.as_bytes()).unwrap();
        crate::facts::tests::applied(src, &facts.merges)
    }

    #[test]
    fn c_declarations_merge_in_their_block_and_into_file_scope() {
        let src = "long d; int a() { signed char e; int b; long c = e; for (int i;;); }";
        assert_eq!(
            merged(Lang::C, src),
            [
                // `signed char e;`: file scope's `long d` under either type.
                "long d,e; int a() { int b; long c = e; for (int i;;); }",
                "signed char d,e; int a() { int b; long c = e; for (int i;;); }",
                // `int b;`: no earlier `int`; file scope's `long d` under either type, then
                // the block's `signed char e` under either type.
                "long d,b; int a() { signed char e; long c = e; for (int i;;); }",
                "int d,b; int a() { signed char e; long c = e; for (int i;;); }",
                "long d; int a() { signed char e,b; long c = e; for (int i;;); }",
                "long d; int a() { int e,b; long c = e; for (int i;;); }",
                // `long c = e;`: file scope's `long d` has its type; then `int b`.
                "long d,c = e; int a() { signed char e; int b; for (int i;;); }",
                "long d; int a() { signed char e; int b,c = e; for (int i;;); }",
                "long d; int a() { signed char e; long b,c = e; for (int i;;); }",
            ]
        );
        // A struct's fields merge among themselves; a declaration without declarators, a
        // `for` loop's declaration and a prototype do not take part.
        assert!(merged(Lang::C, "int f(void); int g; int h(int);").is_empty());
        assert_eq!(
            merged(Lang::C, "struct s { int a; char *b; };"),
            ["struct s { int a,*b; };", "struct s { char a,*b; };"]
        );
    }

    #[test]
    fn javascript_and_java_declarations_merge() {
        assert_eq!(
            merged(
                Lang::JavaScript,
                "var m = 1; function f() { let n = 2; g(n); }"
            ),
            [
                "var m = 1,n = 2; function f() { g(n); }",
                "let m = 1,n = 2; function f() { g(n); }",
            ]
        );
        assert_eq!(
            merged(
                Lang::Java,
                "class A { static int x; void m() { int y = 1; long z = y; } }"
            ),
            [
                "class A { static int x,y = 1; void m() { long z = y; } }",
                "class A { int x,y = 1; void m() { long z = y; } }",
                "class A { static int x,z = y; void m() { int y = 1; } }",
                "class A { long x,z = y; void m() { int y = 1; } }",
                "class A { static int x; void m() { int y = 1,z = y; } }",
                "class A { static int x; void m() { long y = 1,z = y; } }",
            ]
        );
    }
}
