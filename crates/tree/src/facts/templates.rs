//! `[templates]`: a template parameter removed together with the argument each use gives it;
//! where the template uses the parameter, its uses become that argument (instantiation).
//! C-Vise's remove-unused-template-param, instantiate-template-param and
//! template-non-type-arg-to-int, one candidate per template and parameter; the same for
//! the generic parameters of other languages' declarations (Rust, TypeScript, Java).

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use super::{field_path, Ident};
use crate::pass_data::{PassData, TemplateSpec};

/// A template declaration.
struct Decl {
    name: Vec<u8>,
    range: Range<usize>,
    /// What goes with the last parameter: `template <...>` up to the declaration it
    /// declares where the name follows the list (C++), else the list (Rust's `<T>`).
    prefix: Range<usize>,
    list: Range<usize>,
    /// The list's elements, skipped ones (`skip`) included.
    elems: Vec<Range<usize>>,
    params: Vec<Param>,
}

struct Param {
    /// Its index in [`Decl::elems`].
    at: usize,
    name: Option<Vec<u8>>,
    default: Option<Vec<u8>>,
    value: bool,
    variadic: bool,
}

/// A use of a template: `A<int, 3>`.
struct Use {
    name: Vec<u8>,
    list: Range<usize>,
    /// The list's elements, skipped ones included.
    elems: Vec<Range<usize>>,
    /// The indices in `elems` of the arguments that count.
    args: Vec<usize>,
}

/// What one walk over the tree collects for [`Found::candidates`].
#[derive(Default)]
pub(super) struct Found {
    decls: Vec<Decl>,
    uses: Vec<Use>,
}

impl Found {
    pub(super) fn visit(&mut self, node: Node<'_>, pd: &PassData, src: &[u8]) {
        let Some(spec) = &pd.templates else { return };
        let kind = node.kind();
        if spec.kinds.iter().any(|k| k == kind) {
            self.decls.extend(decl(node, spec, pd, src));
        } else if spec.uses.iter().any(|u| u == kind) {
            let name = spec.name.iter().find_map(|f| field_path(node, f));
            let list = field_path(node, &spec.arguments);
            if let (Some(name), Some(list)) = (name, list) {
                if name.child_count() == 0 {
                    let elems = elements(list);
                    self.uses.push(Use {
                        name: src[name.byte_range()].to_vec(),
                        list: list.byte_range(),
                        args: counted(&elems, spec).collect(),
                        elems: elems.iter().map(Node::byte_range).collect(),
                    });
                }
            }
        }
    }

    /// Per template name (in order) and parameter (last first): the splices removing the
    /// parameter from every declaration and its argument from every use, its uses in the
    /// declarations replaced.
    pub(super) fn candidates(
        self,
        pd: &PassData,
        idents: &[Ident],
        src: &[u8],
    ) -> Vec<Vec<(Range<usize>, Vec<u8>)>> {
        let Some(spec) = &pd.templates else {
            return Vec::new();
        };
        let mut names: Vec<&[u8]> = Vec::new();
        let mut decls: HashMap<&[u8], Vec<&Decl>> = HashMap::new();
        for d in &self.decls {
            decls
                .entry(&d.name)
                .or_insert_with(|| {
                    names.push(&d.name);
                    Vec::new()
                })
                .push(d);
        }
        let mut uses: HashMap<&[u8], Vec<&Use>> = HashMap::new();
        for u in &self.uses {
            uses.entry(&u.name).or_default().push(u);
        }
        let mut out = Vec::new();
        for name in names {
            let ds = &decls[name];
            let uses = uses.get(name).map_or(&[][..], Vec::as_slice);
            let arity = ds.iter().map(|d| d.params.len()).max().unwrap_or(0);
            for i in (0..arity).rev() {
                if ds
                    .iter()
                    .any(|d| d.params.get(i).is_some_and(|p| p.variadic))
                {
                    continue;
                }
                out.push(remove_param(ds, uses, i, spec, idents, src));
            }
        }
        out.retain(|c| !c.is_empty());
        out
    }
}

