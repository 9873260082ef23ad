//! Identifier names: each spelling numbered, declarations, names that must be used and
//! callees marked on the tokens (for the reference closure).

use super::*;

impl RTree {
    /// Number the identifier tokens' spellings and mark where names are declared (the first
    /// occurrences where names are declared before use, and the `sites` of
    /// `[[declarations]]`), and the callees among them
    /// (tokens starting at a byte of `callees`, with whether their call is a statement
    /// alone). Each language of the text (its islands' too) takes part by its own data.
    pub(super) fn name_identifiers(
        &mut self,
        callees: &std::collections::HashMap<usize, bool>,
        sites: &[crate::facts::DeclSite],
    ) {
        let takes_part =
            |p: &crate::pass_data::PassData| p.declare_before_use || !p.declarations.is_empty();
        if !self.langs.iter().any(|l| takes_part(&l.1.passes)) {
            return;
        }
        // Declared tokens by start byte, with whether they must be used; declarations named
        // by a path by their node's range.
        let mut declared: std::collections::HashMap<usize, bool> = Default::default();
        let mut paths: std::collections::HashMap<(usize, usize), (&[u8], bool)> =
            Default::default();
        for s in sites {
            for &t in &s.tokens {
                declared.insert(t, s.must_use);
            }
            if let Some(p) = &s.path_name {
                paths.insert((s.range.start, s.range.end), (p, s.must_use));
            }
        }
        let mut ids: std::collections::HashMap<&[u8], u32> = std::collections::HashMap::new();
        let mut names = vec![NONE; self.nodes.len()];
        // (node index, flags to set): set after the walk, which borrows the nodes.
        let mut marks: Vec<(usize, u16)> = Vec::new();
        for n in self.preorder() {
            let node = self.node(n);
            let range = (node.start as usize, node.end as usize);
            if let Some(&(path, must)) = paths.get(&range) {
                // The outermost node of the declaration's range stands for it.
                paths.remove(&range);
                let next = ids.len() as u32;
                names[n.index()] = *ids.entry(path).or_insert(next);
                marks.push((n.index(), DECLARES | if must { MUST_USE } else { 0 }));
                continue;
            }
            let passes = &self.data(n).passes;
            // The first occurrence declares where names are declared before their uses.
            let by_first = passes.declare_before_use;
            let Some(text) = self.identifier_text(n, takes_part) else {
                continue;
            };
            let next = ids.len() as u32;
            let id = *ids.entry(text).or_insert(next);
            names[n.index()] = id;
            let mut flags = match declared.get(&(node.start as usize)) {
                Some(true) => DECLARES | MUST_USE,
                Some(false) => DECLARES,
                None if by_first && id == next => DECLARES,
                None => 0,
            };
            match callees.get(&(node.start as usize)) {
                Some(true) => flags |= CALLEE | STATEMENT_CALLEE,
                Some(false) => flags |= CALLEE,
                None => {}
            }
            if flags != 0 {
                marks.push((n.index(), flags));
            }
        }
        for (i, flags) in marks {
            self.nodes[i].flags |= flags;
        }
        self.names = names;
    }

    /// Number the spellings of the identifier tokens of every language whose files usually
    /// define a name before they use it (`defined_before_use`; see [`RTree::spelling`]).
    pub(super) fn number_spellings(&mut self) {
        let mut ids: std::collections::HashMap<&[u8], u32> = std::collections::HashMap::new();
        let mut spellings = vec![NONE; self.nodes.len()];
        let mut any = false;
        for n in self.preorder() {
            let Some(text) = self.identifier_text(n, |p| p.defined_before_use) else {
                continue;
            };
            let next = ids.len() as u32;
            spellings[n.index()] = *ids.entry(text).or_insert(next);
            any = true;
        }
        if any {
            self.spellings = spellings;
        }
    }

    /// The text of `n` if it is an identifier token (`identifiers` of its language's
    /// passes.toml, fixed words excepted) of a language for which `takes_part` holds.
    fn identifier_text(
        &self,
        n: NodeId,
        takes_part: impl Fn(&crate::pass_data::PassData) -> bool,
    ) -> Option<&[u8]> {
        let node = self.node(n);
        let passes = &self.data(n).passes;
        if node.flags & TOKEN == 0
            || !takes_part(passes)
            || !passes.identifiers.contains_key(self.inner_kind(n))
        {
            return None;
        }
        let text = &self.src[node.start as usize..node.end as usize];
        (!passes.fixed.contains(text)).then_some(text)
    }
}
