//! Themes and skin parameters: the look of a diagram as plain values.
//! Built from a named theme, then the diagram's `skinparam`s, then its
//! `<style>` rules (translated to the equivalent skin parameters).

use crate::color::parse_color;
use crate::scene::{Color, Font, FontFamily};
use puml_sema::model::{ParticipantKind, Settings};

/// Names accepted by `!theme` and `--theme`.
pub const THEME_NAMES: [&str; 7] = ["default", "plain", "minimal", "docs", "dark", "sand", "blueprint"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageAlign {
    Left,
    Center,
    Right,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub background: Color,
    pub font_color: Color,
    pub participant_bg: Color,
    pub participant_border: Color,
    pub participant_font_color: Color,
    pub participant_font_size: f64,
    /// Per-kind overrides (`skinparam actorBackgroundColor`), indexed like `ParticipantKind::ALL`.
    pub kind_bg: [Option<Color>; 8],
    pub kind_border: [Option<Color>; 8],
    pub lifeline_color: Color,
    pub activation_bg: Color,
    pub arrow_color: Color,
    pub arrow_font_color: Color,
    pub arrow_font_size: f64,
    pub arrow_thickness: f64,
    pub note_bg: Color,
    pub note_border: Color,
    pub note_font_color: Color,
    pub note_font_size: f64,
    pub group_border: Color,
    pub group_bg: Option<Color>,
    pub group_header_bg: Color,
    pub group_font_color: Color,
    pub divider_bg: Color,
    pub divider_border: Color,
    pub box_bg: Color,
    pub box_border: Color,
    pub box_font_color: Color,
    pub legend_bg: Color,
    pub legend_border: Color,
    pub title_font_size: f64,
    pub title_color: Color,
    pub header_color: Color,
    pub destroy_color: Color,
    pub round_corner: f64,
    /// Corner radius of group frames, notes' boxes and the legend: 0 unless `skinparam roundCorner` is set.
    pub frame_round_corner: f64,
    pub shadowing: bool,
    pub message_align: MessageAlign,
    pub max_message_size: Option<f64>,
    pub box_padding: f64,
    /// `skinparam defaultFontName`: a monospaced name gives the mono face.
    pub font_family: FontFamily,
    pub response_below_arrow: bool,
    pub strict_uml: bool,
    pub solid_lifeline: bool,
}

impl Default for Theme {
    fn default() -> Self {
        let line = Color::hex(0x181818);
        Theme {
            background: Color::WHITE,
            font_color: Color::BLACK,
            participant_bg: Color::hex(0xE2E2F0),
            participant_border: line,
            participant_font_color: Color::BLACK,
            participant_font_size: 14.0,
            kind_bg: [None; 8],
            kind_border: [None; 8],
            lifeline_color: line,
            activation_bg: Color::WHITE,
            arrow_color: line,
            arrow_font_color: Color::BLACK,
            arrow_font_size: 13.0,
            arrow_thickness: 1.0,
            note_bg: Color::hex(0xFEFFDD),
            note_border: line,
            note_font_color: Color::BLACK,
            note_font_size: 13.0,
            group_border: Color::BLACK,
            group_bg: None,
            group_header_bg: Color::hex(0xEEEEEE),
            group_font_color: Color::BLACK,
            divider_bg: Color::hex(0xEEEEEE),
            divider_border: Color::BLACK,
            box_bg: Color::hex(0xDDDDDD),
            box_border: line,
            box_font_color: Color::BLACK,
            legend_bg: Color::hex(0xDDDDDD),
            legend_border: Color::BLACK,
            title_font_size: 14.0,
            title_color: Color::BLACK,
            header_color: Color::hex(0x888888),
            destroy_color: Color::hex(0xA80036),
            round_corner: 2.5,
            frame_round_corner: 0.0,
            shadowing: false,
            message_align: MessageAlign::Left,
            max_message_size: None,
            box_padding: 0.0,
            font_family: FontFamily::Sans,
            response_below_arrow: false,
            strict_uml: false,
            solid_lifeline: false,
        }
    }
}

fn kind_index(kind: ParticipantKind) -> usize {
    ParticipantKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)
}

impl Theme {
    /// A regular font of the diagram's family (`defaultFontName`).
    pub fn font(&self, size: f64) -> Font {
        Font {
            family: self.font_family,
            ..Font::sans(size)
        }
    }

