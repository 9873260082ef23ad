//! The transformation passes' per-language data, `grammars/<lang>/passes.toml`,
//! parsed and checked against the grammar when a language is loaded. [`crate::facts`] uses
//! it; this module depends on nothing else of the crate.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

mod pieces;

use pieces::template_pieces;
pub use pieces::Bindings;
pub(crate) use pieces::{Piece, Rewrite, RewriteSpec};

/// `grammars/<lang>/passes.toml`, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PassSpec {
    #[serde(default)]
    identifiers: Vec<String>,
    #[serde(default)]
    declare_before_use: bool,
    #[serde(default)]
    defined_before_use: bool,
    #[serde(default)]
    indentation: bool,
    #[serde(default)]
    declarations: Vec<DeclarationSpec>,
    #[serde(default)]
    local_scopes: Vec<String>,
    #[serde(default)]
    anonymous: Vec<String>,
    #[serde(default)]
    implicit_calls: bool,
    #[serde(default)]
    rename_declared: bool,
    #[serde(default)]
    pub reserved: Vec<String>,
    #[serde(default)]
    contextual: Vec<String>,
    #[serde(default)]
    groups: Vec<GroupSpec>,
    #[serde(default)]
    pub literals: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub functions: Vec<ListSpec>,
    #[serde(default)]
    pub calls: Vec<ListSpec>,
    #[serde(default)]
    pub inline: Vec<InlineSpec>,
    #[serde(default)]
    returns: Vec<String>,
    #[serde(default)]
    rewrites: Vec<RewriteSpec>,
    #[serde(default)]
    bindings: Option<BindingSpec>,
    #[serde(default)]
    pub unwraps: Vec<UnwrapSpec>,
    #[serde(default)]
    pub merges: Vec<MergeSpec>,
    #[serde(default)]
    constants: BTreeMap<String, String>,
    #[serde(default)]
    chunks: Option<ChunkSpec>,
    #[serde(default)]
    pub strips: Vec<StripSpec>,
    #[serde(default)]
    pub drops: Vec<DropSpec>,
    #[serde(default)]
    pub unnests: Vec<UnnestSpec>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub templates: Vec<TemplateSpec>,
    #[serde(default)]
    pub bodies: Vec<BodySpec>,
    #[serde(default)]
    pub moves: Vec<MoveSpec>,
}

/// A table or an array of tables (`[templates]` as well as `[[templates]]`), with the
/// tables' own errors (an unknown field by its name).
fn one_or_many<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    match toml::Value::deserialize(d)? {
        many @ toml::Value::Array(_) => many.try_into().map_err(D::Error::custom),
        one => Ok(vec![one.try_into().map_err(D::Error::custom)?]),
    }
}

/// `[[bodies]]`: the body of a node of `kind` (its child in `field`) may become `text`, a body
/// that is valid wherever the node is (the `bodies` pass: Rust's `{loop{}}` has every return
/// type, Java's `{throw null;}` too).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BodySpec {
    pub kind: String,
    pub field: String,
    pub text: String,
    /// Words that keep a body out of the early coarse sequence when a token of the function
    /// before its body is one of them (C++'s `constexpr` and deduced return types: emptied,
    /// such a body breaks the constant expressions and the callers that use its value).
    #[serde(default)]
    pub coarse_unless: Vec<String>,
    /// The outermost definitions' form, where the language has one: the definition becomes a
    /// declaration (C-Vise's `replace-function-def-with-decl`).
    #[serde(default)]
    pub declare: Option<DeclareSpec>,
}

