//! What the transformation passes need to know about a text: its tokens, its
//! identifier occurrences, its literals, and the parameter and argument lists of its functions
//! and calls. Everything language-specific comes from `grammars/<lang>/passes.toml`
//! ([`PassData`]); the code here only walks tree-sitter trees.
//!
//! Facts are computed on a fresh parse of the current text, so every range is a byte range of
//! that text; the passes turn them into candidate texts by splicing. A text's islands in other
//! languages (`inject.rs`: an HTML document's scripts and styles) add their facts, found with
//! their own languages' data, in place of the node that holds them.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::pass_data::{Bindings, ListSpec, PassData, Piece, UnwrapSpec};
use crate::{indent, inject, parse, Error, Lang};

mod bodies;
mod decls;
mod drops;
mod merge;
mod moves;
mod strip;
mod templates;
mod unnest;

pub use bodies::{Body, Tied};
pub(crate) use decls::{declaration_sites, DeclSite};

/// An identifier occurrence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub range: Range<usize>,
    /// Its replacement group (see [`Facts::group_extras`]), if its kind has one.
    pub group: Option<usize>,
}

/// A literal and the shorter texts it may become, in the order to try them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub range: Range<usize>,
    pub replacements: Vec<Vec<u8>>,
}

/// A parameter list of a function, or an argument list of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListSite {
    /// The whole function or call node.
    pub range: Range<usize>,
    /// The function's name (the last identifier token in the name field).
    pub name: Vec<u8>,
    /// The elements, in order (comments left out).
    pub elems: Vec<Range<usize>>,
    /// Calls only: the statement that is this call alone (C's `f(x);`), if it is one (the
    /// `statement` kind of `[[calls]]` in passes.toml).
    pub stmt: Option<Range<usize>>,
}

/// A definition that may be inlined: every other occurrence of `name` becomes `body` and the
/// definition goes (C's `typedef signed char d;`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub range: Range<usize>,
    pub name: Vec<u8>,
    pub name_range: Range<usize>,
    pub body: Vec<u8>,
    /// Where the name's other occurrences are replaced: the definition's parent (its block,
    /// or the whole file).
    pub scope: Range<usize>,
}

/// A function whose body a call may take the place of (C-Reduce's inliner). When the body is
/// a single `return` of a value, a call may become that value with the parameters replaced
/// by the arguments (a splice); in a language with call bindings (`[bindings]` in
/// passes.toml, GNU C's statement expression) any body without an early `return` may take a
/// call's place, each parameter declared and initialized with its argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inlinable {
    /// The whole definition (C's `function_definition`, JavaScript's `function_declaration`).
    pub owner: Range<usize>,
    pub name: Vec<u8>,
    /// The parameters' names, in order (the first token of each parameter with the kind of
    /// the function's name).
    pub params: Vec<Vec<u8>>,
    /// The parameters' whole declarations (`int c`), in order.
    pub param_decls: Vec<Range<usize>>,
    /// The body's statements before the returned value (all of them when the body has no
    /// `return`); empty when the body is one `return`.
    pub stmts: Vec<Range<usize>>,
    /// The returned expression, when the body's last statement is a `return` with a value.
    pub expr: Option<Range<usize>>,
    /// The whole body, braces included.
    pub body: Range<usize>,
}

