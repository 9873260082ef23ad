//! `[[unnests]]`: scopes opened up with their qualifiers, one candidate per name (C++'s
//! `namespace N { int x; } int y = N::x;` -> `int x; int y = x;`, C-Vise's remove-namespace;
//! Rust's `mod a { .. }` with its `a::` paths).

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use crate::pass_data::UnnestSpec;

/// A scope's name and the splices that open it up: its text before and after the body's
/// inside.
type Opened = (Vec<u8>, [Range<usize>; 2]);

/// The names a `uses` node holds, and its range.
type Uses = (Vec<Vec<u8>>, Range<usize>);

/// What one walk over the tree collects for [`Found::unnests`].
#[derive(Default)]
pub(super) struct Found {
    /// Per spec: the scopes.
    scopes: Vec<Vec<Opened>>,
    /// Per spec: (scope text, the qualifier's range with its `::`).
    qualifiers: Vec<Vec<(Vec<u8>, Range<usize>)>>,
    /// Per spec: the `uses` nodes.
    uses: Vec<Vec<Uses>>,
}

impl Found {
    pub(super) fn new(specs: &[UnnestSpec]) -> Found {
        Found {
            scopes: vec![Vec::new(); specs.len()],
            qualifiers: vec![Vec::new(); specs.len()],
            uses: vec![Vec::new(); specs.len()],
        }
    }

    /// Note what `node` is to each spec.
    pub(super) fn visit(&mut self, node: Node<'_>, specs: &[UnnestSpec], src: &[u8]) {
        for (k, spec) in specs.iter().enumerate() {
            if node.kind() == spec.kind {
                if let Some(open) = opened(node, spec, src) {
                    self.scopes[k].push(open);
                }
            }
            if let Some(scope) = node.child_by_field_name(&spec.scope) {
                let colons = scope.next_sibling().filter(|n| n.kind() == "::");
                if let (Some(colons), 0) = (colons, scope.child_count()) {
                    let name = src[scope.byte_range()].to_vec();
                    self.qualifiers[k].push((name, scope.start_byte()..colons.end_byte()));
                }
            }
            if spec.uses.iter().any(|u| u == node.kind()) {
                let names = super::leaves(node)
                    .into_iter()
                    .filter(|n| n.is_named())
                    .map(|n| src[n.byte_range()].to_vec())
                    .collect();
                self.uses[k].push((names, node.byte_range()));
            }
        }
    }

    /// The candidates: per spec, per name in order of first opening, every node of that name
    /// opened up, every qualifier naming it and every use naming it removed.
    pub(super) fn unnests(self) -> Vec<Vec<(Range<usize>, Vec<u8>)>> {
        let mut out = Vec::new();
        for (k, scopes) in self.scopes.iter().enumerate() {
            let mut names: Vec<&[u8]> = Vec::new();
            let mut by_name: HashMap<&[u8], Vec<Range<usize>>> = HashMap::new();
            for (name, cuts) in scopes {
                let entry = by_name.entry(name).or_insert_with(|| {
                    names.push(name);
                    Vec::new()
                });
                entry.extend(cuts.iter().cloned());
            }
            for name in names {
                let mut cuts = by_name.remove(name).unwrap_or_default();
                if !name.is_empty() {
                    cuts.extend(
                        self.qualifiers[k]
                            .iter()
                            .filter(|(q, _)| q == name)
                            .map(|(_, r)| r.clone()),
                    );
                    cuts.extend(
                        self.uses[k]
                            .iter()
                            .filter(|(n, _)| n.iter().any(|n| n == name))
                            .map(|(_, r)| r.clone()),
                    );
                }
                cuts.sort_by_key(|r| (r.start, r.end));
                let mut splices: Vec<(Range<usize>, Vec<u8>)> = Vec::new();
                for c in cuts {
                    if splices.last().is_some_and(|(l, _)| c.start < l.end) {
                        continue;
                    }
                    splices.push((c, Vec::new()));
                }
                out.push(splices);
            }
        }
        out
    }
}

/// `node`'s name (empty for none; `None` for a name of several tokens) and its text before
/// and after its body's inside.
fn opened(node: Node<'_>, spec: &UnnestSpec, src: &[u8]) -> Option<Opened> {
    let name = match node.child_by_field_name(&spec.name) {
        Some(n) if n.child_count() == 0 => src[n.byte_range()].to_vec(),
        Some(_) => return None,
        None => Vec::new(),
    };
    let body = node.child_by_field_name(&spec.body)?;
    let n = body.child_count();
    if n < 2 {
        return None;
    }
    let first = body.child(0)?;
    let last = body.child(n - 1)?;
    // Errors inside the body do not matter (tree-sitter-cpp puts a MISSING node in an
    // unnamed parameter whose default is a braced list, `f(int = {})`, valid C++): only the
    // brackets the splices cut must be real tokens of the text.
    let bracket = |b: Node<'_>| !b.is_named() && !b.is_missing() && !b.byte_range().is_empty();
    if !bracket(first) || !bracket(last) {
        return None;
    }
    Some((
        name,
        [
            node.start_byte()..first.end_byte(),
            last.start_byte()..node.end_byte(),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use crate::Lang;

    /// Every unnest of `src`, applied (whitespace squeezed to one space).
    fn unnested(src: &str) -> Vec<String> {
        let facts = Lang::Cpp.facts(src.as_bytes()).unwrap();
        crate::facts::tests::applied(src, &facts.unnests)
    }

    #[test]
    fn a_namespace_opens_up_with_its_qualifiers_whatever_its_body_holds() {
        assert_eq!(
            unnested("namespace n { int x; } namespace { int y; } int z = n::x;"),
            [
                "int x; namespace { int y; } int z = x;",
                "namespace n { int x; } int y; int z = n::x;"
            ]
        );
        // tree-sitter-cpp puts a MISSING node in an unnamed parameter whose default is a
        // braced list (`int = {}`), which g++ accepts; the namespace around it still opens up.
        let src = "namespace n { void f(int = {}); }";
        let tree = crate::RTree::build(Lang::Cpp, src.as_bytes()).unwrap();
        assert_eq!(tree.error_count(), 1);
        assert_eq!(unnested(src), ["void f(int = {});"]);
        // A namespace whose closing brace is missing does not.
        assert!(unnested("namespace n { int x;").is_empty());
    }
}
