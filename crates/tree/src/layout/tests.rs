use expect_test::{expect, Expect};

use crate::Lang;

#[track_caller]
fn check(lang: Lang, input: &str, expect: Expect) {
    let out = lang.lay_out(input.as_bytes()).expect("laid out");
    let out = String::from_utf8(out).unwrap();
    expect.assert_eq(&out);
    // A fixed point: laying the layout out again changes nothing.
    let again = lang.lay_out(out.as_bytes()).expect("laid out again");
    assert_eq!(String::from_utf8(again).unwrap(), out, "not a fixed point");
}

#[test]
fn every_language_has_checked_data() {
    for &lang in Lang::all() {
        if lang.has_grammar() {
            assert!(super::Layout::of(lang).is_some(), "{}", lang.name());
            assert!(!lang.formatters().is_empty() || lang == Lang::Java, "{}", lang.name());
        }
    }
    assert!(Lang::Text.lay_out(b"a  b").is_none());
}

#[test]
fn c_statements_blocks_and_spacing() {
    check(
        Lang::C,
        "signed char b()\n{}int a()\n                {\n                    long *c; if(c)return  -1 ;else if (c[0]>1) c = 0;\nfor(int i=0;i<2;i++){b( c , 1 );}}",
        expect![[r#"
            signed char b() {}
            int a() {
                long *c;
                if (c)
                    return -1;
                else if (c[0] > 1)
                    c = 0;
                for (int i = 0; i < 2; i++) {
                    b(c, 1);
                }
            }
        "#]],
    );
}