/// What the passes know about one text.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Every token in source order (a literal counts as one token); comments included.
    pub tokens: Vec<Range<usize>>,
    pub idents: Vec<Ident>,
    /// Spellings of identifiers that no declaration of the file declares, in a language
    /// whose `[[declarations]]` are all its declarations (`rename_declared` in passes.toml):
    /// names of a library, which keep their spelling when the others are renamed.
    pub library: HashSet<Vec<u8>>,
    /// In the same languages: per spelling the file declares, the ranges of the nodes that
    /// declare it (outside imports).
    pub declared_at: HashMap<Vec<u8>, Vec<Range<usize>>>,
    pub literals: Vec<Literal>,
    pub functions: Vec<ListSite>,
    pub calls: Vec<ListSite>,
    pub definitions: Vec<Definition>,
    pub inlinable: Vec<Inlinable>,
    /// The language's call bindings (`[bindings]` in passes.toml), if it has them (the
    /// text's language's, not an island's).
    pub bindings: Option<Bindings>,
    /// Rewrites from `[[rewrites]]`: a node's range and the shorter text it may become.
    pub rewrites: Vec<(Range<usize>, Vec<u8>)>,
    /// Unwraps from `[[unwraps]]`: the text inserted in front of the enclosing statement (an
    /// empty range there) and the node's range with the expression that takes its place.
    pub unwraps: Vec<[(Range<usize>, Vec<u8>); 2]>,
    /// Merges from `[[merges]]`: a declaration's declarators joined to an earlier
    /// declaration (splices, sorted: `int b; long c;` -> `int b, c;` or `long b, c;`).
    pub merges: Vec<Vec<(Range<usize>, Vec<u8>)>>,
    /// Template parameters removed with their arguments, from `[[templates]]` (splices,
    /// sorted), per template and parameter.
    pub templates: Vec<Vec<(Range<usize>, Vec<u8>)>>,
    /// Scopes opened up from `[[unnests]]`, with their qualifiers (splices, sorted).
    pub unnests: Vec<Vec<(Range<usize>, Vec<u8>)>>,
    /// Functions moved into their classes from `[[moves]]` (splices, sorted).
    pub moves: Vec<Vec<(Range<usize>, Vec<u8>)>>,
    /// `[constants]`: texts sub-tree replacement may put in place of a node compatible with
    /// their kind (C's `0` for any expression), with their language (the text's, or an
    /// island's) and that kind.
    pub constants: Vec<(Lang, String, Vec<u8>)>,
    /// The extra replacement words of each identifier group.
    pub group_extras: Vec<Vec<Vec<u8>>>,
    /// Per `[[strips]]` entry, in order: its occurrences (see [`Strip`]).
    pub strips: Vec<Strip>,
    /// Bodies that may be emptied (`[[bodies]]`), in source order, nested ones included.
    pub bodies: Vec<Body>,
    /// Declarations that must be used, for the bodies that hold their uses (see [`Tied`]).
    pub tied: Vec<Tied>,
}

/// The occurrences of a `[[strips]]` token, each with its brackets (`__attribute__ ((x))`),
/// none inside another occurrence of any entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Strip {
    /// Tried before the first tree phase too.
    pub early: bool,
    pub ranges: Vec<Range<usize>>,
}

impl Lang {
    /// The facts of `src` (parsed afresh), its islands' included. Errors only for a language
    /// without grammar.
    pub fn facts(self, src: &[u8]) -> Result<Facts, Error> {
        let data = self.data()?;
        let tree = parse::parse(self, src)?;
        let islands = inject::islands(self, &tree, src);
        let mut facts = Facts {
            bindings: data.passes.bindings.clone(),
            ..Facts::default()
        };
        let mut trees = vec![(self, &tree, &islands[..], 0..src.len())];
        while let Some((lang, tree, islands, whole)) = trees.pop() {
            add_facts(&mut facts, lang, tree, islands, whole, src)?;
            trees.extend(islands.iter().map(|i| {
                let range = i.range.start_byte..i.range.end_byte;
                (i.lang, &i.tree, &i.islands[..], range)
            }));
        }
        let island_count = islands.len();
        drop(islands);
        drop(tree);
        parse::release_freed_memory(src.len());
        if island_count > 0 {
            // In source order, as the passes expect: an island's facts where its holder was.
            let by_start = |r: &Range<usize>| (r.start, r.end);
            facts.tokens.sort_by_key(by_start);
            facts.idents.sort_by_key(|i| by_start(&i.range));
            facts.literals.sort_by_key(|l| by_start(&l.range));
            facts.functions.sort_by_key(|f| by_start(&f.range));
            facts.calls.sort_by_key(|c| by_start(&c.range));
            facts.definitions.sort_by_key(|d| by_start(&d.range));
            facts.inlinable.sort_by_key(|i| by_start(&i.owner));
            facts.rewrites.sort_by_key(|r| by_start(&r.0));
        }
        // A function's body comes after what its head holds: a lambda in a default argument,
        // or a function that error recovery put inside another one's declarator.
        facts.bodies.sort_by_key(|b| (b.range.start, b.range.end));
        Ok(facts)
    }

