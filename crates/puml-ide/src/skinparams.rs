//! The `skinparam`s puml draws with, as a user writes them, and the values
//! each takes: for completion and hover. A test keeps the list in step with
//! the layout (each name changes the theme when given a sample value).

/// What a skinparam's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Color,
    /// A size in pixels.
    Number,
    Boolean,
    FontName,
    /// One of the listed words.
    Choice(&'static [&'static str]),
}

impl ValueKind {
    pub fn describe(self) -> String {
        match self {
            ValueKind::Color => "a color: a name (`LightBlue`) or `#RRGGBB`".to_string(),
            ValueKind::Number => "a number of pixels".to_string(),
            ValueKind::Boolean => "`true` or `false`".to_string(),
            ValueKind::FontName => "a font family name".to_string(),
            ValueKind::Choice(words) => format!("one of {}", words.join(", ")),
        }
    }

    /// A value the layout accepts, for tests and completion snippets.
    pub fn sample(self) -> &'static str {
        match self {
            ValueKind::Color => "#123456",
            ValueKind::Number => "17",
            ValueKind::Boolean => "true",
            ValueKind::FontName => "Courier",
            ValueKind::Choice(words) => words[0],
        }
    }
}

use ValueKind::*;

pub const SKINPARAMS: &[(&str, ValueKind)] = &[
    ("ArrowColor", Color),
    ("ArrowFontColor", Color),
    ("ArrowFontSize", Number),
    ("ArrowThickness", Number),
    ("BackgroundColor", Color),
    ("BoxBackgroundColor", Color),
    ("BoxBorderColor", Color),
    ("BoxFontColor", Color),
    ("DefaultFontColor", Color),
    ("DefaultFontName", FontName),
    ("DefaultFontSize", Number),
    ("DividerBackgroundColor", Color),
    ("DividerBorderColor", Color),
    ("FooterFontColor", Color),
    // The header tab's fill (PlantUML 1.2026.8); the body's is `GroupBody…`.
    ("GroupBackgroundColor", Color),
    ("GroupBodyBackgroundColor", Color),
    ("GroupBorderColor", Color),
    ("GroupFontColor", Color),
    ("GroupHeaderFontColor", Color),
    ("HeaderFontColor", Color),
    ("LegendBackgroundColor", Color),
    ("LegendBorderColor", Color),
    // PlantUML 1.2026.8 reads these only with the `sequence` prefix (the
    // bare names are W0234).
    ("SequenceLifeLineBackgroundColor", Color),
    ("SequenceLifeLineBorderColor", Color),
    ("MaxMessageSize", Number),
    (
        "MessageAlign",
        Choice(&["right", "left", "center", "direction", "reverseDirection"]),
    ),
    ("NoteBackgroundColor", Color),
    ("NoteBorderColor", Color),
    ("NoteFontColor", Color),
    ("NoteFontSize", Number),
    ("ParticipantBackgroundColor", Color),
    ("ParticipantBorderColor", Color),
    ("ParticipantFontColor", Color),
    ("ParticipantFontSize", Number),
    ("ReferenceBackgroundColor", Color),
    ("ReferenceHeaderBackgroundColor", Color),
    ("RoundCorner", Number),
    ("Shadowing", Boolean),
    ("TitleBackgroundColor", Color),
    ("TitleFontColor", Color),
    ("TitleFontSize", Number),
    ("ActorFontColor", Color),
    ("ActorFontSize", Number),
    ("ArrowFontStyle", Choice(&["bold", "italic", "plain"])),
    ("ParticipantFontStyle", Choice(&["bold", "italic", "plain"])),
    ("NoteFontStyle", Choice(&["bold", "italic", "plain"])),
    ("DiagramBorderColor", Color),
    ("DiagramBorderThickness", Number),
    ("SequenceGroupHeaderFontSize", Number),
    ("SequenceGroupFontSize", Number),
    ("SequenceDividerFontSize", Number),
    ("SequenceReferenceFontSize", Number),
    ("SequenceDelayFontSize", Number),
    ("HeaderFontSize", Number),
    ("FooterFontSize", Number),
    ("LegendFontSize", Number),
    ("LegendFontColor", Color),
    ("Guillemet", Choice(&["false", "true"])),
];

/// The skinparam named `name` (case-insensitive, with or without the
/// `sequence` prefix PlantUML also accepts).
pub fn find(name: &str) -> Option<(&'static str, ValueKind)> {
    let lower = name.to_ascii_lowercase();
    let bare = lower.strip_prefix("sequence").unwrap_or(&lower);
    SKINPARAMS
        .iter()
        .copied()
        .find(|(n, _)| n.eq_ignore_ascii_case(bare) || n.eq_ignore_ascii_case(&lower))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_skinparam_changes_the_theme() {
        for (name, kind) in SKINPARAMS {
            let mut theme = puml_layout::Theme::default();
            let before = theme.clone();
            theme.apply_skinparam(name, kind.sample());
            assert_ne!(theme, before, "{name} {}", kind.sample());
        }
        assert_eq!(find("sequenceArrowThickness").map(|(n, _)| n), Some("ArrowThickness"));
        assert!(find("NoSuchParam").is_none());
    }
}
