//! Squeezing of linear chains: a node whose single child covers the same tokens collapses
//! into one node. The outermost kind is kept (it decides the replacement of the position),
//! the innermost kind is remembered for hoisting compatibility.

use crate::raw::Raw;

/// The innermost node of the single-child chain starting at raw node `r`.
pub(crate) fn squeeze(raw: &Raw, mut r: u32) -> u32 {
    loop {
        match raw.kids(r) {
            // Not into an island: its root keeps its own language.
            [only]
                if !raw.extra[*only as usize]
                    && raw.lang[*only as usize] == raw.lang[r as usize] =>
            {
                r = *only
            }
            _ => return r,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dump::dump;
    use crate::{Lang, RTree};
    use expect_test::{expect, Expect};

    #[track_caller]
    fn check(lang: Lang, src: &str, expect: Expect) {
        let tree = RTree::build(lang, src.as_bytes()).unwrap();
        assert_eq!(tree.unparse(), src.as_bytes());
        expect.assert_eq(&dump(&tree));
    }

    #[test]
    fn single_child_chains_collapse() {
        // program > expression_statement > identifier becomes one token node.
        check(
            Lang::JavaScript,
            "x\n",
            expect![[r#"
                program>identifier "x"
            "#]],
        );
        check(
            Lang::C,
            "static int x;",
            expect![[r#"
                translation_unit>declaration
                  storage_class_specifier>static opt "static"
                  primitive_type "int"
                  identifier "x"
                  ; hidden ";"
            "#]],
        );
    }
}
