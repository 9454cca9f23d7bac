//! Formatting as plain functions, plus the line diff that turns any rewrite
//! (format, normalize, structural edits) into minimal text edits and
//! unified diffs: lines that did not change stay byte-for-byte the same.

pub use puml_fmt::{format, format_range, FormatOptions};
use puml_syntax::{TextEdit, TextRange, TextSize};

/// A line with its terminator, and its byte offset in the text.
fn split_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            lines.push((start, &text[start..=i]));
            start = i + 1;
        }
    }
    if start < text.len() {
        lines.push((start, &text[start..]));
    }
    lines
}

/// One step of a line diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Keep,
    Delete,
    Insert,
}

/// Above this many line pairs the middle part is replaced wholesale rather
/// than diffed (keeps the quadratic table small).
const MAX_DIFF_CELLS: usize = 4_000_000;

/// The edit script from `old` to `new` (lines, or any tokens), via longest
/// common subsequence on the part between the common prefix and suffix.
pub(crate) fn diff_ops<T: PartialEq>(old: &[T], new: &[T]) -> Vec<Op> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let a = &old[prefix..old.len() - suffix];
    let b = &new[prefix..new.len() - suffix];
    let mut ops = vec![Op::Keep; prefix];
    if a.len().saturating_mul(b.len()) > MAX_DIFF_CELLS {
        ops.extend(std::iter::repeat_n(Op::Delete, a.len()));
        ops.extend(std::iter::repeat_n(Op::Insert, b.len()));
    } else {
        // lcs[i][j]: LCS length of a[i..] and b[j..].
        let width = b.len() + 1;
        let mut lcs = vec![0u32; (a.len() + 1) * width];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lcs[i * width + j] = if a[i] == b[j] {
                    lcs[(i + 1) * width + j + 1] + 1
                } else {
                    lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                ops.push(Op::Keep);
                i += 1;
                j += 1;
            } else if j < b.len() && (i == a.len() || lcs[i * width + j + 1] > lcs[(i + 1) * width + j]) {
                ops.push(Op::Insert);
                j += 1;
            } else {
                ops.push(Op::Delete);
                i += 1;
            }
        }
    }
    ops.extend(std::iter::repeat_n(Op::Keep, suffix));
    ops
}

/// Minimal line-level edits that turn `old` into `new`: each run of changed
/// lines becomes one edit; unchanged lines are untouched.
pub fn line_edits(old: &str, new: &str) -> Vec<TextEdit> {
    let old_lines = split_lines(old);
    let new_lines = split_lines(new);
    let a: Vec<&str> = old_lines.iter().map(|(_, l)| *l).collect();
    let b: Vec<&str> = new_lines.iter().map(|(_, l)| *l).collect();
    let ops = diff_ops(&a, &b);
    let mut edits = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let mut k = 0;
    while k < ops.len() {
        if ops[k] == Op::Keep {
            i += 1;
            j += 1;
            k += 1;
            continue;
        }
        let start = old_lines.get(i).map_or(old.len(), |(o, _)| *o);
        let mut replacement = String::new();
        while k < ops.len() && ops[k] != Op::Keep {
            match ops[k] {
                Op::Delete => i += 1,
                Op::Insert => {
                    replacement.push_str(b[j]);
                    j += 1;
                }
                Op::Keep => {}
            }
            k += 1;
        }
        let end = old_lines.get(i).map_or(old.len(), |(o, _)| *o);
        edits.push(TextEdit::replace(
            TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
            replacement,
        ));
    }
    edits
}

/// A unified diff (`---`/`+++` headers, 3 lines of context); empty when
/// the texts are equal.
pub fn unified_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = split_lines(old).into_iter().map(|(_, l)| l).collect();
    let b: Vec<&str> = split_lines(new).into_iter().map(|(_, l)| l).collect();
    let ops = diff_ops(&a, &b);
    // Positions (old index, new index) before each op.
    let mut positions = Vec::with_capacity(ops.len() + 1);
    let (mut i, mut j) = (0, 0);
    for op in &ops {
        positions.push((i, j));
        match op {
            Op::Keep => {
                i += 1;
                j += 1;
            }
            Op::Delete => i += 1,
            Op::Insert => j += 1,
        }
    }
    positions.push((i, j));
    const CONTEXT: usize = 3;
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k] != Op::Keep).collect();
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    let mut h = 0;
    while h < changed.len() {
        let first = changed[h];
        let mut last = first;
        while h + 1 < changed.len() && changed[h + 1] <= last + 2 * CONTEXT + 1 {
            h += 1;
            last = changed[h];
        }
        h += 1;
        let from = first.saturating_sub(CONTEXT);
        let to = (last + CONTEXT + 1).min(ops.len());
        let (old_start, new_start) = positions[from];
        let old_count = ops[from..to].iter().filter(|o| **o != Op::Insert).count();
        let new_count = ops[from..to].iter().filter(|o| **o != Op::Delete).count();
        out.push_str(&format!(
            "@@ -{},{old_count} +{},{new_count} @@\n",
            old_start + usize::from(old_count > 0),
            new_start + usize::from(new_count > 0)
        ));
        for k in from..to {
            let (oi, nj) = positions[k];
            let (sign, line) = match ops[k] {
                Op::Keep => (' ', a[oi]),
                Op::Delete => ('-', a[oi]),
                Op::Insert => ('+', b[nj]),
            };
            out.push(sign);
            out.push_str(line.trim_end_matches(['\n', '\r']));
            out.push('\n');
            if !line.ends_with('\n') {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_touch_only_changed_lines() {
        let old = "a\nb\nc\nd\n";
        let new = "a\nB\nc\nd\ne\n";
        let edits = line_edits(old, new);
        assert_eq!(edits.len(), 2);
        assert_eq!(edits[0].range, TextRange::new(2.into(), 4.into()));
        assert_eq!(edits[0].new_text, "B\n");
        let (applied, skipped) = puml_syntax::apply_edits(old, &edits);
        assert_eq!((applied.as_str(), skipped), (new, 0));
    }

    #[test]
    fn unified_diff_shape() {
        let diff = unified_diff("a\nb\nc\n", "a\nx\nc\n", "old", "new");
        assert_eq!(diff, "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n");
        assert_eq!(unified_diff("same", "same", "a", "b"), "");
    }

    #[test]
    fn edits_roundtrip_on_varied_inputs() {
        let texts = [
            "",
            "x",
            "x\n",
            "a\nb\n",
            "b\na\n",
            "a\n\n\nb",
            "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
        ];
        for old in texts {
            for new in texts {
                let (applied, skipped) = puml_syntax::apply_edits(old, &line_edits(old, new));
                assert_eq!((applied.as_str(), skipped), (new, 0), "{old:?} -> {new:?}");
            }
        }
    }
}
