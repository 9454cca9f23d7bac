//! Minimal text edits: what an editor is sent after any rewrite (a rename,
//! a quick fix, fix all, formatting, a structural refactor). The engines
//! say what the new text is, or replace whole statements; an editor wants
//! only the spans that changed, so cursors, bookmarks and other tools'
//! markers on untouched text stay put and a rename lists one edit per
//! occurrence covering the name alone.
//!
//! The diff runs on lines first (unchanged lines stay untouched), then,
//! inside each run of changed lines, on tokens: a word (letters, digits,
//! `_`), a run of spaces and tabs, a line break, or any other single
//! character. A changed word is replaced whole, never letter by letter.

use crate::format::{diff_ops, line_edits, Op};
use puml_syntax::{TextEdit, TextRange, TextSize};

/// Above this many token pairs a changed region is sent as one edit rather
/// than diffed (keeps the quadratic table small).
const MAX_TOKEN_CELLS: usize = 1_000_000;

/// The minimal edits that turn `old` into `new`, sorted and disjoint.
pub fn minimal_edits(old: &str, new: &str) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    for hunk in line_edits(old, new) {
        let start = usize::from(hunk.range.start());
        let end = usize::from(hunk.range.end());
        narrow_hunk(&old[start..end], &hunk.new_text, start, &mut edits);
    }
    edits
}

/// `edits` against `old` narrowed to the spans that really change: each
/// edit is replaced by the minimal edits between the text it covers and
/// its new text (an edit that changes nothing disappears). The edits must
/// be disjoint; they come back sorted.
pub fn refine(old: &str, edits: &[TextEdit]) -> Vec<TextEdit> {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start(), e.range.end()));
    let mut out = Vec::new();
    for edit in sorted {
        let start = usize::from(edit.range.start()).min(old.len());
        let end = usize::from(edit.range.end()).clamp(start, old.len());
        let Some(covered) = old.get(start..end) else {
            // Not on character boundaries: passed on as it came.
            out.push(edit.clone());
            continue;
        };
        for mut narrow in minimal_edits(covered, &edit.new_text) {
            narrow.range += TextSize::from(start as u32);
            out.push(narrow);
        }
    }
    out
}

/// Pushes the token-level edits of one changed run of lines that starts at
/// byte `base` of the old text. When the run replaces as many lines as it
/// removes, each line is diffed against its counterpart (formatting and
/// renames change lines in place); otherwise the run is diffed whole.
fn narrow_hunk(old: &str, new: &str, base: usize, out: &mut Vec<TextEdit>) {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    if old_lines.len() == new_lines.len() && old_lines.len() > 1 {
        let mut at = base;
        for (a, b) in old_lines.iter().zip(&new_lines) {
            token_edits(a, b, at, out);
            at += a.len();
        }
    } else {
        token_edits(old, new, base, out);
    }
}

/// One token of the in-line diff.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(first) = rest.chars().next() {
        let len = if is_word(first) {
            rest.find(|c: char| !is_word(c)).unwrap_or(rest.len())
        } else if first == ' ' || first == '\t' {
            rest.find(|c: char| c != ' ' && c != '\t').unwrap_or(rest.len())
        } else if rest.starts_with("\r\n") {
            2
        } else {
            first.len_utf8()
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Pushes the edits between `old` and `new` over tokens, shifted by `base`.
fn token_edits(old: &str, new: &str, base: usize, out: &mut Vec<TextEdit>) {
    if old == new {
        return;
    }
    let a = tokens(old);
    let b = tokens(new);
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max_suffix)
        .take_while(|(x, y)| x == y)
        .count();
    let prefix_bytes: usize = a[..prefix].iter().map(|t| t.len()).sum();
    let (a_mid, b_mid) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut at = base + prefix_bytes;
    if a_mid.len().saturating_mul(b_mid.len()) > MAX_TOKEN_CELLS {
        let removed: usize = a_mid.iter().map(|t| t.len()).sum();
        out.push(edit(at, at + removed, b_mid.concat()));
        return;
    }
    let ops = diff_ops(a_mid, b_mid);
    let (mut i, mut j, mut k) = (0, 0, 0);
    while k < ops.len() {
        if ops[k] == Op::Keep {
            at += a_mid[i].len();
            i += 1;
            j += 1;
            k += 1;
            continue;
        }
        let start = at;
        let mut replacement = String::new();
        while k < ops.len() && ops[k] != Op::Keep {
            if ops[k] == Op::Delete {
                at += a_mid[i].len();
                i += 1;
            } else {
                replacement.push_str(b_mid[j]);
                j += 1;
            }
            k += 1;
        }
        out.push(edit(start, at, replacement));
    }
}