/// `declare` of `[[bodies]]`: the function's text after its `declarator` field becomes
/// `text` (C++'s `;`: a constructor's initializers go with the body). A definition whose
/// declarator names the function by one of the `whole` kinds (C++'s `C::f`, which only a
/// definition may spell) goes whole instead, with the `wrappers` it is the only declaration
/// of (a `template <...>` in front). A definition with one of the `unless` words in front of
/// its body (as `coarse_unless`) keeps the body form (C++'s friend: `[[nodiscard]] friend T
/// f();` is an error where the definition is not).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeclareSpec {
    pub declarator: String,
    pub text: String,
    #[serde(default)]
    pub whole: Vec<String>,
    #[serde(default)]
    pub wrappers: Vec<String>,
    #[serde(default)]
    pub unless: Vec<String>,
    /// `coarse_unless` for the definitions that take this form: a constexpr function's
    /// declaration is only wrong where a constant expression evaluates it, where an emptied
    /// one is wrong wherever it is.
    #[serde(default)]
    pub coarse_unless: Vec<String>,
}

/// `[[templates]]`: generic declarations (nodes of `kinds` with their parameter list in field
/// `parameters`: C++'s `template_declaration`, Rust's, TypeScript's and Java's generic
/// items) and their uses (nodes of `uses`: the declaration's name at the first of the steps
/// `name` that leads to one node, a field or a kind of child, the arguments at the step
/// `arguments`), for the `templates` pass. A declaration's name is the one token at the
/// first path of `names` that leads to one (`class_specifier.name`). A parameter's name is
/// at the step `parameter_name` where given, else its last identifier before its `=`; where
/// a removed parameter is used, its uses become the argument every use of the template
/// gives it (unless `instantiate = false`), else its default, else `value` for a parameter
/// of `value_kinds` and `type` for any other. The uses are the identifier tokens with the
/// parameter's name, or the nodes of kind `references` with its text (Rust's lifetimes:
/// `'a`). Parameters and arguments of the `skip` kinds, and where `only` is given those not
/// of its kinds, neither count nor go (Rust's lifetimes, which uses may leave out, have a
/// table of their own).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TemplateSpec {
    pub kinds: Vec<String>,
    pub parameters: String,
    pub names: Vec<String>,
    pub uses: Vec<String>,
    pub name: Vec<String>,
    pub arguments: String,
    pub r#type: String,
    pub value: String,
    #[serde(default)]
    pub value_kinds: Vec<String>,
    #[serde(default)]
    pub parameter_name: Option<String>,
    #[serde(default)]
    pub skip: Vec<String>,
    #[serde(default)]
    pub only: Vec<String>,
    #[serde(default)]
    pub references: Option<String>,
    #[serde(default = "yes")]
    pub instantiate: bool,
}

fn yes() -> bool {
    true
}

/// `[[unnests]]`: the nodes of `kind` with one name (the text of field `name`) opened up
/// together, each replaced by its `body`'s text without its first and last child (braces),
/// every node whose field `scope` is that name (`N::x`) without it and the `::` after it,
/// and every node of `uses` that names it (`using namespace N;`) removed (C++'s namespaces).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnnestSpec {
    pub kind: String,
    pub name: String,
    pub body: String,
    pub scope: String,
    #[serde(default)]
    pub uses: Vec<String>,
}

/// `[[moves]]`: a function defined outside its class moved into it, where the class declares
/// it (C++'s `int C::f(int x) { .. }` -> `int f(int x) { .. }` in place of `int f(int);`:
/// C-Vise's move-function-body). A definition of `kind` whose declarator (field `declarator`,
/// down nested declarators by that field or their one named child, to the node with field
/// `parameters`) names it by a `qualified` node (the innermost of `n::C::f`): the text of its
/// `scope` (or of the scope's `name`, a class template's `C<T>`) names a class of `classes`
/// (fields `name` and `body`) defined once, whose body holds one declaration of `members`
/// (under its `wrappers`) whose declarator has the same `name` and parameter list types. The
/// declaration takes the definition's parameters (and keeps its own default values of
/// `defaults` kinds) and what follows the definition's declarator (initializers and body);
/// the definition goes with its `wrappers`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveSpec {
    pub kind: String,
    pub declarator: String,
    pub parameters: String,
    pub qualified: String,
    pub scope: String,
    pub name: String,
    pub classes: Vec<String>,
    pub body: String,
    pub members: Vec<String>,
    #[serde(default)]
    pub wrappers: Vec<String>,
    #[serde(default)]
    pub defaults: Vec<String>,
    /// The field of a parameter's type, and of a default parameter's value.
    pub r#type: String,
    #[serde(default)]
    pub default_value: Option<String>,
}