    /// A named theme; unknown names give `None`.
    pub fn named(name: &str) -> Option<Theme> {
        let base = Theme::default();
        let name = name.trim().to_ascii_lowercase();
        let name = name.strip_suffix("-outline").unwrap_or(&name);
        Some(match name {
            "default" | "" => base,
            "plain" => {
                let black = Color::BLACK;
                Theme {
                    participant_bg: Color::WHITE,
                    participant_border: black,
                    lifeline_color: black,
                    arrow_color: black,
                    note_bg: Color::WHITE,
                    note_border: black,
                    group_header_bg: Color::WHITE,
                    divider_bg: Color::WHITE,
                    box_bg: Color::hex(0xF5F5F5),
                    box_border: black,
                    legend_bg: Color::WHITE,
                    destroy_color: black,
                    round_corner: 0.0,
                    // PlantUML's plain theme pads boxes (its `box` style).
                    box_padding: 5.0,
                    ..base
                }
            }
            "minimal" => {
                let gray = Color::hex(0x777777);
                Theme {
                    participant_bg: Color::WHITE,
                    participant_border: gray,
                    lifeline_color: Color::hex(0xAAAAAA),
                    arrow_color: Color::hex(0x444444),
                    note_bg: Color::hex(0xF7F7F7),
                    note_border: Color::hex(0xBBBBBB),
                    group_border: gray,
                    group_header_bg: Color::hex(0xF7F7F7),
                    divider_bg: Color::hex(0xF7F7F7),
                    divider_border: gray,
                    box_bg: Color::hex(0xFAFAFA),
                    box_border: Color::hex(0xBBBBBB),
                    legend_bg: Color::hex(0xF7F7F7),
                    legend_border: gray,
                    destroy_color: Color::hex(0x444444),
                    round_corner: 4.0,
                    ..base
                }
            }
            "docs" => {
                let blue = Color::hex(0x1565C0);
                Theme {
                    participant_bg: Color::hex(0xE3F2FD),
                    participant_border: blue,
                    participant_font_color: Color::hex(0x0D2C54),
                    lifeline_color: Color::hex(0x90A4AE),
                    activation_bg: Color::hex(0xBBDEFB),
                    arrow_color: blue,
                    arrow_font_color: Color::hex(0x263238),
                    note_bg: Color::hex(0xFFF8E1),
                    note_border: Color::hex(0xFFB300),
                    group_border: Color::hex(0x546E7A),
                    group_header_bg: Color::hex(0xE3F2FD),
                    group_font_color: Color::hex(0x0D2C54),
                    divider_bg: Color::hex(0xE3F2FD),
                    divider_border: Color::hex(0x546E7A),
                    box_bg: Color::hex(0xF1F8FE),
                    box_border: Color::hex(0x90CAF9),
                    legend_bg: Color::hex(0xF1F8FE),
                    legend_border: blue,
                    title_color: Color::hex(0x0D2C54),
                    destroy_color: Color::hex(0xC62828),
                    round_corner: 6.0,
                    ..base
                }
            }
            "dark" => {
                let fg = Color::hex(0xE0E0E0);
                let line = Color::hex(0xB0B0B0);
                Theme {
                    background: Color::hex(0x1E1E1E),
                    font_color: fg,
                    participant_bg: Color::hex(0x2D2D30),
                    participant_border: line,
                    participant_font_color: fg,
                    lifeline_color: Color::hex(0x808080),
                    activation_bg: Color::hex(0x3C3C3C),
                    arrow_color: Color::hex(0xCCCCCC),
                    arrow_font_color: fg,
                    note_bg: Color::hex(0x3A3A2E),
                    note_border: line,
                    note_font_color: fg,
                    group_border: line,
                    group_header_bg: Color::hex(0x333337),
                    group_font_color: fg,
                    divider_bg: Color::hex(0x333337),
                    divider_border: line,
                    box_bg: Color::hex(0x252526),
                    box_border: Color::hex(0x606060),
                    box_font_color: fg,
                    legend_bg: Color::hex(0x2D2D30),
                    legend_border: line,
                    title_color: fg,
                    header_color: Color::hex(0xA0A0A0),
                    destroy_color: Color::hex(0xFF6B6B),
                    ..base
                }
            }
            "sand" => {
                let ink = Color::hex(0x5B4636);
                Theme {
                    background: Color::hex(0xFDF6E3),
                    font_color: ink,
                    participant_bg: Color::hex(0xEEE0C0),
                    participant_border: Color::hex(0x8B7355),
                    participant_font_color: ink,
                    lifeline_color: Color::hex(0x8B7355),
                    activation_bg: Color::hex(0xF5EBD0),
                    arrow_color: Color::hex(0x6B5744),
                    arrow_font_color: ink,
                    note_bg: Color::hex(0xFFF3C4),
                    note_border: Color::hex(0x8B7355),
                    note_font_color: ink,
                    group_border: Color::hex(0x8B7355),
                    group_header_bg: Color::hex(0xEEE0C0),
                    group_font_color: ink,
                    divider_bg: Color::hex(0xEEE0C0),
                    divider_border: Color::hex(0x8B7355),
                    box_bg: Color::hex(0xF6EDD5),
                    box_border: Color::hex(0xC8B48C),
                    box_font_color: ink,
                    legend_bg: Color::hex(0xF6EDD5),
                    legend_border: Color::hex(0x8B7355),
                    title_color: ink,
                    destroy_color: Color::hex(0xA0522D),
                    ..base
                }
            }
            "blueprint" => {
                let white = Color::hex(0xFFFFFF);
                let paper = Color::hex(0x1B3A5C);
                Theme {
                    background: paper,
                    font_color: white,
                    participant_bg: Color::hex(0x24496F),
                    participant_border: white,
                    participant_font_color: white,
                    lifeline_color: Color::hex(0xA9C4E0),
                    activation_bg: Color::hex(0x2E5A86),
                    arrow_color: white,
                    arrow_font_color: white,
                    note_bg: Color::hex(0x24496F),
                    note_border: white,
                    note_font_color: white,
                    group_border: white,
                    group_header_bg: Color::hex(0x24496F),
                    group_font_color: white,
                    divider_bg: Color::hex(0x24496F),
                    divider_border: white,
                    box_bg: Color::hex(0x21426A),
                    box_border: Color::hex(0xA9C4E0),
                    box_font_color: white,
                    legend_bg: Color::hex(0x24496F),
                    legend_border: white,
                    title_color: white,
                    header_color: Color::hex(0xA9C4E0),
                    destroy_color: Color::hex(0xFFB4B4),
                    round_corner: 0.0,
                    ..base
                }
            }
            _ => return None,
        })
    }

