//! `[[templates]]`: a template parameter removed together with the argument each use gives it;
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

/// What one walk over the tree collects for [`Found::candidates`], for one table.
pub(super) struct Found<'s> {
    spec: &'s TemplateSpec,
    decls: Vec<Decl>,
    uses: Vec<Use>,
    /// The nodes of the `references` kind, in source order (as identifiers without a group).
    refs: Vec<Ident>,
}

impl<'s> Found<'s> {
    pub(super) fn new(spec: &'s TemplateSpec) -> Found<'s> {
        Found {
            spec,
            decls: Vec::new(),
            uses: Vec::new(),
            refs: Vec::new(),
        }
    }

    pub(super) fn visit(&mut self, node: Node<'_>, pd: &PassData, src: &[u8]) {
        let spec = self.spec;
        let kind = node.kind();
        if spec.references.as_deref() == Some(kind) {
            self.refs.push(Ident {
                range: node.byte_range(),
                group: None,
            });
        }
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
        idents: &[Ident],
        src: &[u8],
    ) -> Vec<Vec<(Range<usize>, Vec<u8>)>> {
        let spec = self.spec;
        if self.decls.is_empty() {
            return Vec::new();
        }
        // Where a parameter's name may stand, in source order.
        let refs = match spec.references {
            Some(_) => &self.refs,
            None => idents,
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
        // Where the uses become nothing (elided lifetimes), a use that is an argument goes
        // as an element of its list: the list's range and elements by the argument's range.
        let mut arguments: HashMap<Range<usize>, (&Use, usize)> = HashMap::new();
        if spec.r#type.is_empty() {
            for u in &self.uses {
                for (k, e) in u.elems.iter().enumerate() {
                    arguments.insert(e.clone(), (u, k));
                }
            }
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
                out.push(remove_param(ds, uses, i, spec, refs, &arguments, src));
            }
        }
        out.retain(|c| !c.is_empty());
        out
    }
}

/// The candidate removing parameter `i` of the declarations `ds` of one template; `refs` are
/// where a parameter's name may stand, in source order.
fn remove_param(
    ds: &[&Decl],
    uses: &[&Use],
    i: usize,
    spec: &TemplateSpec,
    refs: &[Ident],
    arguments: &HashMap<Range<usize>, (&Use, usize)>,
    src: &[u8],
) -> Vec<(Range<usize>, Vec<u8>)> {
    let arity = ds.iter().map(|d| d.params.len()).max().unwrap_or(0);
    let args: Vec<&[u8]> = uses
        .iter()
        .filter_map(|u| u.args.get(i).map(|&k| &src[u.elems[k].clone()]))
        .collect();
    let param = ds.iter().find_map(|d| d.params.get(i));
    let value = match args.split_first() {
        Some((first, rest)) if spec.instantiate && rest.iter().all(|a| a == first) => {
            first.to_vec()
        }
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
            // Those inside the declaration are a slice.
            let lo = refs.partition_point(|id| id.range.start < d.range.start);
            let hi = refs.partition_point(|id| id.range.start < d.range.end);
            replaced.extend(
                refs[lo..hi.max(lo)]
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
        if arity == 1 && u.elems.len() <= 1 && u.args.len() == u.elems.len() {
            removed.push(u.list.clone());
        } else if let Some(&k) = u.args.get(i) {
            removed.push(remove_element(&u.elems, k));
        }
    }
    if value.is_empty() {
        replaced.retain(|r| match arguments.get(r) {
            Some((u, k)) => {
                removed.push(if u.elems.len() == 1 {
                    u.list.clone()
                } else {
                    remove_element(&u.elems, *k)
                });
                false
            }
            None => true,
        });
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

/// The indices of the elements that count (not of a `skip` kind; of an `only` kind where
/// given).
fn counted<'a>(elems: &'a [Node<'_>], spec: &'a TemplateSpec) -> impl Iterator<Item = usize> + 'a {
    (0..elems.len()).filter(|&k| {
        let kind = elems[k].kind();
        !spec.skip.iter().any(|s| s == kind)
            && (spec.only.is_empty() || spec.only.iter().any(|o| o == kind))
    })
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
