//! The themes PlantUML ships, for checking `!theme NAME` as PlantUML does
//! (it loads `NAME` from its jar, case-sensitively, and fails with "Cannot
//! load theme" otherwise).

/// Every theme name PlantUML 1.2026.8 ships (read from its jar).
pub const PLANTUML_THEMES: [&str; 44] = [
    "_none_",
    "amiga",
    "aws-orange",
    "black-knight",
    "bluegray",
    "blueprint",
    "carbon-gray",
    "cerulean",
    "cerulean-outline",
    "cloudscape-design",
    "crt-amber",
    "crt-green",
    "cyborg",
    "cyborg-outline",
    "hacker",
    "lightgray",
    "mars",
    "materia",
    "materia-outline",
    "metal",
    "mimeograph",
    "minty",
    "mono",
    "plain",
    "reddress-darkblue",
    "reddress-darkgreen",
    "reddress-darkorange",
    "reddress-darkred",
    "reddress-lightblue",
    "reddress-lightgreen",
    "reddress-lightorange",
    "reddress-lightred",
    "sandstone",
    "silver",
    "sketchy",
    "sketchy-outline",
    "spacelab",
    "spacelab-white",
    "sunlust",
    "superhero",
    "superhero-outline",
    "toy",
    "united",
    "vibrant",
];

/// The PlantUML theme a misspelt name most likely meant: the closest name
/// within 1 edit (2 for names of six letters or more), or the same name in
/// another case.
pub fn closest_theme(name: &str) -> Option<&'static str> {
    if let Some(same) = PLANTUML_THEMES.iter().find(|t| t.eq_ignore_ascii_case(name)) {
        return Some(same);
    }
    if name.len() > 40 {
        return None;
    }
    PLANTUML_THEMES
        .iter()
        .map(|t| (puml_syntax::edit_distance(&name.to_ascii_lowercase(), t), *t))
        // Short names are too close to each other for two edits (`dark`
        // is two from `mars`): one edit below six letters.
        .filter(|(d, t)| *d <= if t.len() >= 6 { 2 } else { 1 })
        .min_by_key(|(d, _)| *d)
        .map(|(_, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_and_miscased_names_find_their_theme() {
        assert_eq!(closest_theme("Cerulean"), Some("cerulean"));
        assert_eq!(closest_theme("cerulaen"), Some("cerulean"));
        assert_eq!(closest_theme("sketchy-outlin"), Some("sketchy-outline"));
        assert_eq!(closest_theme("dark"), None);
        assert_eq!(closest_theme("marz"), Some("mars"));
    }

    #[test]
    fn theme_names_are_sorted() {
        assert!(PLANTUML_THEMES.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
    }
}
