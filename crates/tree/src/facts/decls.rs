//! Where names are declared (`[[declarations]]` of passes.toml), for the reference closure of
//! a language whose names may be used before their declaration: the tree marks the tokens
//! these sites declare ([`crate::RTree::is_declaration`]).

use std::ops::Range;

use crate::parse;
use crate::pass_data::{DeclarationSpec, PassData};

/// One declaration in a parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeclSite {
    /// The declaration node (Go's `import_spec`, `short_var_declaration`).
    pub range: Range<usize>,
    /// The start bytes of the identifier tokens it declares.
    pub tokens: Vec<usize>,
    /// The name a path declares (`utf8` for Go's `import "unicode/utf8"`): then the node
    /// itself stands for the name.
    pub path_name: Option<Vec<u8>>,
    /// Rejected by the compiler when nothing uses it.
    pub must_use: bool,
    /// Brings in a library's name (see `DeclarationSpec::imports`).
    pub imports: bool,
}

/// Every declaration of `pd.declarations` in `tree`, in source order.
pub(crate) fn declaration_sites(
    pd: &PassData,
    tree: &tree_sitter::Tree,
    src: &[u8],
) -> Vec<DeclSite> {
    let mut out = Vec::new();
    if pd.declarations.is_empty() {
        return out;
    }
    parse::walk(tree, |node| {
        if !node.is_named() {
            return true;
        }
        let kind = node.kind();
        let spec = pd.declarations.iter().find(|s| {
            s.kinds.iter().any(|k| k == kind)
                && (s.within.is_empty() || within(node, s))
                && (s.with.as_ref()).is_none_or(|f| node.child_by_field_name(f).is_some())
                && (s.without.as_ref()).is_none_or(|f| super::step_children(node, f).is_empty())
        });
        if let Some(spec) = spec {
            out.extend(site(node, spec, pd, src));
        }
        true
    });
    out
}

/// `node` has an ancestor of one of the kinds of `spec.within`.
fn within(node: tree_sitter::Node<'_>, spec: &DeclarationSpec) -> bool {
    let mut n = node.parent();
    while let Some(p) = n {
        if spec.within.iter().any(|k| k == p.kind()) {
            return true;
        }
        n = p.parent();
    }
    false
}

