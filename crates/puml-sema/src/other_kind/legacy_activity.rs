//! The legacy activity reading (`(*) --> "First"`, `-->[yes] "A"`,
//! `===B1===` bars, `if "c" then` … `else` … `endif`, `partition P {`),
//! widening the narrow reading of `other_kind.rs` (`activity_line`) to the
//! forms PlantUML's legacy activity grammar reads in real files. Fitted to
//! `cargo xtask grammar-probe --legacy`.

/// The legacy reading's verdict on one line, from the narrow one's:
/// `Some(element)` when it reads the line, `None` when it stops.
/// `after_activity`: an activity came before (an arrow without a source,
/// or a branch, needs one). `open_branches`: the `if`s read and not yet
/// closed (`else` and `endif` need one).
pub(super) fn refine(
    line: &str,
    narrow: Option<bool>,
    after_activity: bool,
    open_branches: &mut usize,
) -> Option<bool> {
    if narrow.is_some() {
        return narrow;
    }
    let line = line.trim();
    let lower = line.to_ascii_lowercase();
    if after_activity && branch(&lower) {
        *open_branches += 1;
        return Some(false);
    }
    if lower == "else" && *open_branches > 0 {
        return Some(false);
    }
    if lower == "endif" && *open_branches > 0 {
        *open_branches -= 1;
        return Some(false);
    }
    link(line, after_activity).then_some(true)
}

/// `if "condition" then`, `if condition then`, `if "condition"`.
fn branch(lower: &str) -> bool {
    let Some(rest) = lower.strip_prefix("if ") else {
        return false;
    };
    let rest = rest.trim();
    let rest = rest.strip_suffix("then").map_or(rest, str::trim_end);
    !rest.is_empty()
}

/// `partition P {`: a group of activities, up to `}`.
pub(super) fn partition_header(line: &str) -> bool {
    let line = line.trim();
    let Some(head) = line.strip_suffix('{') else {
        return false;
    };
    let mut words = head.split_whitespace();
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("partition")) && words.next().is_some()
}

/// `[SOURCE] ARROW [[label]] TARGET [#colour] [<<s>>]`: SOURCE left out
/// for an arrow from the last activity.
fn link(line: &str, after_activity: bool) -> bool {
    let rest = match activity(line) {
        Some(rest) => rest.trim_start(),
        None if after_activity && line.starts_with(['-', '.']) => line,
        None => return false,
    };
    let Some(rest) = arrow(rest) else {
        return false;
    };
    // `-->[yes] "A"`, `--> [yes] "A"`: the label of the arrow.
    let rest = match rest.trim_start().strip_prefix('[') {
        Some(after) => match after.find(']') {
            Some(close) if close > 0 => &after[close + 1..],
            _ => return false,
        },
        None => rest,
    };
    // `--> if "c" then`: a branch as the arrow's target.
    if branch(&rest.trim().to_ascii_lowercase()) {
        return true;
    }
    let Some(rest) = target(rest.trim_start()) else {
        return false;
    };
    let mut rest = rest.trim_start();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<<") {
            let Some(close) = after.find(">>") else {
                return false;
            };
            rest = after[close + 2..].trim_start();
        } else if rest.starts_with('#') {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end < 2 {
                return false;
            }
            rest = rest[end..].trim_start();
        } else {
            return false;
        }
    }
    true
}

/// An arrow's target: an activity, where a plain name runs to the next
/// blank (`--> queue.enqueue(null)`, observed drawn as one activity).
fn target(text: &str) -> Option<&str> {
    if text.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return Some(&text[text.find(char::is_whitespace).unwrap_or(text.len())..]);
    }
    activity(text)
}

/// An activity: `(*)`, `"text" [as NAME]`, a bar `===B1===` (or
/// `==B1==`), a plain name. Returns the rest.
fn activity(text: &str) -> Option<&str> {
    if let Some(rest) = text.strip_prefix("(*)") {
        return Some(rest);
    }
    if let Some(after) = text.strip_prefix("==") {
        let after = after.trim_start_matches('=');
        let close = after.find("==")?;
        let rest = after[close..].trim_start_matches('=');
        return (close > 0).then_some(rest);
    }
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        let rest = &after[close + 1..];
        let trimmed = rest.trim_start();
        if let Some(alias) = trimmed.strip_prefix("as ") {
            let alias = alias.trim_start();
            let end = alias
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(alias.len());
            return (end > 0).then(|| &alias[end..]);
        }
        return Some(rest);
    }
    if !text.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len());
    Some(&text[end..])
}

/// `-->`, `->`, `..>`, `-up->`, `-[#red]->`: a run of `-` or `.` with a
/// direction word or a `[style]` bracket, and the `>` head. The rest.
fn arrow(text: &str) -> Option<&str> {
    let body = text.chars().next().filter(|c| matches!(c, '-' | '.'))?;
    let mut rest = text.trim_start_matches(body);
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']')?;
        if after[..close].is_empty() || after[..close].contains(char::is_whitespace) {
            return None;
        }
        rest = &after[close + 1..];
    } else {
        let len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
        let word = rest[..len].to_ascii_lowercase();
        if len > 0 && ["up", "down", "left", "right"].iter().any(|d| d.starts_with(&word)) {
            rest = &rest[len..];
        }
    }
    let rest = rest.trim_start_matches(body);
    rest.strip_prefix('>')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_legacy_forms() {
        for (line, after) in [
            ("-->[ok] \"Second\"", true),
            ("..> (*)", true),
            ("(*) --> ===B1===", false),
            ("===B1=== --> \"A\"", true),
            ("-[#red]->[x] \"B\"", true),
            ("-->[x] \"B\" as b", true),
            ("(*) --> \"A\" #pink", false),
            ("(*) --> \"A\" <<s>>", false),
            ("if \"c\" then", true),
            ("if c then", true),
            ("else", true),
            ("endif", true),
            ("--> [yes] \"A\"", true),
            ("\"A\" --> ==PREP==", false),
            ("--> queue.enqueue(null)", true),
            ("===B2=== --> \"S\" as c1.1", true),
            ("(*) --> if \"t\" then", false),
        ] {
            assert!(refine(line, None, after, &mut 1).is_some(), "{line}");
        }
        for (line, after) in [
            ("--> \"A\"", false),
            ("if \"c\" then", false),
            ("(*) -->", false),
            ("foo bar", true),
            ("else", true),
            ("-->[] \"B\"", true),
        ] {
            assert_eq!(refine(line, None, after, &mut 0), None, "{line}");
        }
        assert!(partition_header("partition P {"));
    }
}
