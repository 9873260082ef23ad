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
}