    /// `word` may not be a new name: a keyword of the grammar or a reserved word, of this
    /// language or of a language its islands may be in (`inject.rs`).
    pub fn is_reserved(self, word: &[u8]) -> bool {
        self.any_words(word, |p| &p.reserved)
    }

    /// An identifier spelled `word` is never renamed or replaced: a reserved word or keyword
    /// of this language or of its islands' languages, `contextual` words excepted.
    pub fn is_fixed(self, word: &[u8]) -> bool {
        self.any_words(word, |p| &p.fixed)
    }

    /// `word` is in the `words` of this language's pass data or of a language its islands
    /// may be in.
    fn any_words(self, word: &[u8], words: fn(&PassData) -> &HashSet<Vec<u8>>) -> bool {
        let has = |l: Lang| l.data().is_ok_and(|d| words(&d.passes).contains(word));
        has(self) || inject::languages(self).into_iter().any(has)
    }
}

/// Add the facts of `tree`, a parse of `src` (or of its part `whole`, an island) in `lang`, to
/// `facts`; the nodes that hold `islands` are left out.
fn add_facts(
    facts: &mut Facts,
    lang: Lang,
    tree: &tree_sitter::Tree,
    islands: &[inject::Island],
    whole: Range<usize>,
    src: &[u8],
) -> Result<(), Error> {
    let pd = &lang.data()?.passes;
    let groups = facts.group_extras.len();
    facts.group_extras.extend(
        pd.extras
            .iter()
            .map(|e| e.iter().map(|w| w.as_bytes().to_vec()).collect()),
    );
    facts.constants.extend(
        pd.constants
            .iter()
            .map(|(kind, text)| (lang, kind.clone(), text.clone())),
    );
    let holders: HashSet<(usize, usize, u16)> = islands
        .iter()
        .map(|i| (i.range.start_byte, i.range.end_byte, i.holder))
        .collect();
    let mut unnests = unnest::Found::new(&pd.unnests);
    let mut templates: Vec<templates::Found> =
        pd.templates.iter().map(templates::Found::new).collect();
    let (first_token, first_ident) = (facts.tokens.len(), facts.idents.len());
    let mut merges = merge::Scopes::default();
    parse::walk_in(tree, |node, ancestors| {
        let kind = node.kind();
        let range = node.byte_range();
        if holders.contains(&(range.start, range.end, node.kind_id())) {
            return false;
        }
        if !pd.unnests.is_empty() {
            unnests.visit(node, &pd.unnests, src);
        }
        for t in &mut templates {
            t.visit(node, pd, src);
        }
        let named = node.is_named();
        if named {
            if let Some(spec) = pd.functions.iter().find(|s| s.kind == kind) {
                facts.functions.extend(list_site(&node, spec, pd, src));
                facts.inlinable.extend(inlinable(&node, spec, pd, src));
            }
            let parent_kind = ancestors.last().map(|p| p.kind());
            for r in pd.rewrites.iter().filter(|r| {
                r.kind == kind && (r.parent.is_none() || r.parent.as_deref() == parent_kind)
            }) {
                let mut text = Vec::new();
                let filled = r.pieces.iter().all(|p| match p {
                    Piece::Text(t) => {
                        text.extend_from_slice(t.as_bytes());
                        true
                    }
                    Piece::Field(f) => field_path(node, f).is_some_and(|c| {
                        // Where blocks are marked by indentation, the field's lines move
                        // to the node's column.
                        let shift = match pd.indentation {
                            true => {
                                indent::column(src, range.start)
                                    - indent::column(src, c.start_byte())
                            }
                            false => 0,
                        };
                        indent::reindent(&src[c.byte_range()], shift, &mut text);
                        true
                    }),
                    Piece::Inner => inner(node).is_some_and(|r| {
                        text.extend_from_slice(&src[r]);
                        true
                    }),
                });
                if filled && text.len() < range.len() {
                    facts.rewrites.push((range.clone(), text));
                }
            }
            for spec in pd.drops.iter().filter(|s| s.kind == kind) {
                if let Some((r, text)) = drops::drop_children(node, spec, src) {
                    if text.len() < r.len() {
                        facts.rewrites.push((r, text));
                    }
                }
            }
            bodies::visit(node, pd, src, &mut facts.bodies);
            if let Some(spec) = pd.unwraps.iter().find(|s| s.kind == kind) {
                facts.unwraps.extend(unwrap(node, spec, src));
            }
            for (i, spec) in pd.merges.iter().enumerate() {
                if spec.scopes.iter().any(|k| k == kind) {
                    let m = merges.merges(i, node, ancestors, spec, src);
                    facts.merges.extend(m);
                }
            }
            if let Some(spec) = pd.calls.iter().find(|s| s.kind == kind) {
                facts.calls.extend(list_site(&node, spec, pd, src));
            }
            if let Some(spec) = pd.inline.iter().find(|s| s.kind == kind) {
                let name = field_path(node, &spec.name);
                let body = field_path(node, &spec.body);
                if let (Some(name), Some(body)) = (name, body) {
                    if name.child_count() == 0 && pd.identifiers.contains_key(name.kind()) {
                        let mut text = src[body.byte_range()].to_vec();
                        if spec.parens && body.child_count() > 0 {
                            text.insert(0, b'(');
                            text.push(b')');
                        }
                        facts.definitions.push(Definition {
                            range: range.clone(),
                            name: src[name.byte_range()].to_vec(),
                            name_range: name.byte_range(),
                            body: text,
                            // An island's root spans no more than the island.
                            scope: ancestors.last().map_or(whole.clone(), |p| {
                                let r = p.byte_range();
                                r.start.max(whole.start)..r.end.min(whole.end)
                            }),
                        });
                    }
                }
            }
        }
        let literal = if named && !node.is_error() {
            pd.literals.get(kind)
        } else {
            None
        };
        let leaf = node.child_count() == 0;
        if let Some(texts) = literal {
            let own = &src[range.clone()];
            let replacements = texts
                .iter()
                .map(|t| t.as_bytes().to_vec())
                .filter(|t| t.len() < own.len())
                .collect();
            facts.literals.push(Literal {
                range: range.clone(),
                replacements,
            });
        }
        if (leaf || literal.is_some()) && !node.is_missing() && !range.is_empty() {
            facts.tokens.push(range.clone());
            if named {
                if let Some(&group) = pd.identifiers.get(kind) {
                    let group = group.map(|g| g + groups);
                    facts.idents.push(Ident { range, group });
                }
            }
        }
        literal.is_none()
    });
    facts
        .strips
        .extend(strip::strips(pd, src, &facts.tokens[first_token..]));
    facts.unnests.extend(unnests.unnests());
    if !pd.moves.is_empty() {
        facts.moves.extend(moves::moves(&pd.moves, tree, src));
    }
    for t in templates {
        let candidates = t.candidates(&facts.idents[first_ident..], src);
        facts.templates.extend(candidates);
    }
    if pd.rename_declared {
        let idents = &facts.idents[first_ident..];
        let ends: HashMap<usize, usize> = idents
            .iter()
            .map(|i| (i.range.start, i.range.end))
            .collect();
        for d in declaration_sites(pd, tree, src)
            .iter()
            .filter(|d| !d.imports)
        {
            for t in &d.tokens {
                if let Some(&end) = ends.get(t) {
                    let at = facts.declared_at.entry(src[*t..end].to_vec()).or_default();
                    at.push(d.range.clone());
                }
            }
        }
        let library: Vec<Vec<u8>> = idents
            .iter()
            .map(|i| &src[i.range.clone()])
            .filter(|w| !facts.declared_at.contains_key(*w))
            .map(<[u8]>::to_vec)
            .collect();
        facts.library.extend(library);
    }
    if !pd.bodies.is_empty() && pd.declarations.iter().any(|d| d.must_use) {
        let tied = bodies::tied(pd, tree, &facts.idents[first_ident..], src);
        facts.tied.extend(tied);
    }
    Ok(())
}

