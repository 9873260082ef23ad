//! Recursion flattening: a chain of nested nodes of one family (`a + b + c + d`,
//! `a.b().c()`, `if .. else if ..`, comma sequences) becomes one flat node. Each
//! recursion level contributes a group of its other children (`+ c`, `.c`, `()`,
//! `if (x) s else`) that may be removed on its own (replacement ""); the innermost node
//! of the chain stays a required element. Family and link kinds per language are in
//! grammars/<lang>/flatten.txt.

use crate::lang::{KindId, LangData};
use crate::raw::Raw;

/// A child of a node in the final tree, before it is created.
pub(crate) enum Item {
    /// A raw node and whether its position may be empty.
    Raw(u32, bool),
    /// A group of raw nodes `scratch[start..start + len]` of (tail) kind.
    Group(u32, u32, KindId),
}

/// If raw node `r` heads a chain of its family, push the flattened children to `out`
/// (groups' members go to `scratch`) and return true. Iterative: the chain is walked
/// once, top-down; each raw node is visited by one chain only.
pub(crate) fn chain(
    raw: &Raw,
    data: &LangData,
    r: u32,
    out: &mut Vec<Item>,
    scratch: &mut Vec<u32>,
) -> bool {
    let family = data.family[raw.kind[r as usize] as usize];
    if family == 0 {
        return false;
    }
    // An island's root is of another language: never a member or a link.
    let lang = raw.lang[r as usize];
    let member = |x: u32| {
        raw.lang[x as usize] == lang
            && !raw.is_token(x)
            && raw.kids(x).len() >= 2
            && data.family[raw.kind[x as usize] as usize] == family
    };
    let mut prefix: Vec<Item> = Vec::new();
    let mut suffix: Vec<Item> = Vec::new();
    let mut cur = r;
    loop {
        let kids = raw.kids(cur);
        let (first, last) = (kids[0], kids[kids.len() - 1]);
        let tail = data.tail(raw.kind[cur as usize]);
        if member(first) {
            suffix.push(group(raw, &kids[1..], tail, scratch));
            cur = first;
        } else if member(last) {
            prefix.push(group(raw, &kids[..kids.len() - 1], tail, scratch));
            cur = last;
        } else if raw.lang[last as usize] == lang
            && data.link[raw.kind[last as usize] as usize]
            && raw.kids(last).len() >= 2
            && member(*raw.kids(last).last().unwrap_or(&last))
        {
            let link_kids = raw.kids(last);
            let start = scratch.len() as u32;
            scratch.extend_from_slice(&kids[..kids.len() - 1]);
            scratch.extend_from_slice(&link_kids[..link_kids.len() - 1]);
            prefix.push(Item::Group(start, scratch.len() as u32 - start, tail));
            cur = link_kids[link_kids.len() - 1];
        } else {
            break;
        }
    }
    if cur == r {
        return false;
    }
    out.extend(prefix);
    out.push(Item::Raw(cur, false));
    out.extend(suffix.into_iter().rev());
    true
}

fn group(raw: &Raw, members: &[u32], tail: KindId, scratch: &mut Vec<u32>) -> Item {
    match members {
        [only] if !raw.extra[*only as usize] => Item::Raw(*only, true),
        _ => {
            let start = scratch.len() as u32;
            scratch.extend_from_slice(members);
            Item::Group(start, members.len() as u32, tail)
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::{count_errors, dump, Edit, Lang, RTree};

    /// Snapshot of the tree, and every group of a flattened chain (kind `*/tail` or an
    /// optional element of a chain node) can be removed alone without syntax errors.
    #[track_caller]
    fn check(lang: Lang, src: &str, expect: Expect) {
        let tree = RTree::build(lang, src.as_bytes()).unwrap();
        expect.assert_eq(&dump(&tree));
        for n in tree.preorder() {
            if tree.kind(n).ends_with("/tail") {
                let text = tree.unparse_with(&|m| if m == n { Edit::Prune } else { Edit::Keep });
                assert_eq!(
                    count_errors(lang, &text),
                    0,
                    "{}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    #[test]
    fn binary_chain() {
        check(
            Lang::JavaScript,
            "a + b - c + d",
            expect![[r#"
                program>binary_expression
                  binary_expression => "0&0"
                    identifier "a"
                    + hidden "+"
                    identifier "b"
                  binary_expression/tail opt
                    - hidden "-"
                    identifier "c"
                  binary_expression/tail opt
                    + hidden "+"
                    identifier "d"
            "#]],
        );
    }

    #[test]
    fn call_member_chain() {
        check(
            Lang::JavaScript,
            "a.b().c(1).d",
            expect![[r#"
                program>member_expression
                  member_expression => "0 .x"
                    identifier "a"
                    . hidden "."
                    property_identifier "b"
                  arguments opt
                    ( hidden "("
                    ) hidden ")"
                  member_expression/tail opt
                    . hidden "."
                    property_identifier "c"
                  arguments opt
                    ( hidden "("
                    number opt "1"
                    ) hidden ")"
                  member_expression/tail opt
                    . hidden "."
                    property_identifier "d"
            "#]],
        );
    }

    #[test]
    fn else_if_chain_through_else_clause() {
        check(
            Lang::C,
            "void f() { if (a) x(); else if (b) y(); else z(); }",
            expect![[r#"
                translation_unit>function_definition
                  primitive_type "void"
                  function_declarator => "a()"
                    identifier "f"
                    parameter_list => "()"
                      ( hidden "("
                      ) hidden ")"
                  compound_statement => "{}"
                    { hidden "{"
                    if_statement opt
                      if_statement/tail opt
                        if hidden "if"
                        parenthesized_expression => "(a)"
                          ( hidden "("
                          identifier "a"
                          ) hidden ")"
                        expression_statement => ";"
                          call_expression opt
                            identifier "x"
                            argument_list => "()"
                              ( hidden "("
                              ) hidden ")"
                          ; hidden ";"
                        else hidden "else"
                      if_statement => "if(a);"
                        if hidden "if"
                        parenthesized_expression => "(a)"
                          ( hidden "("
                          identifier "b"
                          ) hidden ")"
                        expression_statement => ";"
                          call_expression opt
                            identifier "y"
                            argument_list => "()"
                              ( hidden "("
                              ) hidden ")"
                          ; hidden ";"
                        else_clause opt
                          else hidden "else"
                          expression_statement => ";"
                            call_expression opt
                              identifier "z"
                              argument_list => "()"
                                ( hidden "("
                                ) hidden ")"
                            ; hidden ";"
                    } hidden "}"
            "#]],
        );
    }

    #[test]
    fn right_recursive_assignment() {
        check(
            Lang::Java,
            "class A { void f() { a = b = c = 1; } }",
            expect![[r#"
                program>class_declaration
                  class hidden "class"
                  identifier "A"
                  class_body => "{}"
                    { hidden "{"
                    method_declaration opt
                      void_type "void"
                      identifier "f"
                      formal_parameters => "()"
                        ( hidden "("
                        ) hidden ")"
                      block => "{}"
                        { hidden "{"
                        expression_statement opt
                          assignment_expression => "a=a"
                            assignment_expression/tail opt
                              identifier "a"
                              = hidden "="
                            assignment_expression/tail opt
                              identifier "b"
                              = hidden "="
                            assignment_expression => "a=a"
                              identifier "c"
                              = hidden "="
                              decimal_integer_literal "1"
                          ; hidden ";"
                        } hidden "}"
                    } hidden "}"
            "#]],
        );
    }
}
