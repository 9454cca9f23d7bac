//! PlantUML color syntax → [`Color`]: `#RGB`, `#RRGGBB`, `#RRGGBBAA`,
//! HTML color names (with or without `#`, any case), `transparent`, and
//! gradients (`#red/blue`, `#red-blue`, `#red|blue`, `#red\blue`): the first
//! color is the fill, [`parse_gradient`] reads where it fades to.

use crate::scene::{Color, Gradient, GradientDirection};

/// The gradient of a fill written `#A-B`, `#A|B`, `#A/B` or `#A\B` (both
/// colours valid); `None` for a plain colour.
pub fn parse_gradient(text: &str) -> Option<Gradient> {
    let text = text.trim();
    let text = text.strip_prefix('#').unwrap_or(text);
    let at = text.find(['/', '|', '\\', '-'])?;
    let direction = match text.as_bytes()[at] {
        b'-' => GradientDirection::TopToBottom,
        b'|' => GradientDirection::LeftToRight,
        b'/' => GradientDirection::TopLeftToBottomRight,
        _ => GradientDirection::BottomLeftToTopRight,
    };
    parse_color(&text[..at])?;
    let to = parse_color(&text[at + 1..])?;
    Some(Gradient { to, direction })
}

/// Parses a color as written in a diagram; `None` when it is not a color.
pub fn parse_color(text: &str) -> Option<Color> {
    let text = text.trim();
    let text = text.strip_prefix('#').unwrap_or(text);
    let first = text.split(['/', '|', '\\', '-']).next().unwrap_or("").trim();
    let first = first.strip_prefix('#').unwrap_or(first);
    if first.is_empty() {
        return None;
    }
    if first.eq_ignore_ascii_case("transparent") {
        return Some(Color {
            r: 255,
            g: 255,
            b: 255,
            a: 0,
        });
    }
    if let Some(c) = named_color(first) {
        return Some(c);
    }
    parse_hex(first)
}

fn parse_hex(hex: &str) -> Option<Color> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
    let pair = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    // PlantUML tolerates one stray digit (`#FFFFFFF`): the first six count.
    let hex = if hex.len() == 7 { &hex[..6] } else { hex };
    match hex.len() {
        3 => Some(Color::rgb(digit(0)? * 17, digit(1)? * 17, digit(2)? * 17)),
        6 => Some(Color::rgb(pair(0)?, pair(2)?, pair(4)?)),
        8 => Some(Color {
            r: pair(0)?,
            g: pair(2)?,
            b: pair(4)?,
            a: pair(6)?,
        }),
        _ => None,
    }
}

use puml_sema::colors::NAMED_COLORS;

fn named_color(name: &str) -> Option<Color> {
    let lower = name.to_ascii_lowercase();
    NAMED_COLORS
        .binary_search_by(|(n, _)| n.cmp(&lower.as_str()))
        .ok()
        .map(|i| Color::hex(NAMED_COLORS[i].1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted() {
        assert!(NAMED_COLORS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn parses_plantuml_color_forms() {
        assert_eq!(parse_color("#LightBlue"), Some(Color::hex(0xADD8E6)));
        assert_eq!(parse_color("lightblue"), Some(Color::hex(0xADD8E6)));
        assert_eq!(parse_color("#f00"), Some(Color::hex(0xFF0000)));
        assert_eq!(parse_color("#00ff00"), Some(Color::hex(0x00FF00)));
        assert_eq!(parse_color("#red/blue"), Some(Color::hex(0xFF0000)));
        assert_eq!(parse_color("#nonsense"), None);
        assert_eq!(parse_color(""), None);
    }
}