/// `[[drops]]`: a node of `kind` without some of its children, as a rewrite (C++'s default
/// argument: `int a = 3` -> `int a`; a class without its base classes). A path names
/// children of the node (a field, a named kind, or an anonymous token's text), and
/// `step/child` their children in turn. With `first`, the node's first token becomes that
/// text (`class` -> `struct`, whose members are public without `public:`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DropSpec {
    pub kind: String,
    pub drop: Vec<String>,
    #[serde(default)]
    pub first: Option<String>,
}

/// `[[strips]]`: a token removed everywhere (the `strip` pass), with the brackets that go
/// with it: the group it opens (`[[ ... ]]`), or else the bracketed group right after it
/// (`__attribute__ ((...))`, `noexcept(...)`), if any.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StripSpec {
    pub token: String,
    /// Also tried before the first tree phase, with the other early ones, in one candidate
    /// (what the grammar does not parse: the tree of the first phase is better without).
    #[serde(default)]
    pub early: bool,
}

/// `[chunks]`: the syntax filter parses a text of the language item by item (see
/// `filter/chunks.rs`). A `{` whose item, closed right there, ends in a node of `bodies` (or
/// of `blocks` that is an item of the file by itself) opens a level whose items are split
/// again (C++'s namespace bodies).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChunkSpec {
    #[serde(default)]
    pub bodies: Vec<String>,
    #[serde(default)]
    pub blocks: Vec<String>,
}

/// `[bindings]`: how a call binds parameters when a function's body takes its place.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BindingSpec {
    open: String,
    param: String,
    close: String,
    /// A parameter the call gives no argument for, `{param}` its declaration (C's call
    /// through a declaration without a prototype, `long b();`).
    #[serde(default)]
    unbound: Option<String>,
}

/// `[[unwraps]]`: an expression made of statements (GNU C's `({ s; e; })`) opened up. The
/// statements of its `block` child but the last go in front of the nearest enclosing node
/// whose parent is of kind `parent` (the enclosing statement of a block); the last one, of
/// kind `last`, gives its expression to the node's place.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnwrapSpec {
    pub kind: String,
    pub block: String,
    pub last: String,
    pub parent: String,
}

/// `[[declarations]]`: where names are declared, in a language whose names may be used before
/// their declaration (Go's, Rust's and Java's functions and types). A node of `kinds` declares
/// the identifier tokens at `name`, a field path as in templates (the node there, or its
/// direct children: Go's `a, b := ...`); without one, the last `/`-separated part of the
/// string in its field `path` (Go's `import "unicode/utf8"` declares `utf8`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeclarationSpec {
    pub kinds: Vec<String>,
    pub name: String,
    #[serde(default)]
    pub path: Option<String>,
    /// The compiler rejects the declaration when nothing uses it (Go's imports and local
    /// variables): the reference closure removes it with its last use.
    #[serde(default)]
    pub must_use: bool,
    /// Only declarations with an ancestor of one of these kinds (Go's variables in a function
    /// body, not those of the package); empty: all.
    #[serde(default)]
    pub within: Vec<String>,
    /// Only declarations that have this field (a definition's `body`, not a forward
    /// declaration).
    #[serde(default)]
    pub with: Option<String>,
    /// Only declarations without a child at this step of a field path (a field, or a kind of
    /// named child: Java's `import a.b.*;` has an `asterisk` and declares no name of its own).
    #[serde(default)]
    pub without: Option<String>,
    /// The declaration brings in a library's name (Java's import), which `rename_declared`
    /// leaves alone as it does the names that no declaration declares.
    #[serde(default)]
    pub imports: bool,
    /// The named nodes nest (C's declarators: `T *f()` declares `f` in a function declarator
    /// inside a pointer declarator): a node on the path that neither is nor holds an
    /// identifier takes the path's last step again, or else stands for its one named child
    /// (a reference declarator has no field).
    #[serde(default)]
    pub nested: bool,
}