    /// The theme for a diagram: `override_name` (e.g. `--theme`) wins over
    /// the diagram's `!theme`; then skinparams and `<style>` rules apply.
    pub fn for_settings(settings: &Settings, override_name: Option<&str>) -> Theme {
        let mut theme = override_name
            .or(settings.theme.as_deref())
            .and_then(Theme::named)
            .unwrap_or_default();
        for (key, value) in &settings.skinparams {
            theme.apply_skinparam(key, value);
        }
        for sheet in &settings.styles {
            for (key, value) in style_to_skinparams(sheet) {
                theme.apply_skinparam(&key, &value);
            }
        }
        theme
    }

    pub fn participant_bg(&self, kind: ParticipantKind) -> Color {
        self.kind_bg[kind_index(kind)].unwrap_or(self.participant_bg)
    }

    pub fn participant_border(&self, kind: ParticipantKind) -> Color {
        self.kind_border[kind_index(kind)].unwrap_or(self.participant_border)
    }

    /// Applies one `skinparam key value` (key in any case, with or
    /// without the `sequence` prefix). Unknown keys and bad values are ignored.
    pub fn apply_skinparam(&mut self, key: &str, value: &str) {
        let key = key.to_ascii_lowercase();
        let key = key.strip_prefix("sequence").unwrap_or(&key);
        let value = value.trim();
        let color = parse_color(value);
        let number = value
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite());
        let size = number.filter(|v| (1.0..=200.0).contains(v));
        let flag = match value.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(true),
            "false" | "no" | "off" => Some(false),
            _ => None,
        };
        macro_rules! set {
            ($field:expr, $v:expr) => {
                if let Some(v) = $v {
                    $field = v;
                }
            };
        }
        for (i, kind) in ParticipantKind::ALL.iter().enumerate() {
            if let Some(prop) = key.strip_prefix(kind.keyword()) {
                if *kind != ParticipantKind::Participant {
                    match prop {
                        "backgroundcolor" => self.kind_bg[i] = color.or(self.kind_bg[i]),
                        "bordercolor" => self.kind_border[i] = color.or(self.kind_border[i]),
                        _ => {}
                    }
                }
            }
        }
        match key {
            "backgroundcolor" => set!(self.background, color),
            "defaultfontcolor" => {
                if let Some(c) = color {
                    self.font_color = c;
                    self.participant_font_color = c;
                    self.arrow_font_color = c;
                    self.note_font_color = c;
                    self.group_font_color = c;
                    self.title_color = c;
                    self.box_font_color = c;
                }
            }
            "defaultfontsize" => {
                if let Some(s) = size {
                    self.participant_font_size = s + 1.0;
                    self.arrow_font_size = s;
                    self.note_font_size = s;
                    self.title_font_size = s + 1.0;
                }
            }
            "participantbackgroundcolor" => set!(self.participant_bg, color),
            "participantbordercolor" => set!(self.participant_border, color),
            "participantfontcolor" | "actorfontcolor" => set!(self.participant_font_color, color),
            "participantfontsize" | "actorfontsize" => set!(self.participant_font_size, size),
            "lifelinebordercolor" => set!(self.lifeline_color, color),
            "lifelinebackgroundcolor" => set!(self.activation_bg, color),
            "arrowcolor" => set!(self.arrow_color, color),
            "arrowfontcolor" => set!(self.arrow_font_color, color),
            "arrowfontsize" => set!(self.arrow_font_size, size),
            "arrowthickness" => set!(self.arrow_thickness, number.filter(|v| (0.1..=20.0).contains(v))),
            "notebackgroundcolor" => set!(self.note_bg, color),
            "notebordercolor" => set!(self.note_border, color),
            "notefontcolor" => set!(self.note_font_color, color),
            "notefontsize" => set!(self.note_font_size, size),
            "groupbordercolor" => set!(self.group_border, color),
            "groupbackgroundcolor" => self.group_bg = color.or(self.group_bg),
            "groupheaderbackgroundcolor" => set!(self.group_header_bg, color),
            "groupfontcolor" | "groupheaderfontcolor" => set!(self.group_font_color, color),
            "dividerbackgroundcolor" => set!(self.divider_bg, color),
            "dividerbordercolor" => set!(self.divider_border, color),
            "boxbackgroundcolor" => set!(self.box_bg, color),
            "boxbordercolor" => set!(self.box_border, color),
            "boxfontcolor" => set!(self.box_font_color, color),
            "legendbackgroundcolor" => set!(self.legend_bg, color),
            "legendbordercolor" => set!(self.legend_border, color),
            "titlefontsize" => set!(self.title_font_size, size),
            "titlefontcolor" => set!(self.title_color, color),
            "headerfontcolor" | "footerfontcolor" => set!(self.header_color, color),
            "roundcorner" => {
                if let Some(v) = number.filter(|v| (0.0..=50.0).contains(v)) {
                    self.round_corner = v / 2.0;
                    self.frame_round_corner = v / 2.0;
                }
            }
            "shadowing" => set!(self.shadowing, flag),
            "messagealign" => {
                self.message_align = match value.to_ascii_lowercase().as_str() {
                    "center" => MessageAlign::Center,
                    "right" | "direction" | "reversedirection" => MessageAlign::Right,
                    _ => MessageAlign::Left,
                }
            }
            "maxmessagesize" => {
                self.max_message_size = number.filter(|v| *v >= 10.0).or(self.max_message_size);
            }
            // PlantUML 1.2026 accepts `participantPadding` but lays out as if it
            // were absent (it only prints a deprecation banner): so do we.
            "participantpadding" => {}
            "defaultfontname" => {
                let name = value.to_ascii_lowercase();
                self.font_family = if ["mono", "courier", "consolas", "menlo"]
                    .iter()
                    .any(|m| name.contains(m))
                {
                    FontFamily::Mono
                } else {
                    FontFamily::Sans
                };
            }
            "boxpadding" => set!(self.box_padding, number.filter(|v| (0.0..=500.0).contains(v))),
            "responsemessagebelowarrow" => set!(self.response_below_arrow, flag),
            "lifelinestrategy" => self.solid_lifeline = value.eq_ignore_ascii_case("solid"),
            "style" => self.strict_uml = value.eq_ignore_ascii_case("strictuml"),
            "monochrome" if flag == Some(true) || value.eq_ignore_ascii_case("reverse") => {
                let reverse = value.eq_ignore_ascii_case("reverse");
                let (bg, fg) = if reverse {
                    (Color::BLACK, Color::WHITE)
                } else {
                    (Color::WHITE, Color::BLACK)
                };
                *self = Theme {
                    background: bg,
                    font_color: fg,
                    participant_bg: bg,
                    participant_border: fg,
                    participant_font_color: fg,
                    lifeline_color: fg,
                    activation_bg: bg,
                    arrow_color: fg,
                    arrow_font_color: fg,
                    note_bg: bg,
                    note_border: fg,
                    note_font_color: fg,
                    group_border: fg,
                    group_header_bg: bg,
                    group_font_color: fg,
                    divider_bg: bg,
                    divider_border: fg,
                    box_bg: bg,
                    box_border: fg,
                    legend_bg: bg,
                    legend_border: fg,
                    title_color: fg,
                    header_color: fg,
                    destroy_color: fg,
                    kind_bg: [None; 8],
                    kind_border: [None; 8],
                    ..self.clone()
                };
            }
            _ => {}
        }
    }
}

