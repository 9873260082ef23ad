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
    // HTML and CSS have no layout data: their results keep their whitespace.
    let without = [Lang::Html, Lang::Css];
    for &lang in Lang::all() {
        if without.contains(&lang) {
            assert!(super::Layout::of(lang).is_none(), "{}", lang.name());
        } else if lang.has_grammar() {
            assert!(super::Layout::of(lang).is_some(), "{}", lang.name());
            assert!(
                !lang.formatters().is_empty() || lang == Lang::Java,
                "{}",
                lang.name()
            );
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

#[test]
fn c_preprocessor_comments_and_strings() {
    check(
        Lang::C,
        "#include <stdio.h>\n#define   N  (1+2)\nstruct s{int a;int*b;}  x ; // tail\n/* own line */\nint main(void){printf(\"%d  %s\\n\" ,N,\"a  b\");switch(N){case 1:x.a=2;break;default:;}return x.a?0:1;}",
        expect![[r##"
            #include <stdio.h>
            #define N (1+2)
            struct s {
                int a;
                int *b;
            } x; // tail
            /* own line */
            int main(void) {
                printf("%d  %s\n", N, "a  b");
                switch (N) {
                    case 1:
                        x.a = 2;
                        break;
                    default:
                        ;
                }
                return x.a ? 0 : 1;
            }
        "##]],
    );
}

#[test]
fn cpp_templates_and_classes() {
    check(
        Lang::Cpp,
        "#include <vector>\ntemplate<typename T>struct S{T v;int f()const{return v<1?1:2;}};namespace n{int a=1;}int main(){std::vector<int> v{1,2};for(auto x:v){x++;}S<int> s; return s.f();}",
        expect![[r#"
            #include <vector>
            template <typename T> struct S {
                T v;
                int f() const {
                    return v < 1 ? 1 : 2;
                }
            };
            namespace n {
                int a = 1;
            }
            int main() {
                std::vector<int> v {1, 2};
                for (auto x : v) {
                    x++;
                }
                S<int> s;
                return s.f();
            }
        "#]],
    );
}

#[test]
fn javascript_functions_objects_and_asi() {
    check(
        Lang::JavaScript,
        "function f(a,b){if(a>b)return a\nelse{return b}}\nconst o={x:1,y:[1,2]}\nlet g=(x)=>{return x*2};\nclass A{m(){return `t ${o.x}  `}}\nconsole.log(f(1,2),g(o.x),new A().m())",
        expect![[r#"
            function f(a, b) {
              if (a > b)
                return a
              else {
                return b
              }
            }
            const o = {x: 1, y: [1, 2]}
            let g = (x) => {
              return x * 2
            };
            class A {
              m() {
                return `t ${o.x}  `
              }
            }
            console.log(f(1, 2), g(o.x), new A().m())
        "#]],
    );
}

#[test]
fn typescript_types() {
    check(
        Lang::TypeScript,
        "interface P{x:number;y?:string}\nfunction f(p:P):number{return p.x+1}\nlet a:number|string=f({x:1});",
        expect![[r#"
            interface P {
              x: number;
              y? : string
            }
            function f(p: P): number {
              return p.x + 1
            }
            let a: number | string = f({x: 1});
        "#]],
    );
}

#[test]
fn java_classes_and_statements() {
    check(
        Lang::Java,
        "class A{int x=1;public static void main(String[]args){for(int i=0;i<2;i++){System.out.println(i);}if(args.length>0)x();else if(true){}}static void x(){}}",
        expect![[r#"
            class A {
                int x = 1;
                public static void main(String[] args) {
                    for (int i = 0; i < 2; i++) {
                        System.out.println(i);
                    }
                    if (args.length > 0)
                        x();
                    else if (true) {}
                }
                static void x() {}
            }
        "#]],
    );
}

#[test]
fn java_generic_methods_and_bounds() {
    // A method's header is spaced between its parts, but not before its parameters.
    check(
        Lang::Java,
        "class A{interface B{}interface C{}<T extends B&C>void f(T t){}public static<T>java.util.List<T>g()throws Exception{return null;}A(int a){}}",
        expect![[r#"
            class A {
                interface B {}
                interface C {}
                <T extends B & C> void f(T t) {}
                public static <T> java.util.List<T> g() throws Exception {
                    return null;
                }
                A(int a) {}
            }
        "#]],
    );
}

#[test]
fn rust_items_and_macros() {
    check(
        Lang::Rust,
        "use std::fmt;struct S{a:i32,b:Vec<u8>}\nfn f(x:&mut S)->i32{let y=x.a+1;match y{0=>1,_=>{y*2}}}\nfn main(){let mut s=S{a:1,b:vec![1,2]};for i in 0..3{s.a+=i;}println!(\"{}  {}\",f(&mut s),s.b.len());}",
        expect![[r#"
            use std::fmt;
            struct S {
                a: i32,
                b: Vec<u8>
            }
            fn f(x: &mut S) -> i32 {
                let y = x.a + 1;
                match y {
                    0 => 1,
                    _ => {
                        y * 2
                    }
                }
            }
            fn main() {
                let mut s = S {a: 1, b: vec![1, 2]};
                for i in 0 .. 3 {
                    s.a += i;
                }
                println!("{}  {}", f(&mut s), s.b.len());
            }
        "#]],
    );
}

#[test]
fn go_functions_and_blocks() {
    check(
        Lang::Go,
        "package main\nimport \"fmt\"\ntype T struct{a int\nb string}\nfunc f(x int)int{if x>1{return x}else{return -x}}\nfunc main(){t:=T{a:1};for i:=0;i<2;i++{t.a+=f(i)}\nfmt.Println(t.a)}",
        expect![[r#"
            package main
            import "fmt"
            type T struct {
            	a int
            	b string
            }
            func f(x int)int {
            	if x > 1 {
            		return x
            	} else {
            		return -x
            	}
            }
            func main() {
            	t := T{a: 1};
            	for i := 0; i < 2; i++ {
            		t.a += f(i)
            	}
            	fmt.Println(t.a)
            }
        "#]],
    );
}

#[test]
fn python_indentation_is_rebuilt_from_blocks() {
    check(
        Lang::Python,
        "import sys\ndef f(a,b=1):\n  if a>b: return a\n  elif a==b:\n          return  -b\n  else:\n   x=[1,2][0:1]  # c\n   return x\nclass A:\n def m(self): pass\nprint(f(1),'a  b',A().m())\n",
        expect![[r#"
            import sys
            def f(a, b=1):
                if a > b:
                    return a
                elif a == b:
                    return -b
                else:
                    x = [1, 2][0:1] # c
                    return x
            class A:
                def m(self):
                    pass
            print(f(1), 'a  b', A().m())
        "#]],
    );
}

#[test]
fn python_tabs_become_the_indent() {
    check(
        Lang::Python,
        "if True:\n\tx = 1\n\tif x:\n\t\tprint(x)\n",
        expect![[r#"
            if True:
                x = 1
                if x:
                    print(x)
        "#]],
    );
}

#[test]
fn a_text_that_would_parse_differently_is_not_laid_out() {
    // A backslash continuation in Python, an unparsable text: either a tree-preserving
    // layout or none.
    for (lang, text) in [(Lang::C, "int a = ;"), (Lang::Python, "x = 1 + \\\n  2\n")] {
        if let Some(out) = lang.lay_out(text.as_bytes()) {
            let again = crate::parse::parse(lang, &out).unwrap();
            let first = crate::parse::parse(lang, text.as_bytes()).unwrap();
            assert_eq!(super::shape(&first), super::shape(&again));
        }
    }
}