/// `[[merges]]`: declarations of several variables (`int a, b;`). A declaration of `kinds`
/// that is a child of a node of `scopes` gives its declarators (the children in field
/// `declarator`, or of that kind) to an earlier declaration of the same scope, or of the
/// outermost enclosing scope (C's file scope: C-Reduce's local-to-global and
/// combine-local-var / combine-global-var in one step), under the type of either.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MergeSpec {
    pub kinds: Vec<String>,
    pub declarator: String,
    pub scopes: Vec<String>,
    /// Declarator kinds that keep a declaration out (C's `function_declarator`: a prototype
    /// is not a variable; merging it would only shuffle names between declarations).
    #[serde(default)]
    pub except: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupSpec {
    kinds: Vec<String>,
    #[serde(default)]
    extra: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InlineSpec {
    pub kind: String,
    /// Field path (as in rewrite templates) of the defined name: one identifier token.
    pub name: String,
    /// Field path of the text that takes the name's place.
    pub body: String,
    /// Put a body of more than one token in parentheses where it takes a name's place (an
    /// expression: `long c = a + b;` inlined into `c * 2` gives `(a + b) * 2`).
    #[serde(default)]
    pub parens: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListSpec {
    pub kind: String,
    pub name: String,
    pub list: String,
    /// Functions only: the field holding the function's body, on the function node or on the
    /// first ancestor reached by climbing through `name` fields (C's `function_definition`
    /// above its `function_declarator`).
    #[serde(default)]
    pub body: Option<String>,
    /// Calls only: the kind of a statement that is a call alone (`expression_statement`).
    /// Such a call, of a function that returns no value, may become the function's body
    /// (`inline-calls`).
    #[serde(default)]
    pub statement: Option<String>,
}

/// The per-language data of the passes, checked against the grammar when loaded.
#[derive(Debug, Default)]
pub(crate) struct PassData {
    /// Identifier kind -> its replacement group (index into `extras`), if any.
    pub identifiers: HashMap<String, Option<usize>>,
    /// A name is declared before its uses (C): its first occurrence in a text is where it is
    /// declared (the reference closure of the tree algorithms).
    pub declare_before_use: bool,
    /// Files of the language usually define a name before they use it, though the language
    /// does not demand it (a Python module's functions above the code that calls them): the
    /// uses-first work order reads a first occurrence as a definition.
    pub defined_before_use: bool,
    /// Blocks are marked by indentation (Python): a node hoisted or rewritten into another's
    /// place is re-indented to that place's column.
    pub indentation: bool,
    /// Where names are declared (`[[declarations]]`): in a language whose names may be used
    /// before their declaration, the only places; with `declare_before_use`, the places that
    /// declare a name again after its first occurrence (a class's definition after its
    /// forward declaration, a template's specializations).
    pub declarations: Vec<DeclarationSpec>,
    /// Node kinds whose names are not visible outside them (a block, a parameter list).
    pub local_scopes: HashSet<String>,
    /// Kinds whose body is no scope of its own when they have no name: an anonymous union's
    /// members are the enclosing class's.
    pub anonymous: HashSet<String>,
    /// A call may name a function declared nowhere (C89's implicit declaration), so whether
    /// a call refers to the function's declaration depends on the oracle's compiler.
    pub implicit_calls: bool,
    /// `[[declarations]]` are every place the language declares a name: a spelling that none
    /// of them declares names something of a library (Java's `String`, `java`), which
    /// `rename` leaves alone.
    pub rename_declared: bool,
    /// Per group: words that may replace a spelling of the group besides the file's own.
    pub extras: Vec<Vec<String>>,
    /// Words a new name must never be (keywords of the grammar and `contextual` words
    /// included).
    pub reserved: HashSet<Vec<u8>>,
    /// Words an identifier so spelled keeps: never renamed or replaced, never a name of the
    /// reference closure (the reserved words but the `contextual` ones, keywords only in
    /// some places, such as Java's `record`: a method may be called so).
    pub fixed: HashSet<Vec<u8>>,
    pub literals: HashMap<String, Vec<String>>,
    pub functions: Vec<ListSpec>,
    pub calls: Vec<ListSpec>,
    /// Definitions that may be inlined (C's `typedef`).
    pub inline: Vec<InlineSpec>,
    /// Return statement kinds (call inlining: a body that is one of these, with a value).
    pub returns: HashSet<String>,
    pub rewrites: Vec<Rewrite>,
    /// Call bindings (`[bindings]`), for inlining bodies of more than one `return`.
    pub bindings: Option<Bindings>,
    pub unwraps: Vec<UnwrapSpec>,
    pub merges: Vec<MergeSpec>,
    /// Sub-tree replacement's texts from outside the file: (node kind it parses as, text).
    pub constants: Vec<(String, Vec<u8>)>,
    /// How the syntax filter splits a text into items (`[chunks]`), if it may.
    pub chunks: Option<ChunkSpec>,
    /// Tokens the `strip` pass removes (`[[strips]]`).
    pub strips: Vec<StripSpec>,
    /// Children dropped from nodes, as rewrites (`[[drops]]`).
    pub drops: Vec<DropSpec>,
    /// Scopes opened up with their qualifiers (`[[unnests]]`).
    pub unnests: Vec<UnnestSpec>,
    /// Template declarations and their uses (`[[templates]]`).
    pub templates: Vec<TemplateSpec>,
    /// Bodies that may be emptied (`[[bodies]]`).
    pub bodies: Vec<BodySpec>,
    /// Functions moved into their classes (`[[moves]]`).
    pub moves: Vec<MoveSpec>,
}

impl PassData {
    /// Parse `text` and check every kind and field it names against `ts`. `keywords` are the
    /// grammar's anonymous word tokens.
    pub(crate) fn new(
        lang: &str,
        text: &str,
        ts: &tree_sitter::Language,
        keywords: impl Iterator<Item = String>,
    ) -> Result<PassData, String> {
        let spec: PassSpec =
            toml::from_str(text).map_err(|e| format!("grammars/{lang}/passes.toml: {e}"))?;
        let named_kind = |k: &str| -> Result<(), String> {
            if ts.id_for_node_kind(k, true) == 0 {
                return Err(format!(
                    "grammars/{lang}/passes.toml: `{k}` is not a named node kind of the grammar"
                ));
            }
            Ok(())
        };
        let field = |f: &str| -> Result<(), String> {
            ts.field_id_for_name(f).map(|_| ()).ok_or_else(|| {
                format!("grammars/{lang}/passes.toml: `{f}` is not a field of the grammar")
            })
        };
        // A step of a field path: a field, or a kind of the node's named children.
        let step = |f: &str| field(f).or_else(|e| named_kind(f).map_err(|_| e));
        let mut data = PassData {
            declare_before_use: spec.declare_before_use,
            defined_before_use: spec.defined_before_use,
            indentation: spec.indentation,
            implicit_calls: spec.implicit_calls,
            rename_declared: spec.rename_declared,
            ..PassData::default()
        };
        for d in &spec.declarations {
            for k in d.kinds.iter().chain(&d.within) {
                named_kind(k)?;
            }
            for f in d.name.split('.') {
                step(f)?;
            }
            for p in d.path.iter().chain(&d.with) {
                field(p)?;
            }
            if let Some(f) = &d.without {
                step(f)?;
            }
        }
        data.declarations = spec.declarations;
        for k in &spec.local_scopes {
            named_kind(k)?;
            data.local_scopes.insert(k.clone());
        }
        for k in &spec.anonymous {
            named_kind(k)?;
            data.anonymous.insert(k.clone());
        }
        for k in &spec.identifiers {
            named_kind(k)?;
            data.identifiers.insert(k.clone(), None);
        }
        for (g, group) in spec.groups.iter().enumerate() {
            for k in &group.kinds {
                match data.identifiers.get_mut(k) {
                    Some(slot) => *slot = Some(g),
                    None => {
                        return Err(format!(
                            "grammars/{lang}/passes.toml: group kind `{k}` is not in `identifiers`"
                        ))
                    }
                }
            }
            data.extras.push(group.extra.clone());
        }
        for (k, texts) in &spec.literals {
            named_kind(k)?;
            data.literals.insert(k.clone(), texts.clone());
        }
        for l in spec.functions.iter().chain(&spec.calls) {
            named_kind(&l.kind)?;
            field(&l.name)?;
            field(&l.list)?;
            if let Some(b) = &l.body {
                field(b)?;
            }
            if let Some(k) = &l.statement {
                named_kind(k)?;
            }
        }
        for k in &spec.returns {
            named_kind(k)?;
        }
        data.returns = spec.returns.into_iter().collect();
        for r in &spec.rewrites {
            named_kind(&r.kind)?;
            let pieces = template_pieces(&r.template).ok_or_else(|| {
                format!(
                    "grammars/{lang}/passes.toml: unbalanced braces in template `{}`",
                    r.template
                )
            })?;
            for p in &pieces {
                if let Piece::Field(path) = p {
                    for f in path.split('.') {
                        step(f)?;
                    }
                }
            }
            if let Some(p) = &r.parent {
                named_kind(p)?;
            }
            data.rewrites.push(Rewrite {
                kind: r.kind.clone(),
                pieces,
                parent: r.parent.clone(),
            });
        }
        for i in &spec.inline {
            named_kind(&i.kind)?;
            for f in i.name.split('.').chain(i.body.split('.')) {
                step(f)?;
            }
        }
        data.inline = spec.inline;
        for u in &spec.unwraps {
            for k in [&u.kind, &u.block, &u.last, &u.parent] {
                named_kind(k)?;
            }
        }
        data.unwraps = spec.unwraps;
        for m in &spec.merges {
            for k in m.kinds.iter().chain(&m.scopes).chain(&m.except) {
                named_kind(k)?;
            }
            step(&m.declarator)?;
        }
        data.merges = spec.merges;
        if let Some(c) = &spec.chunks {
            for k in c.bodies.iter().chain(&c.blocks) {
                named_kind(k)?;
            }
        }
        data.chunks = spec.chunks;
        data.strips = spec.strips;
        for d in &spec.drops {
            named_kind(&d.kind)?;
        }
        data.drops = spec.drops;
        for u in &spec.unnests {
            named_kind(&u.kind)?;
            for f in [&u.name, &u.body, &u.scope] {
                field(f)?;
            }
            for k in &u.uses {
                named_kind(k)?;
            }
        }
        data.unnests = spec.unnests;
        for t in &spec.templates {
            let kinds = t.kinds.iter().chain(&t.uses).chain(&t.value_kinds);
            for k in kinds.chain(&t.skip).chain(&t.only).chain(&t.references) {
                named_kind(k)?;
            }
            field(&t.parameters)?;
            for f in t.name.iter().chain(&t.parameter_name).chain([&t.arguments]) {
                step(f)?;
            }
            for path in &t.names {
                for f in path.split('.') {
                    step(f)?;
                }
            }
        }
        data.templates = spec.templates;
        for b in &spec.bodies {
            named_kind(&b.kind)?;
            field(&b.field)?;
            if let Some(d) = &b.declare {
                field(&d.declarator)?;
                for k in d.whole.iter().chain(&d.wrappers) {
                    named_kind(k)?;
                }
            }
        }
        data.bodies = spec.bodies;
        for m in &spec.moves {
            let kinds = [&m.kind, &m.qualified].into_iter();
            for k in kinds
                .chain(&m.classes)
                .chain(&m.members)
                .chain(&m.wrappers)
                .chain(&m.defaults)
            {
                named_kind(k)?;
            }
            let fields = [
                &m.declarator,
                &m.parameters,
                &m.scope,
                &m.name,
                &m.body,
                &m.r#type,
            ];
            for f in fields.into_iter().chain(&m.default_value) {
                field(f)?;
            }
        }
        data.moves = spec.moves;
        for (k, text) in spec.constants {
            named_kind(&k)?;
            data.constants.push((k, text.into_bytes()));
        }
        if let Some(b) = spec.bindings {
            data.bindings = Some(Bindings::new(lang, b.open, &b.param, b.unbound, b.close)?);
        }
        data.functions = spec.functions;
        data.calls = spec.calls;
        if let Some(w) = spec.contextual.iter().find(|w| spec.reserved.contains(w)) {
            return Err(format!(
                "grammars/{lang}/passes.toml: `{w}` is both reserved and contextual"
            ));
        }
        let contextual: HashSet<Vec<u8>> = spec
            .contextual
            .into_iter()
            .map(String::into_bytes)
            .collect();
        data.fixed = spec
            .reserved
            .into_iter()
            .chain(keywords)
            .map(String::into_bytes)
            .filter(|w| !contextual.contains(w))
            .collect();
        data.reserved = data.fixed.iter().cloned().chain(contextual).collect();
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_one_table_or_several() {
        let ts: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let table = "kinds = [\"struct_specifier\"]\nparameters = \"body\"\nnames = [\"name\"]\n\
                     uses = [\"struct_specifier\"]\nname = [\"name\"]\narguments = \"body\"\n\
                     type = \"int\"\nvalue = \"0\"\n";
        let one = PassData::new(
            "c",
            &format!("[templates]\n{table}"),
            &ts,
            std::iter::empty(),
        );
        assert_eq!(one.unwrap().templates.len(), 1);
        let two = format!("[[templates]]\n{table}[[templates]]\n{table}");
        let two = PassData::new("c", &two, &ts, std::iter::empty());
        assert_eq!(two.unwrap().templates.len(), 2);
        let typo = format!("[templates]\n{table}kindz = []\n");
        let err = PassData::new("c", &typo, &ts, std::iter::empty()).unwrap_err();
        assert!(err.contains("unknown field `kindz`"), "{err}");
    }

    #[test]
    fn contextual_words_leave_the_fixed_words_but_stay_reserved() {
        let ts: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let keywords = || ["if", "of"].map(String::from).into_iter();
        let text = "reserved = [\"main\"]\ncontextual = [\"of\"]\n";
        let data = PassData::new("c", text, &ts, keywords()).unwrap();
        for w in ["main", "if", "of"] {
            assert!(data.reserved.contains(w.as_bytes()), "{w}");
            assert_eq!(data.fixed.contains(w.as_bytes()), w != "of", "{w}");
        }
        let both = "reserved = [\"of\"]\ncontextual = [\"of\"]\n";
        let err = PassData::new("c", both, &ts, keywords()).unwrap_err();
        assert!(
            err.contains("`of` is both reserved and contextual"),
            "{err}"
        );
    }

    #[test]
    fn bindings_name_param_then_arg_and_nothing_else() {
        let ts: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let load = |param: &str| {
            let text =
                format!("[bindings]\nopen = \"({{\"\nparam = \"{param}\"\nclose = \"}})\"\n");
            PassData::new("c", &text, &ts, std::iter::empty())
        };
        assert!(load("{param}={arg};").is_ok());
        for bad in ["{arg}={param};", "{param};", "{param}={arg}{..};"] {
            let err = load(bad).unwrap_err();
            assert!(err.contains("[bindings] param"), "{bad}: {err}");
        }
        let unbound = |t: &str| {
            let text = format!(
                "[bindings]\nopen = \"({{\"\nparam = \"{{param}}={{arg}};\"\nclose = \"}})\"\n\
                 unbound = \"{t}\"\n"
            );
            PassData::new("c", &text, &ts, std::iter::empty())
        };
        assert!(unbound("{param};").is_ok());
        for bad in ["{param}={arg};", ";", "{arg};"] {
            let err = unbound(bad).unwrap_err();
            assert!(err.contains("[bindings] unbound"), "{bad}: {err}");
        }
    }
}