fn edit(start: usize, end: usize, new_text: String) -> TextEdit {
    TextEdit::replace(
        TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
        new_text,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(old: &str, edits: &[TextEdit]) -> String {
        let mut text = old.to_string();
        for e in edits.iter().rev() {
            text.replace_range(usize::from(e.range.start())..usize::from(e.range.end()), &e.new_text);
        }
        text
    }

    fn shown(old: &str, edits: &[TextEdit]) -> Vec<(String, String)> {
        edits
            .iter()
            .map(|e| (old[e.range].to_string(), e.new_text.clone()))
            .collect()
    }

    #[test]
    fn a_renamed_word_is_one_edit_per_occurrence() {
        let old = "participant API\nA -> API : call API\nAPI --> A\n";
        let new = "participant Gateway\nA -> Gateway : call API\nGateway --> A\n";
        let edits = minimal_edits(old, new);
        assert_eq!(apply(old, &edits), new);
        assert_eq!(
            shown(old, &edits),
            vec![("API".into(), "Gateway".into()); 3],
            "{edits:?}"
        );
        // "Bob" -> "Robert" shares letters: the word is still replaced whole.
        let edits = minimal_edits("Bob -> A\n", "Robert -> A\n");
        assert_eq!(shown("Bob -> A\n", &edits), vec![("Bob".into(), "Robert".into())]);
    }

    #[test]
    fn whole_line_edits_are_narrowed() {
        let old = "@startuml\n😀 é́ -> Bob\nBob -> x\n@enduml\n";
        let start = old.find("😀").expect("line");
        let end = old.find("@enduml").expect("end");
        let whole = TextEdit::replace(
            TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
            "😀 é́ -> Rob\nRob -> x\n",
        );
        let edits = refine(old, &[whole]);
        assert_eq!(shown(old, &edits), vec![("Bob".into(), "Rob".into()); 2]);
        assert_eq!(apply(old, &edits), "@startuml\n😀 é́ -> Rob\nRob -> x\n@enduml\n");
    }

    #[test]
    fn inserted_and_removed_lines_stay_whole() {
        let old = "a\nb\nc\n";
        let new = "a\nx\nb\n";
        let edits = minimal_edits(old, new);
        assert_eq!(apply(old, &edits), new);
        assert_eq!(
            shown(old, &edits),
            vec![(String::new(), "x\n".into()), ("c\n".into(), String::new())]
        );
        assert!(minimal_edits("same\n", "same\n").is_empty());
        assert!(refine("same", &[TextEdit::replace(TextRange::new(0.into(), 4.into()), "same")]).is_empty());
    }

    /// Any pair of texts: the edits rebuild the new text, are sorted and
    /// disjoint, and never include an untouched common prefix or suffix.
    #[test]
    fn edits_always_rebuild_the_new_text() {
        let pieces = ["A", "Bob", " ", "->", "\n", "é", "😀", "\r\n", "  ", ":", "x1"];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n
        };
        for _ in 0..400 {
            let mut make = |len: usize| (0..len).map(|_| pieces[next(pieces.len())]).collect::<String>();
            let old = make(12);
            let new = make(12);
            let edits = minimal_edits(&old, &new);
            assert_eq!(apply(&old, &edits), new, "{old:?} -> {new:?}: {edits:?}");
            for pair in edits.windows(2) {
                assert!(pair[0].range.end() <= pair[1].range.start(), "{edits:?}");
            }
            let whole = TextEdit::replace(TextRange::up_to(TextSize::from(old.len() as u32)), new.clone());
            assert_eq!(apply(&old, &refine(&old, &[whole])), new);
        }
    }
}
