//! The state reading as PlantUML's state grammar reads it, on top of the
//! narrow fallback reading of `other_kind.rs` (`state_line`): declarations
//! with the stereotypes and colours PlantUML takes at the top level,
//! transitions between states, `[*]`, `[H]` and `[H*]` with every arrow
//! form of the grammar (`-[#red]up->`, `-->o`), notes by colour, free notes
//! (`note "x" as N`) and notes on links; and the near-misses it refuses
//! (`state A B`, `state A #pink <<s>>`, an empty label, `S1.a`, a note
//! placed by no element). Fitted to `cargo xtask grammar-probe --state`.

/// Stereotypes a top-level `state` declaration takes (`<<entryPoint>>`
/// and the pins belong inside a composite state).
const TOP_LEVEL_REFUSED: &[&str] = &[
    "entrypoint",
    "exitpoint",
    "inputpin",
    "outputpin",
    "expansioninput",
    "expansionoutput",
];

/// The state reading's verdict on one line, from the narrow reading's
/// (`narrow`): `Some(element)` when it reads the line, `None` when it stops.
pub(super) fn refine(line: &str, narrow: Option<bool>) -> Option<bool> {
    let line = line.trim();
    let first = line
        .split_whitespace()
        .next()
        .map(|w| w.to_ascii_lowercase())
        .unwrap_or_default();
    if first == "state" {
        return narrow.filter(|_| declaration(line));
    }
    if first == "note" {
        return note(line).then_some(false);
    }
    if let Some(well_formed) = transition(line) {
        return well_formed.then_some(true);
    }
    narrow
}

/// `state NAME|"Display" [as ALIAS|"Display"] [<<s>>]* [#colour] [: text]`.
fn declaration(line: &str) -> bool {
    let Some(rest) = skip_name(line[5..].trim_start()) else {
        return false;
    };
    let mut rest = rest.trim_start();
    if rest.starts_with(':') {
        return true;
    }
    if let Some(alias) = rest.strip_prefix("as ").or_else(|| rest.strip_prefix("AS ")) {
        let Some(after) = skip_name(alias.trim_start()) else {
            return false;
        };
        rest = after.trim_start();
    }
    let mut coloured = false;
    while !rest.is_empty() {
        if rest.starts_with(':') {
            return true;
        }
        if let Some(after) = rest.strip_prefix("<<").filter(|_| !coloured) {
            let Some(close) = after.find(">>") else {
                return false;
            };
            if TOP_LEVEL_REFUSED.contains(&after[..close].to_ascii_lowercase().as_str()) {
                return false;
            }
            rest = after[close + 2..].trim_start();
        } else if rest.starts_with('#') {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == ':' || c == '{')
                .unwrap_or(rest.len());
            if end < 2 {
                return false;
            }
            coloured = true;
            rest = rest[end..].trim_start();
        } else {
            return rest == "{";
        }
    }
    true
}

/// A state's name (letters, digits, `_`, `.`, `::`) or a quoted display at
/// the start of `text`: the rest.
fn skip_name(text: &str) -> Option<&str> {
    if let Some(after) = text.strip_prefix('"') {
        let close = after.find('"')?;
        return Some(&after[close + 1..]);
    }
    let mut end = 0;
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        let double_colon = c == ':' && (bytes.get(i + 1) == Some(&b':') || (i > 0 && bytes[i - 1] == b':'));
        if !(c.is_alphanumeric() || c == '_' || c == '.' || double_colon) {
            break;
        }
        end = i + c.len_utf8();
    }
    (end > 0).then(|| &text[end..])
}

/// `note left of A [#colour] : text`, `note "text" as N`, `note on link :
/// text`; not `note left : text` (placed by no element).
fn note(line: &str) -> bool {
    let rest = line[4..].trim_start();
    let lower = rest.to_ascii_lowercase();
    if let Some(quoted) = rest.strip_prefix('"') {
        let Some(close) = quoted.find('"') else {
            return false;
        };
        let tail: Vec<&str> = quoted[close + 1..].split_whitespace().collect();
        return matches!(tail.as_slice(), [] | [_, _] if tail.is_empty() || tail[0].eq_ignore_ascii_case("as"));
    }
    if let Some(after) = lower.strip_prefix("on link") {
        return after.trim_start().starts_with(':');
    }
    let position_len = lower.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(lower.len());
    if !matches!(&lower[..position_len], "left" | "right" | "top" | "bottom") {
        return false;
    }
    let Some(after_of) = lower[position_len..].trim_start().strip_prefix("of ") else {
        return false;
    };
    let after_of = after_of.trim_start();
    let Some((_, mut tail)) = endpoint(after_of) else {
        return false;
    };
    tail = tail.trim_start();
    if tail.starts_with('#') {
        let end = tail.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(tail.len());
        tail = tail[end..].trim_start();
    }
    tail.starts_with(':')
}