/// The node at a field path (`value`, or `declarator.value`: the `value` of the node's
/// `declarator`). A step is resolved by [`step_children`]. A node with several children in
/// one field, or of one kind, has no path through it.
fn field_path<'t>(node: tree_sitter::Node<'t>, path: &str) -> Option<tree_sitter::Node<'t>> {
    let mut n = node;
    for step in path.split('.') {
        n = match step_children(n, step).as_slice() {
            [one] => *one,
            _ => return None,
        };
    }
    Some(n)
}

/// The children of `node` at one step of a field path: its children in field `step`, or, if
/// it has none there, its named children of kind `step` (`variable_declarator` in
/// JavaScript, where the declarators have no field).
fn step_children<'t>(node: tree_sitter::Node<'t>, step: &str) -> Vec<tree_sitter::Node<'t>> {
    let fields: Vec<_> = node
        .children_by_field_name(step, &mut node.walk())
        .collect();
    if !fields.is_empty() {
        return fields;
    }
    let mut c = node.walk();
    node.named_children(&mut c)
        .filter(|k| k.kind() == step)
        .collect()
}

/// An unwrap of `node` (see [`Facts::unwraps`]): `({ int b = x; b + 1; })` in
/// `f(({ int b = x; b + 1; }));` -> `int b = x; f(b + 1);`. `None` where the block does not
/// end in an expression statement with an expression, or no statement of a block encloses the
/// node.
fn unwrap(
    node: tree_sitter::Node<'_>,
    spec: &UnwrapSpec,
    src: &[u8],
) -> Option<[(Range<usize>, Vec<u8>); 2]> {
    let mut c = node.walk();
    let block = node
        .named_children(&mut c)
        .find(|b| b.kind() == spec.block)?;
    let mut c = block.walk();
    let stmts: Vec<_> = block.named_children(&mut c).collect();
    let (last, before) = stmts.split_last()?;
    let expr = (last.kind() == spec.last)
        .then(|| last.named_child(0))
        .flatten()?;
    let mut outer = node;
    while outer.parent()?.kind() != spec.parent {
        outer = outer.parent()?;
    }
    let moved = match (before.first(), before.last()) {
        (Some(a), Some(b)) => {
            let mut t = src[a.start_byte()..b.end_byte()].to_vec();
            t.push(b' ');
            t
        }
        _ => Vec::new(),
    };
    let at = outer.start_byte();
    Some([
        (at..at, moved),
        (node.byte_range(), src[expr.byte_range()].to_vec()),
    ])
}

