/// Errors of the tree crate. Parsing itself never fails on bad input (ERROR and MISSING
/// nodes are data); only configuration problems are errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The language has no grammar (plain text is reduced without a tree).
    #[error("language {0} has no grammar; reduce it as text")]
    NoGrammar(&'static str),
    /// tree-sitter refused the grammar (ABI mismatch) or was cancelled.
    #[error("tree-sitter could not parse with the {lang} grammar: {reason}")]
    Parser { lang: &'static str, reason: String },
    /// Inputs are limited to 4 GiB (node offsets are 32-bit).
    #[error("input of {0} bytes is too large for a tree (limit 4 GiB)")]
    TooLarge(usize),
    /// `--grammar`: the path is not a tree-sitter grammar directory or library.
    #[error("{} is not a tree-sitter grammar: {what} (expected src/parser.c, src/grammar.json and src/node-types.json, or a prebuilt .so beside the two JSON files)", path.display())]
    NotAGrammar {
        path: std::path::PathBuf,
        what: String,
    },
    /// A grammar file could not be read or a cache file written.
    #[error("{}: {err}", path.display())]
    Io {
        path: std::path::PathBuf,
        err: std::io::Error,
    },
    /// The C compiler could not be started.
    #[error("no C compiler: cannot run {compiler:?} ({reason}); install gcc or clang, or set CC")]
    NoCompiler { compiler: String, reason: String },
    /// The C compiler failed on the grammar's sources.
    #[error("{compiler} could not compile the grammar:\n{output}")]
    Compile { compiler: String, output: String },
    /// The shared library could not be loaded.
    #[error("cannot load grammar library {}: {reason}", path.display())]
    Load {
        path: std::path::PathBuf,
        reason: String,
    },
    /// The grammar was generated for an ABI this tree-sitter cannot load.
    #[error("grammar library {} has ABI version {abi}, but treedd's tree-sitter loads versions {min} to {max}; regenerate it with a matching tree-sitter CLI (`tree-sitter generate`)", path.display())]
    Abi {
        path: std::path::PathBuf,
        abi: usize,
        min: usize,
        max: usize,
    },
}