fn site(
    node: tree_sitter::Node<'_>,
    spec: &DeclarationSpec,
    pd: &PassData,
    src: &[u8],
) -> Option<DeclSite> {
    let identifier = |n: &tree_sitter::Node<'_>| {
        n.child_count() == 0 && n.is_named() && pd.identifiers.contains_key(n.kind())
    };
    let mut tokens = Vec::new();
    let mut named = vec![node];
    let steps: Vec<&str> = spec.name.split('.').collect();
    for step in &steps {
        named = named
            .into_iter()
            .flat_map(|n| super::step_children(n, step))
            .collect();
    }
    let by_path = named.is_empty();
    // Where the named nodes nest, one that neither is nor holds an identifier takes the last
    // step again, or else stands for its one named child (`DeclarationSpec::nested`).
    while let Some(f) = named.pop() {
        if identifier(&f) {
            tokens.push(f.start_byte());
            continue;
        }
        let mut c = f.walk();
        let own: Vec<usize> = f
            .named_children(&mut c)
            .filter(|k| identifier(k))
            .map(|k| k.start_byte())
            .collect();
        if own.is_empty() && spec.nested {
            let next = steps
                .last()
                .map(|step| super::step_children(f, step))
                .unwrap_or_default();
            if !next.is_empty() {
                named.extend(next);
            } else if f.named_child_count() == 1 {
                named.extend(f.named_child(0));
            }
        }
        tokens.extend(own);
    }
    tokens.sort_unstable();
    let path_name = match (&spec.path, by_path) {
        (Some(path), true) => {
            let p = node.child_by_field_name(path)?;
            let text = &src[p.byte_range()];
            let text = text
                .strip_prefix(b"\"")
                .or_else(|| text.strip_prefix(b"`"))
                .unwrap_or(text);
            let text = text
                .strip_suffix(b"\"")
                .or_else(|| text.strip_suffix(b"`"))
                .unwrap_or(text);
            let last = text.rsplit(|&b| b == b'/').next().unwrap_or(text);
            (!last.is_empty() && !pd.fixed.contains(last)).then(|| last.to_vec())
        }
        _ => None,
    };
    if tokens.is_empty() && path_name.is_none() {
        return None;
    }
    Some(DeclSite {
        range: node.byte_range(),
        tokens,
        path_name,
        must_use: spec.must_use,
        imports: spec.imports,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

    /// (declared names, must be used) per site of `src`.
    fn sites(lang: Lang, src: &str) -> Vec<(Vec<String>, bool)> {
        let pd = &lang.data().unwrap().passes;
        let tree = parse::parse(lang, src.as_bytes()).unwrap();
        declaration_sites(pd, &tree, src.as_bytes())
            .into_iter()
            .map(|s| {
                let mut names: Vec<String> = s
                    .tokens
                    .iter()
                    .map(|&t| {
                        let end = src[t..]
                            .find(|c: char| !c.is_alphanumeric() && c != '_')
                            .map_or(src.len(), |e| t + e);
                        src[t..end].to_string()
                    })
                    .collect();
                names.extend(s.path_name.map(|p| String::from_utf8(p).unwrap()));
                (names, s.must_use)
            })
            .collect()
    }

    #[test]
    fn go_declares_imports_and_locals_that_must_be_used() {
        let src = "package p\nimport (\n\"unicode/utf8\"\nb \"bytes\"\n_ \"embed\"\n)\n\
                   var g = 1\ntype T struct{}\nfunc (T) m() {}\n\
                   func f(a int) { x, y := 1, 2; var z int; for i := range a {} }\n";
        let own = |v: &[&str], m: bool| (v.iter().map(|s| s.to_string()).collect(), m);
        assert_eq!(
            sites(Lang::Go, src),
            [
                own(&["utf8"], true),
                own(&["b"], true),
                own(&["g"], false),
                own(&["T"], false),
                own(&["m"], false),
                own(&["f"], false),
                own(&["a"], false),
                own(&["x", "y"], true),
                own(&["z"], true),
                own(&["i"], true),
            ]
        );
    }

    #[test]
    fn java_imports_declare_their_last_name_but_a_wildcard_none() {
        let src = "import java.util.*;\nimport java.util.List;\n\
                   import static java.util.concurrent.TimeUnit.NANOSECONDS;\n\
                   import static java.lang.Math.*;\nclass A { List x; }\n";
        let own = |v: &[&str]| (v.iter().map(|s| s.to_string()).collect(), false);
        assert_eq!(
            sites(Lang::Java, src),
            [
                own(&["List"]),
                own(&["NANOSECONDS"]),
                own(&["A"]),
                own(&["x"])
            ]
        );
    }

    #[test]
    fn cpp_declares_a_class_again_where_it_is_defined_and_types_where_they_are_named() {
        let src = "template<typename> struct rm;\ntemplate<typename T> struct rm { };\n\
                   template<> struct rm<int> : b { };\nstruct S;\nstruct S *p;\n\
                   union U { int a; };\nenum class E : int;\nenum class E : int { A };\n\
                   typedef int *ptr;\ntypedef void (*fn)(int);\ntypedef void (&fr)(int);\n\
                   using al = int;\n";
        let own = |v: &str| (vec![v.to_string()], false);
        assert_eq!(
            sites(Lang::Cpp, src),
            [
                own("rm"),
                own("rm"),
                own("U"),
                own("E"),
                own("ptr"),
                own("fn"),
                own("fr"),
                own("al")
            ]
        );
    }
}