/// The text range of `node` between its first and its last child (a block's statements,
/// without the braces); `None` with fewer than two children.
fn inner(node: tree_sitter::Node<'_>) -> Option<Range<usize>> {
    let count = node.child_count();
    if count < 2 {
        return None;
    }
    let first = node.child(0)?;
    let last = node.child(count - 1)?;
    Some(first.end_byte()..last.start_byte())
}

/// The tokens under `node`, in source order.
fn leaves(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.child_count() == 0 {
            out.push(n);
            continue;
        }
        let mut c = n.walk();
        let kids: Vec<_> = n.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// The identifier tokens under `node`, in source order.
fn ident_tokens<'t>(node: tree_sitter::Node<'t>, pd: &PassData) -> Vec<tree_sitter::Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.child_count() == 0 {
            if n.is_named() && pd.identifiers.contains_key(n.kind()) {
                out.push(n);
            }
            continue;
        }
        let mut c = n.walk();
        let children: Vec<_> = n.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The function's name token (the last identifier token of the name field: `f` in `f`,
/// `*f`, `a.b.f`) and the elements of its list.
fn name_and_list<'t>(
    node: &tree_sitter::Node<'t>,
    spec: &ListSpec,
    pd: &PassData,
) -> Option<(tree_sitter::Node<'t>, Vec<tree_sitter::Node<'t>>)> {
    let name = *ident_tokens(node.child_by_field_name(&spec.name)?, pd).last()?;
    let list = node.child_by_field_name(&spec.list)?;
    let mut c = list.walk();
    let elems = list
        .named_children(&mut c)
        .filter(|e| !e.is_extra())
        .collect();
    Some((name, elems))
}

