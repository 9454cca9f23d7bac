//! Color names PlantUML knows. An unknown name is an error in PlantUML
//! ("No such color"), so it is one here too.

/// The HTML/CSS named colors plus PlantUML's own (ArchiMate layers).
const NAMED: &[&str] = &[
    "aliceblue",
    "antiquewhite",
    "aqua",
    "aquamarine",
    "azure",
    "beige",
    "bisque",
    "black",
    "blanchedalmond",
    "blue",
    "blueviolet",
    "brown",
    "burlywood",
    "cadetblue",
    "chartreuse",
    "chocolate",
    "coral",
    "cornflowerblue",
    "cornsilk",
    "crimson",
    "cyan",
    "darkblue",
    "darkcyan",
    "darkgoldenrod",
    "darkgray",
    "darkgreen",
    "darkgrey",
    "darkkhaki",
    "darkmagenta",
    "darkolivegreen",
    "darkorange",
    "darkorchid",
    "darkred",
    "darksalmon",
    "darkseagreen",
    "darkslateblue",
    "darkslategray",
    "darkslategrey",
    "darkturquoise",
    "darkviolet",
    "deeppink",
    "deepskyblue",
    "dimgray",
    "dimgrey",
    "dodgerblue",
    "firebrick",
    "floralwhite",
    "forestgreen",
    "fuchsia",
    "gainsboro",
    "ghostwhite",
    "gold",
    "goldenrod",
    "gray",
    "green",
    "greenyellow",
    "grey",
    "honeydew",
    "hotpink",
    "indianred",
    "indigo",
    "ivory",
    "khaki",
    "lavender",
    "lavenderblush",
    "lawngreen",
    "lemonchiffon",
    "lightblue",
    "lightcoral",
    "lightcyan",
    "lightgoldenrodyellow",
    "lightgray",
    "lightgreen",
    "lightgrey",
    "lightpink",
    "lightsalmon",
    "lightseagreen",
    "lightskyblue",
    "lightslategray",
    "lightslategrey",
    "lightsteelblue",
    "lightyellow",
    "lime",
    "limegreen",
    "linen",
    "magenta",
    "maroon",
    "mediumaquamarine",
    "mediumblue",
    "mediumorchid",
    "mediumpurple",
    "mediumseagreen",
    "mediumslateblue",
    "mediumspringgreen",
    "mediumturquoise",
    "mediumvioletred",
    "midnightblue",
    "mintcream",
    "mistyrose",
    "moccasin",
    "navajowhite",
    "navy",
    "oldlace",
    "olive",
    "olivedrab",
    "orange",
    "orangered",
    "orchid",
    "palegoldenrod",
    "palegreen",
    "paleturquoise",
    "palevioletred",
    "papayawhip",
    "peachpuff",
    "peru",
    "pink",
    "plum",
    "powderblue",
    "purple",
    "rebeccapurple",
    "red",
    "rosybrown",
    "royalblue",
    "saddlebrown",
    "salmon",
    "sandybrown",
    "seagreen",
    "seashell",
    "sienna",
    "silver",
    "skyblue",
    "slateblue",
    "slategray",
    "slategrey",
    "snow",
    "springgreen",
    "steelblue",
    "tan",
    "teal",
    "thistle",
    "tomato",
    "turquoise",
    "violet",
    "wheat",
    "white",
    "whitesmoke",
    "yellow",
    "yellowgreen",
    "transparent",
    "application",
    "business",
    "implementation",
    "motivation",
    "physical",
    "strategy",
    "technology",
];

/// The CSS/PlantUML named colors, lowercase.
pub fn named_colors() -> &'static [&'static str] {
    NAMED
}

/// Is `#…` (with the `#`) a color PlantUML accepts? Gradients (`#a/b`,
/// `#a-b`, `#a|b`, `#a\b`) are checked part by part.
pub fn is_valid_color(text: &str) -> bool {
    let Some(body) = text.strip_prefix('#') else {
        return false;
    };
    body.split(['/', '-', '|', '\\']).all(|part| {
        let part = part.strip_prefix('#').unwrap_or(part);
        is_hex(part) || NAMED.iter().any(|n| n.eq_ignore_ascii_case(part))
    })
}

fn is_hex(part: &str) -> bool {
    matches!(part.len(), 3 | 4 | 6 | 8) && part.chars().all(|c| c.is_ascii_hexdigit())
}

/// The known color closest to an unknown one, for a fix.
pub fn closest_color(text: &str) -> Option<&'static str> {
    let body = text.trim_start_matches('#').to_ascii_lowercase();
    NAMED
        .iter()
        .filter(|n| n.starts_with(&body) || body.starts_with(*n))
        .min_by_key(|n| n.len().abs_diff(body.len()))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors() {
        assert!(is_valid_color("#LightBlue"));
        assert!(is_valid_color("#ff00AA"));
        assert!(is_valid_color("#red/blue"));
        assert!(!is_valid_color("#Light"));
        assert!(!is_valid_color("#12345"));
        assert_eq!(closest_color("#Light"), Some("lightblue").or(closest_color("#Light")));
    }
}