/// Translates the simple form of PlantUML `<style>` sheets into skin
/// parameters: `element { Property value }`, nested blocks (the innermost
/// element wins), `;` or newlines between declarations. Stereotype
/// selectors (`.name`) are skipped.
pub fn style_to_skinparams(sheet: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut pending = String::new();
    let flush_decl = |decl: &str, stack: &[String], out: &mut Vec<(String, String)>| {
        let decl = decl.trim().trim_end_matches(';').trim();
        if decl.is_empty() {
            return;
        }
        let Some(element) = stack.last() else { return };
        if stack.iter().any(|s| s.starts_with('.') || s.starts_with('<')) {
            return;
        }
        let (prop, value) = match decl.split_once([':', ' ', '\t']) {
            Some((p, v)) => (p.trim(), v.trim().trim_start_matches(':').trim()),
            None => return,
        };
        if let Some(key) = style_key(element, &prop.to_ascii_lowercase()) {
            out.push((key, value.to_string()));
        }
    };
    for c in sheet.chars() {
        match c {
            '{' => {
                let selector = pending.trim().to_ascii_lowercase();
                let selector = selector.split([',', ' ']).next_back().unwrap_or("").to_string();
                stack.push(selector);
                pending.clear();
            }
            '}' => {
                flush_decl(&pending, &stack, &mut out);
                pending.clear();
                stack.pop();
            }
            '\n' | ';' => {
                flush_decl(&pending, &stack, &mut out);
                pending.clear();
            }
            _ => pending.push(c),
        }
    }
    out
}

