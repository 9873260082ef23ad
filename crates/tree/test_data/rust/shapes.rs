use std::collections::HashMap;
use std::fmt;

/// A shape with an area.
pub trait Shape: fmt::Debug {
    fn area(&self) -> f64;
    fn name(&self) -> &str {
        "shape"
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Circle {
    r: f64,
}

#[derive(Debug)]
struct Rect<T> {
    w: T,
    h: T,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.14159 * self.r * self.r
    }
}

impl<T: Into<f64> + Copy + fmt::Debug> Shape for Rect<T> {
    fn area(&self) -> f64 {
        self.w.into() * self.h.into()
    }
    fn name(&self) -> &str {
        "rect"
    }
}

enum Op {
    Add(i64, i64),
    Neg { value: i64 },
    Nop,
}

fn eval(op: &Op) -> Option<i64> {
    match op {
        Op::Add(a, b) if *a > 0 => a.checked_add(*b),
        Op::Add(_, b) => Some(*b),
        Op::Neg { value } => Some(-value),
        Op::Nop => None,
    }
}

const LIMIT: usize = 10;
static GREETING: &str = "hello";

fn main() {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: 1.0 }), Box::new(Rect { w: 2u8, h: 3u8 })];
    let mut counts: HashMap<String, usize> = HashMap::new();
    for s in shapes.iter() {
        *counts.entry(s.name().to_string()).or_insert(0) += 1;
    }
    let total: f64 = shapes.iter().map(|s| s.area()).sum();
    let mut i = 0;
    while i < LIMIT {
        i += 2;
        if i % 3 == 0 {
            continue;
        } else if i > 7 {
            break;
        }
    }
    let ops = [Op::Add(1, 2), Op::Neg { value: 5 }, Op::Nop];
    let results: Vec<_> = ops.iter().filter_map(eval).collect();
    let label = match results.len() {
        0 => 'z',
        1..=2 => 's',
        _ => 'm',
    };
    let raw = r#"raw "text""#;
    let tuple = (1, "two", 3.0);
    let arr = [0u32; 4];
    println!("{} {:.2} {:?} {} {} {} {:?}", GREETING, total, results, label, raw, tuple.1, &arr[1..]);
    unsafe {
        let p = &i as *const usize;
        let _ = *p;
    }
    loop {
        break;
    }
}