/// The candidate removing parameter `i` of the declarations `ds` of one template.
fn remove_param(
    ds: &[&Decl],
    uses: &[&Use],
    i: usize,
    spec: &TemplateSpec,
    idents: &[Ident],
    src: &[u8],
) -> Vec<(Range<usize>, Vec<u8>)> {
    let arity = ds.iter().map(|d| d.params.len()).max().unwrap_or(0);
    let args: Vec<&[u8]> = uses
        .iter()
        .filter_map(|u| u.args.get(i).map(|&k| &src[u.elems[k].clone()]))
        .collect();
    let param = ds.iter().find_map(|d| d.params.get(i));
    let value = match args.split_first() {
        Some((first, rest)) if rest.iter().all(|a| a == first) => first.to_vec(),
        _ => match param.and_then(|p| p.default.clone()) {
            Some(default) => default,
            None if param.is_some_and(|p| p.value) => spec.value.as_bytes().to_vec(),
            None => spec.r#type.as_bytes().to_vec(),
        },
    };
    // Removals first where a replacement starts at the same place (an argument that is the
    // parameter itself).
    let mut removed: Vec<Range<usize>> = Vec::new();
    let mut replaced: Vec<Range<usize>> = Vec::new();
    for d in ds {
        let Some(p) = d.params.get(i) else { continue };
        if d.elems.len() == 1 {
            removed.push(d.prefix.clone());
        } else {
            removed.push(remove_element(&d.elems, p.at));
        }
        if let Some(pname) = &p.name {
            // Identifiers are in source order: those inside the declaration are a slice.
            let lo = idents.partition_point(|id| id.range.start < d.range.start);
            let hi = idents.partition_point(|id| id.range.start < d.range.end);
            replaced.extend(
                idents[lo..hi.max(lo)]
                    .iter()
                    .filter(|id| {
                        within(&id.range, &d.range)
                            && !within(&id.range, &d.list)
                            && &src[id.range.clone()] == pname.as_slice()
                    })
                    .map(|id| id.range.clone()),
            );
        }
    }
    for u in uses {
        if arity == 1 && u.elems.len() <= 1 {
            removed.push(u.list.clone());
        } else if let Some(&k) = u.args.get(i) {
            removed.push(remove_element(&u.elems, k));
        }
    }
    let mut splices: Vec<(Range<usize>, Vec<u8>)> = removed
        .into_iter()
        .map(|r| (r, Vec::new()))
        .chain(replaced.into_iter().map(|r| (r, value.clone())))
        .collect();
    splices.sort_by_key(|(r, t)| (r.start, !t.is_empty(), std::cmp::Reverse(r.end)));
    let mut out: Vec<(Range<usize>, Vec<u8>)> = Vec::new();
    for s in splices {
        if out.last().is_some_and(|(l, _)| s.0.start < l.end) {
            continue;
        }
        out.push(s);
    }
    out
}

/// The range removing element `i` of a list, with one separator next to it.
fn remove_element(elems: &[Range<usize>], i: usize) -> Range<usize> {
    if i + 1 < elems.len() {
        elems[i].start..elems[i + 1].start
    } else if i > 0 {
        elems[i - 1].end..elems[i].end
    } else {
        elems[i].clone()
    }
}

fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// The named children of a list node (comments left out).
fn elements(list: Node<'_>) -> Vec<Node<'_>> {
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|n| !n.is_extra())
        .collect()
}

/// The indices of the elements that count (not of a `skip` kind).
fn counted<'a>(elems: &'a [Node<'_>], spec: &'a TemplateSpec) -> impl Iterator<Item = usize> + 'a {
    (0..elems.len()).filter(|&k| !spec.skip.iter().any(|s| s == elems[k].kind()))
}

fn decl(node: Node<'_>, spec: &TemplateSpec, pd: &PassData, src: &[u8]) -> Option<Decl> {
    let list = node.child_by_field_name(&spec.parameters)?;
    let name = spec
        .names
        .iter()
        .find_map(|path| field_path(node, path).filter(|n| n.child_count() == 0))?;
    let prefix = if name.end_byte() <= list.start_byte() {
        list.byte_range()
    } else {
        // The declaration: the first named child after the parameter list.
        let mut c = node.walk();
        let declared = node
            .named_children(&mut c)
            .find(|n| n.start_byte() >= list.end_byte() && !n.is_extra())?;
        node.start_byte()..declared.start_byte()
    };
    let elems = elements(list);
    let params: Vec<Param> = counted(&elems, spec)
        .map(|k| param(elems[k], k, spec, pd, src))
        .collect();
    Some(Decl {
        name: src[name.byte_range()].to_vec(),
        range: node.byte_range(),
        prefix,
        list: list.byte_range(),
        elems: elems.iter().map(Node::byte_range).collect(),
        params,
    })
}

fn param(node: Node<'_>, at: usize, spec: &TemplateSpec, pd: &PassData, src: &[u8]) -> Param {
    let leaves = super::leaves(node);
    let eq = leaves.iter().position(|l| l.kind() == "=");
    let before = &leaves[..eq.unwrap_or(leaves.len())];
    let name = match &spec.parameter_name {
        Some(step) => field_path(node, step),
        None => before
            .iter()
            .rev()
            .find(|l| l.is_named() && pd.identifiers.contains_key(l.kind()))
            .copied(),
    }
    .map(|l| src[l.byte_range()].to_vec());
    let default = eq
        .and_then(|e| leaves.get(e + 1))
        .map(|first| src[first.start_byte()..node.end_byte()].to_vec());
    Param {
        at,
        name,
        default,
        value: spec.value_kinds.iter().any(|k| k == node.kind()),
        variadic: leaves.iter().any(|l| l.kind() == "..."),
    }
}
