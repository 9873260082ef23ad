//! Token boundaries: where unparsing must put a space so that two tokens stay two.

/// Would bytes `a` and `b` written next to each other merge into one token (or start a
/// comment)? Then a space goes between them.
pub fn glue(a: u8, b: u8) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    let op = |c: u8| b"+-*/%<>=!&|^~?:.#@".contains(&c);
    (word(a) && word(b))
        || (op(a) && op(b))
        || (a.is_ascii_digit() && b == b'.')
        || (a == b'.' && b.is_ascii_digit())
}
