//! CONTRACT (skeleton): the SHA3-256 content cache (dissertation ch. 4).

/// Stores only non-interesting ("pass") outcomes keyed by SHA3-256 of the candidate,
/// with the candidate length as value; evicts entries larger than the best failing size.
pub struct Cache {}