/// A state: a name (no `.`, `::` or `-` in it; no quoted one), `[*]`,
/// `[H]`, `[H*]`. Returns the name and the rest.
fn endpoint(text: &str) -> Option<(&str, &str)> {
    for pseudo in ["[*]", "[H*]", "[H]", "[h*]", "[h]"] {
        if let Some(rest) = text.strip_prefix(pseudo) {
            return Some((&text[..pseudo.len()], rest));
        }
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (end > 0).then(|| (&text[..end], &text[end..]))
}

/// The names a transition line mentions (for the notes placed by them).
pub(super) fn transition_names(line: &str) -> Vec<&str> {
    let line = line.trim();
    let Some((from, rest)) = endpoint(line) else {
        return Vec::new();
    };
    let Some(rest) = arrow(rest.trim_start()) else {
        return Vec::new();
    };
    match endpoint(rest.trim_start()) {
        Some((to, _)) => vec![from, to],
        None => vec![from],
    }
}

/// `Some(true)` for a well-formed transition `A -> B [: label]`,
/// `Some(false)` for a line that starts as one and is not (`S1.a --> S2`,
/// `S1 --> S2 :`), `None` for a line that is no transition at all.
fn transition(line: &str) -> Option<bool> {
    let (_, rest) = endpoint(line)?;
    let rest_trimmed = rest.trim_start();
    // `S1.a --> S2`: a name the state grammar does not take.
    if rest.starts_with('.') && rest.len() > 1 && rest[1..].trim_start().starts_with(|c: char| c.is_alphanumeric()) {
        let after = rest[1..].trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
        if arrow(after.trim_start()).is_some() {
            return Some(false);
        }
    }
    let after_arrow = arrow(rest_trimmed)?;
    let Some((_, tail)) = endpoint(after_arrow.trim_start()) else {
        return Some(false);
    };
    let tail = tail.trim_start();
    if tail.is_empty() {
        return Some(true);
    }
    if let Some(label) = tail.strip_prefix(':') {
        return Some(!label.trim().is_empty());
    }
    // A colour after the target (`S1 --> S2 #red`) is the narrow reading's call.
    None
}

/// A state arrow: `[<]` a run of `-` holding a direction word
/// and a `[style]` bracket in either order, and `>` (or `>o`/`o`); the rest.
fn arrow(text: &str) -> Option<&str> {
    let left = text.starts_with('<');
    let mut rest = if left { &text[1..] } else { text };
    // Dotted arrows (`..>`) are no state transitions.
    let is_body = |c: char| c == '-';
    let mut body = 0;
    let (mut directed, mut styled) = (false, false);
    loop {
        let run = rest.len() - rest.trim_start_matches(is_body).len();
        if run > 0 {
            body += run;
            rest = &rest[run..];
            continue;
        }
        if body == 0 && !left {
            return None;
        }
        if !styled {
            if let Some(after) = rest.strip_prefix('[') {
                let close = after.find(']')?;
                if after[..close].is_empty() || after[..close].contains(char::is_whitespace) {
                    return None;
                }
                styled = true;
                rest = &after[close + 1..];
                continue;
            }
        }
        if !directed {
            let len = rest.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len());
            let word = rest[..len].to_ascii_lowercase();
            if len > 0 && ["up", "down", "left", "right"].iter().any(|d| d.starts_with(&word)) {
                directed = true;
                rest = &rest[len..];
                continue;
            }
        }
        break;
    }
    if body == 0 {
        return None;
    }
    let right = rest.starts_with('>');
    if right {
        rest = &rest[1..];
    }
    if left == right {
        return None;
    }
    // `-->o S2`: a head PlantUML's state arrows take.
    if right && rest.starts_with('o') && rest[1..].starts_with(char::is_whitespace) {
        rest = &rest[1..];
    }
    (!rest.starts_with(['-', '.', '>', '<', '|'])).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_refuses_as_plantuml_does() {
        for (line, verdict) in [
            ("state A <<choice>>", Some(true)),
            ("state A <<entryPoint>>", None),
            ("state A #pink <<s>>", None),
            ("state A B", None),
            ("state A as", None),
            ("state \"Long name\" as A", Some(true)),
            ("S1 -[#red]up-> S2", Some(true)),
            ("[H] --> S1", Some(true)),
            ("S1 --> [H*]", Some(true)),
            ("S1 -->o S2", Some(true)),
            ("S1 --> S2 :", None),
            ("S1.a --> S2", None),
            ("note left of A #pink : x", Some(false)),
            ("note \"x\" as N", Some(false)),
            ("note on link : x", Some(false)),
            ("note left : x", None),
        ] {
            assert_eq!(refine(line, Some(true)), verdict, "{line}");
        }
    }
}