/// The start bytes of the identifier tokens that name the function a call calls: the `name`
/// field of a `[[calls]]` kind when that field is one identifier token (`f` of `f(x)`, not
/// `(*p)(x)`), each with whether the call is a statement alone (its value unused: `f(x);`).
/// Only for a language with `implicit_calls` (see [`PassData::implicit_calls`]).
pub(crate) fn callee_starts(pd: &PassData, tree: &tree_sitter::Tree) -> HashMap<usize, bool> {
    let mut out = HashMap::new();
    if !pd.implicit_calls || pd.calls.is_empty() {
        return out;
    }
    parse::walk(tree, |node| {
        if let Some(spec) = pd.calls.iter().find(|s| s.kind == node.kind()) {
            if let Some(name) = field_path(node, &spec.name) {
                if name.child_count() == 0 && pd.identifiers.contains_key(name.kind()) {
                    let alone = node.parent().is_some_and(|p| {
                        spec.statement.as_deref() == Some(p.kind()) && p.named_child_count() == 1
                    });
                    out.insert(name.start_byte(), alone);
                }
            }
        }
        true
    });
    out
}

fn list_site(
    node: &tree_sitter::Node<'_>,
    spec: &ListSpec,
    pd: &PassData,
    src: &[u8],
) -> Option<ListSite> {
    let (name, elems) = name_and_list(node, spec, pd)?;
    let stmt = node
        .parent()
        .filter(|p| spec.statement.as_deref() == Some(p.kind()))
        .filter(|p| {
            let mut c = p.walk();
            let named: Vec<_> = p.named_children(&mut c).filter(|n| !n.is_extra()).collect();
            named == [*node]
        })
        .map(|p| p.byte_range());
    Some(ListSite {
        range: node.byte_range(),
        name: src[name.byte_range()].to_vec(),
        elems: elems.iter().map(|e| e.byte_range()).collect(),
        stmt,
    })
}

/// The function at `node` if a call may inline its body (see [`Inlinable`]): its last
/// statement is the only `return` in it (or it has none). The body is the `body` field of the
/// node or of the first ancestor reached through `name` fields.
fn inlinable(
    node: &tree_sitter::Node<'_>,
    spec: &ListSpec,
    pd: &PassData,
    src: &[u8],
) -> Option<Inlinable> {
    let body_field = spec.body.as_deref()?;
    let (name, elems) = name_and_list(node, spec, pd)?;
    let mut owner = *node;
    let body = loop {
        if let Some(b) = owner.child_by_field_name(body_field) {
            break b;
        }
        let parent = owner.parent()?;
        if parent.child_by_field_name(&spec.name) != Some(owner) {
            return None;
        }
        owner = parent;
    };
    let mut c = body.walk();
    let mut statements: Vec<_> = body
        .named_children(&mut c)
        .filter(|n| !n.is_extra())
        .collect();
    // The value: the last statement's, if it is a return with one.
    let expr = match statements.last() {
        Some(last) if pd.returns.contains(last.kind()) => {
            let mut c = last.walk();
            let values: Vec<_> = last
                .named_children(&mut c)
                .filter(|n| !n.is_extra())
                .collect();
            let [value] = values.as_slice() else {
                return None;
            };
            let value = value.byte_range();
            statements.pop();
            Some(value)
        }
        _ => None,
    };
    // No other return anywhere in the body (it would leave the caller).
    if statements.iter().any(|s| contains_kind(*s, &pd.returns)) {
        return None;
    }
    // A parameter's name: its first token of the function name's kind. A lone parameter
    // without one is C's `(void)`; any other unnamed parameter makes the function ineligible.
    let names: Vec<Option<Vec<u8>>> = elems
        .iter()
        .map(|e| {
            ident_tokens(*e, pd)
                .into_iter()
                .find(|t| t.kind() == name.kind())
                .map(|t| src[t.byte_range()].to_vec())
        })
        .collect();
    let (params, param_decls) = match names.as_slice() {
        [None] => (Vec::new(), Vec::new()),
        _ => (
            names.into_iter().collect::<Option<Vec<_>>>()?,
            elems.iter().map(|e| e.byte_range()).collect(),
        ),
    };
    Some(Inlinable {
        owner: owner.byte_range(),
        name: src[name.byte_range()].to_vec(),
        params,
        param_decls,
        stmts: statements.iter().map(|s| s.byte_range()).collect(),
        expr,
        body: body.byte_range(),
    })
}

/// `node` or a node under it is of one of `kinds`.
fn contains_kind(node: tree_sitter::Node<'_>, kinds: &std::collections::HashSet<String>) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if kinds.contains(n.kind()) {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

#[cfg(test)]
mod tests;