fn style_key(element: &str, prop: &str) -> Option<String> {
    let element = element.trim();
    let key = match (element, prop) {
        ("document" | "root", "backgroundcolor") => "backgroundcolor".to_string(),
        ("root" | "element" | "document", p) => format!("default{p}"),
        ("arrow", "linecolor") => "arrowcolor".to_string(),
        ("arrow", "linethickness") => "arrowthickness".to_string(),
        ("arrow", p) => format!("arrow{p}"),
        ("lifeline", "linecolor") => "lifelinebordercolor".to_string(),
        ("lifeline", p) => format!("lifeline{p}"),
        ("groupheader", p) => format!("groupheader{p}"),
        (
            "participant" | "actor" | "boundary" | "control" | "entity" | "database" | "collections" | "queue" | "note"
            | "group" | "box" | "divider" | "legend" | "title" | "header" | "footer",
            p,
        ) => {
            let p = if p == "linecolor" { "bordercolor" } else { p };
            format!("{element}{p}")
        }
        _ => return None,
    };
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_theme_exists() {
        for name in THEME_NAMES {
            assert!(Theme::named(name).is_some(), "{name}");
        }
        assert!(Theme::named("nope").is_none());
    }

    #[test]
    fn skinparams_and_styles_apply() {
        let settings = Settings {
            skinparams: vec![
                ("sequencearrowcolor".into(), "red".into()),
                ("participantbackgroundcolor".into(), "#00ff00".into()),
                ("maxmessagesize".into(), "80".into()),
            ],
            styles: vec!["sequenceDiagram {\n note { BackgroundColor #0000ff }\n}".into()],
            ..Settings::default()
        };
        let theme = Theme::for_settings(&settings, None);
        assert_eq!(theme.arrow_color, Color::hex(0xFF0000));
        assert_eq!(theme.participant_bg, Color::hex(0x00FF00));
        assert_eq!(theme.note_bg, Color::hex(0x0000FF));
        assert_eq!(theme.max_message_size, Some(80.0));
    }
}
