//! Where a child occurs in its parent's rules in grammar.json, as far as removing it goes:
//! the class of each child position in the generated positions.tsv.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::collect_aliases;

/// Where a child occurs in its parent's rule (grammar.json), as far as removal goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Occurrence {
    /// Not inside any optional or repeated part.
    Required,
    /// Inside an optional or repeated part, together with a token that stays or goes
    /// with it (`optional(seq('=', value))`): never removable on its own.
    Tied,
    /// Inside `repeat1(..)`: removable while another remains.
    Several,
    /// Directly optional or repeated (commas of comma lists do not count as ties).
    Alone,
}

/// Position class from the occurrences of a child: 1 may be empty, 2 one of several,
/// 0 required.
pub(super) fn class_of(states: &BTreeSet<Occurrence>) -> u8 {
    use Occurrence::*;
    if states.contains(&Tied) || states.is_empty() {
        0
    } else if states.iter().all(|s| *s == Alone) {
        1
    } else if states.contains(&Alone) || states.contains(&Several) {
        2
    } else {
        0
    }
}

/// For every (visible kind, field name or `*child_kind`), the occurrences of the child
/// in the kind's rules (and aliases to it); and for every separated list in a kind's rules,
/// (kind, `/separator`) with the occurrence of its first item. Hidden rules (`_name`,
/// inline) are expanded into their users. Walks use an explicit stack.
pub(super) fn occurrences(grammar: &Value) -> BTreeMap<(String, String), BTreeSet<Occurrence>> {
    use Occurrence::*;
    let mut out: BTreeMap<(String, String), BTreeSet<Occurrence>> = BTreeMap::new();
    let Some(rules) = grammar["rules"].as_object() else {
        return out;
    };
    let inline: BTreeSet<&str> = grammar["inline"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["name"].as_str().or(v.as_str()))
        .collect();
    let hidden = |name: &str| name.starts_with('_') || inline.contains(name);
    let mut bodies: Vec<(String, &Value)> = Vec::new();
    for (name, body) in rules {
        if !hidden(name) {
            bodies.push((name.clone(), body));
        }
    }
    let mut aliases = Vec::new();
    for body in rules.values() {
        collect_aliases(body, &mut aliases);
    }
    bodies.extend(aliases);
    for (parent, body) in bodies {
        let mut stack: Vec<(&Value, Occurrence, Vec<&str>)> = vec![(body, Required, Vec::new())];
        while let Some((rule, state, expanding)) = stack.pop() {
            let mut record = |key: String, state: Occurrence| {
                out.entry((parent.clone(), key)).or_default().insert(state);
            };
            match rule["type"].as_str().unwrap_or("") {
                "SYMBOL" => {
                    let name = rule["name"].as_str().unwrap_or("");
                    match rules.get(name) {
                        Some(sub) if hidden(name) => {
                            if !expanding.contains(&name) {
                                let mut e = expanding.clone();
                                e.push(name);
                                stack.push((sub, state, e));
                            }
                        }
                        _ => record(format!("*{name}"), state),
                    }
                }
                "ALIAS" if rule["named"] == true => {
                    record(format!("*{}", rule["value"].as_str().unwrap_or("")), state);
                }
                // `field('condition', optional(x))` is as optional as
                // `optional(field('condition', x))` (C's `for (;;)` parts).
                "FIELD" => {
                    let optional = optional_content(&rule["content"]);
                    let name = rule["name"].as_str().unwrap_or("").to_string();
                    record(name, if optional { Alone } else { state });
                }
                "CHOICE" => {
                    let members = rule["members"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                    let blank = members.iter().any(|m| m["type"] == "BLANK");
                    for m in members {
                        stack.push((m, if blank { Alone } else { state }, expanding.clone()));
                    }
                }
                "REPEAT" => stack.push((&rule["content"], Alone, expanding)),
                "REPEAT1" => {
                    let inner = if state == Alone { Alone } else { Several };
                    stack.push((&rule["content"], inner, expanding))
                }
                "SEQ" => {
                    let members = rule["members"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                    // `x (sep x)*`: a list of items with a separator token between them
                    // (Python's simple statements `a; b` on one line). The first item is as
                    // removable as the list's place (a line of one statement in a block's
                    // repeat), and a later one may go with its separator while the first
                    // remains.
                    // The list may follow a keyword (Java's `extends A & B`), which then
                    // ties the list as a whole as it ties any child.
                    let list = (0..members.len().saturating_sub(1))
                        .find_map(|at| Some((at, separated_item(&members[at..at + 2])?)));
                    let others: Vec<&Value> = match list {
                        Some((at, _)) => members[..at].iter().chain(&members[at + 2..]).collect(),
                        None => members.iter().collect(),
                    };
                    // A token next to the child (other than a list comma) goes or stays
                    // with it, so the child is not removable on its own.
                    let tied = others.iter().any(|m| is_token_rule(m));
                    let inner = if tied && matches!(state, Alone | Several) {
                        Tied
                    } else {
                        state
                    };
                    if let Some((_, (item, sep))) = list {
                        record(format!("/{sep}"), inner);
                        let later = if inner == Required { Several } else { inner };
                        stack.push((item, inner, expanding.clone()));
                        stack.push((item, later, expanding.clone()));
                    }
                    for m in others {
                        stack.push((m, inner, expanding.clone()));
                    }
                }
                "PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC" | "RESERVED" => {
                    stack.push((&rule["content"], state, expanding))
                }
                _ => {}
            }
        }
    }
    out
}

/// The item and the separator of `seq(item, repeat(seq(separator, item)))`, a separated
/// list whose separator is one token, e.g. tree-sitter's `sepBy1`; `members` are two
/// consecutive members of a sequence.
fn separated_item(members: &[Value]) -> Option<(&Value, &str)> {
    let [item, rest] = members else {
        return None;
    };
    if rest["type"] != "REPEAT" || rest["content"]["type"] != "SEQ" {
        return None;
    }
    let [sep, again] = rest["content"]["members"].as_array()?.as_slice() else {
        return None;
    };
    let sep = sep["value"].as_str().filter(|_| sep["type"] == "STRING")?;
    (again == item).then_some((item, sep))
}

/// A field's content that may match nothing: a choice with a blank member (through
/// precedence wrappers).
fn optional_content(rule: &Value) -> bool {
    match rule["type"].as_str() {
        Some("CHOICE") => rule["members"]
            .as_array()
            .is_some_and(|ms| ms.iter().any(|m| m["type"] == "BLANK")),
        Some("PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC") => {
            optional_content(&rule["content"])
        }
        _ => false,
    }
}

/// A rule that only matches a token (other than a list comma), possibly a field of
/// tokens (`field('operator', choice('<', '=='))`) or a choice of tokens (`choice('=',
/// ':=')`). A choice that offers a separator (Go's `choice('\n', ';')` between statements)
/// is not a tie.
fn is_token_rule(rule: &Value) -> bool {
    match rule["type"].as_str() {
        Some("STRING") => rule["value"] != ",",
        Some("PATTERN" | "TOKEN" | "IMMEDIATE_TOKEN") => true,
        Some("FIELD") => is_token_choice(&rule["content"]),
        Some("PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC") => {
            is_token_rule(&rule["content"])
        }
        Some("CHOICE") => {
            let separator = |m: &Value| {
                m["type"] == "STRING"
                    && matches!(m["value"].as_str(), Some("," | ";" | "\n" | "\r\n" | "\0"))
            };
            is_token_choice(rule)
                && !rule["members"]
                    .as_array()
                    .is_some_and(|ms| ms.iter().any(separator))
        }
        _ => false,
    }
}

fn is_token_choice(rule: &Value) -> bool {
    match rule["type"].as_str() {
        Some("STRING" | "PATTERN" | "TOKEN" | "IMMEDIATE_TOKEN") => true,
        Some("ALIAS") => rule["named"] != true,
        Some("PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC") => {
            is_token_choice(&rule["content"])
        }
        Some("CHOICE") => rule["members"].as_array().is_some_and(|ms| {
            !ms.is_empty()
                && ms
                    .iter()
                    .all(|m| m["type"] != "BLANK" && is_token_choice(m))
        }),
        _ => false,
    }
}
