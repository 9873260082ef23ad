//! HTML documents with embedded languages: a `<script>` reduced as JavaScript and a `<style>`
//! as CSS, each with its own grammar's data, in one reduction of the page; jsdom (npm) runs
//! the candidates.

use std::process::Command;

use expect_test::expect;

use crate::util::{is_interesting, Dir};

/// Fails (never skips) when jsdom is missing: `.ci/run` installs it.
fn require_jsdom() {
    let found = Command::new("sh")
        .args([
            "-c",
            "NODE_PATH=\"$(dirname \"$(command -v node)\")/../lib/node_modules\" \
             node -e 'require(\"jsdom\")' 2>/dev/null",
        ])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "node or jsdom is missing: npm install -g jsdom (.ci/run installs it)"
    );
}

/// The page's script fails only while its style sheet hides the banner: of the style sheet,
/// one rule with one declaration stays (CSS nodes removed); of the script, the statements
/// that fail, with an object's entries, a string and a property access gone (JavaScript nodes
/// removed and replaced); of the HTML, the elements the script reads.
#[test]
fn page_with_script_and_style_reduced_with_jsdom() {
    require_jsdom();
    let d = Dir::new();
    d.copy_fixture("html/hidden");
    d.run(&[
        "--test",
        "./oracle.sh",
        "-j",
        "2",
        "-q",
        "--preset",
        "fastest",
        "--stats",
        "s.json",
        "page.html",
    ])
    .expect_code(0);
    let s = d.stats("s.json");
    assert_eq!(s["language"], "html");
    let out = d.read("page.reduced.html");
    assert!(is_interesting(&d.join("oracle.sh"), "page.html", &out));
    assert!(d.tmp_entries().is_empty());
    expect![[r#"

        <html>
        <head>
          <style>
            .banner { display: none; }
          </style>
        <body>
          <div class="banner" id="promo"> </div>
          <script>
            var offers = { };
            function mode(id) {
              return getComputedStyle(document.getElementById(id)).display;
            }
            var shown = offers[document.getElementById];
            document.title = "" + shown[mode("promo")];
          </script>
    "#]]
    .assert_eq(&String::from_utf8_lossy(&out));
}

/// `--dump-tree` of a page: the style's root is CSS, the script's JavaScript (`@lang`), and
/// their nodes are those languages' kinds.
#[test]
fn dump_tree_shows_the_islands_languages() {
    let d = Dir::new();
    d.write(
        "p.html",
        "<style>p { color: red }</style><script>f(1);</script>\n",
    );
    let run = d.run(&["--dump-tree", "p.html"]);
    run.expect_code(0);
    expect![[r#"
        document
          style_element opt
            start_tag => "<a>"
              < hidden "<"
              tag_name "style"
              > hidden ">"
            stylesheet>rule_set @css opt
              selectors>tag_name "p"
              block => "{}"
                { hidden "{"
                declaration opt
                  property_name "color"
                  : hidden ":"
                  plain_value "red"
                } hidden "}"
            end_tag => "</style>"
              </ hidden "</"
              tag_name "style"
              > hidden ">"
          script_element opt
            start_tag => "<a>"
              < hidden "<"
              tag_name "script"
              > hidden ">"
            program>expression_statement @javascript opt
              call_expression => "0``"
                identifier "f"
                arguments => "()"
                  ( hidden "("
                  number opt "1"
                  ) hidden ")"
              ; hidden ";"
            end_tag => "</script>"
              </ hidden "</"
              tag_name "script"
              > hidden ">"
    "#]]
    .assert_eq(&run.stdout);
}
