//! The look of a class diagram: PlantUML 1.2026.8's default colours, fonts
//! and separations for class diagrams (observed in its SVGs), changed by
//! `skinparam` (class, package, note, arrow, stereotype parameters) and the
//! named theme's page colours.

use crate::color::parse_color;
use crate::scene::{Color, Font};
use crate::theme::{family_of, Theme};
use puml_sema::class::ElementKind;
use puml_sema::model::Diagram;

/// Plain values the class layout draws with.
#[derive(Debug, Clone)]
pub(crate) struct ClassLook {
    pub background: Color,
    pub class_bg: Color,
    pub class_border: Color,
    pub class_border_width: f64,
    pub class_font_color: Color,
    pub name_font: Font,
    pub member_font: Font,
    pub stereotype_font: Font,
    pub stereotype_font_color: Color,
    /// `skinparam classAttributeIconSize 0` draws visibility as text.
    pub visibility_icons: bool,
    /// Corner radius of class boxes (`roundCorner` / 2).
    pub radius: f64,
    pub shadow: bool,
    pub arrow_color: Color,
    pub arrow_font: Font,
    pub arrow_font_color: Color,
    pub arrow_thickness: f64,
    pub note_bg: Color,
    pub note_border: Color,
    pub note_font: Font,
    pub note_font_color: Color,
    pub package_border: Color,
    pub package_bg: Option<Color>,
    pub package_font: Font,
    pub package_font_color: Color,
    /// dot's `nodesep` and `ranksep` in px.
    pub node_sep: f64,
    pub rank_sep: f64,
    /// Spot colours set by `skinparam stereotypeCBackgroundColor` etc.,
    /// indexed by letter.
    pub spot_bg: Vec<(char, Color)>,
    pub spot_border: Color,
    /// Spot outlines set by `skinparam stereotypeCBorderColor` etc., by
    /// letter (the other letters keep `spot_border`).
    pub spot_border_by_letter: Vec<(char, Color)>,
    /// The spot circle's radius: PlantUML's `circledCharacterRadius`,
    /// by default a third of the spot letter's font size (17) plus 6,
    /// rounded down (11; 9 under `defaultFontSize 11`).
    pub spot_radius: f64,
    /// The column visibility icons take (14 px; 12 under `!theme plain`).
    pub icon_column: f64,
    /// `skinparam style strictuml`: no spots.
    pub strict_uml: bool,
    /// `skinparam linetype ortho`: dot cannot route labels on orthogonal
    /// edges, so PlantUML gives them as `xlabel`s, which take no rank.
    pub ortho: bool,
    /// `skinparam linetype polyline`: straight pieces through the route's
    /// bends.
    pub polyline: bool,
    /// Room added left of and above the drawing (`!theme plain`: 5 px,
    /// its root `Margin 5`).
    pub extra_margin: f64,
    /// Spots and visibility icons in one colour pair (`!theme plain`: white
    /// fills, black lines) rather than PlantUML's per-kind colours.
    pub monochrome_icons: Option<(Color, Color)>,
    /// `skinparam classHeaderBackgroundColor`: the header's own fill.
    pub header_bg: Option<Color>,
    /// Skinparams scoped to a stereotype (`BackgroundColor<<S>>`,
    /// `skinparam class<<S>> { … }`): (stereotype lowercased, key without
    /// it, value), applied where an element has that stereotype.
    pub stereotyped: Vec<(String, String, String)>,
    /// `skinparam padding N`: N px more around every text block (a
    /// cluster's title, a description element's text; observed with the
    /// oracle, `test-data/description-probes/padding-*`).
    pub padding: f64,
    /// `skinparam actorStyle awesome`: actors drawn as a head over a
    /// bust.
    pub awesome_actor: bool,
}

impl ClassLook {
    pub fn new(diagram: &Diagram, theme_override: Option<&str>) -> ClassLook {
        let theme = Theme::for_settings(&diagram.settings, theme_override);
        let sans = Font::sans(14.0);
        let mut look = ClassLook {
            background: theme.background,
            class_bg: Color::hex(0xF1F1F1),
            class_border: Color::hex(0x181818),
            class_border_width: 0.5,
            class_font_color: Color::BLACK,
            name_font: sans,
            member_font: sans,
            stereotype_font: Font::sans(12.0).italic(),
            stereotype_font_color: Color::BLACK,
            visibility_icons: true,
            radius: 2.5,
            shadow: false,
            arrow_color: Color::hex(0x181818),
            arrow_font: Font::sans(13.0),
            arrow_font_color: Color::BLACK,
            arrow_thickness: 1.0,
            note_bg: Color::hex(0xFEFFDD),
            note_border: Color::hex(0x181818),
            note_font: Font::sans(13.0),
            note_font_color: Color::BLACK,
            package_border: Color::BLACK,
            package_bg: None,
            package_font: Font::sans(14.0).bold(),
            package_font_color: Color::BLACK,
            node_sep: 35.0,
            rank_sep: 60.0,
            spot_bg: Vec::new(),
            spot_border: Color::hex(0x181818),
            spot_border_by_letter: Vec::new(),
            spot_radius: 11.0,
            icon_column: 14.0,
            strict_uml: false,
            ortho: false,
            polyline: false,
            extra_margin: 0.0,
            monochrome_icons: None,
            header_bg: None,
            stereotyped: Vec::new(),
            padding: 0.0,
            awesome_actor: false,
        };
        let theme_name = theme_override.or(diagram.settings.theme.as_deref());
        if theme_name.is_some_and(|t| t.eq_ignore_ascii_case("plain")) {
            // Observed with `!theme plain` (corpus-class 073).
            look.class_bg = Color::WHITE;
            look.class_border = Color::BLACK;
            look.class_border_width = 1.0;
            look.spot_border = Color::BLACK;
            look.spot_radius = 9.0;
            look.icon_column = 12.0;
            look.arrow_color = Color::BLACK;
            look.note_bg = Color::WHITE;
            look.note_border = Color::BLACK;
            look.monochrome_icons = Some((Color::WHITE, Color::BLACK));
            look.extra_margin = 5.0;
        }
        if theme_name.is_some_and(|t| t.eq_ignore_ascii_case("carbon-gray")) {
            // Observed with `!theme carbon-gray` (corpus-class 086): 11 px
            // names and members, the spot of a 12 px default font (radius
            // 10), grey lines and fills.
            let text = Color::hex(0x262626);
            look.name_font = Font::sans(11.0);
            look.member_font = Font::sans(11.0);
            look.stereotype_font = Font::sans(9.0).italic();
            look.class_font_color = text;
            look.stereotype_font_color = text;
            look.spot_radius = 10.0;
            look.icon_column = 13.0;
            look.class_bg = Color::hex(0xF4F4F4);
            look.class_border = Color::hex(0xC6C6C6);
            look.class_border_width = 1.0;
            look.spot_border = Color::hex(0xC6C6C6);
            look.arrow_color = Color::hex(0xC6C6C6);
            look.arrow_font = Font::sans(12.0);
            look.arrow_font_color = text;
            look.note_font = Font::sans(12.0);
            look.note_font_color = text;
            look.note_bg = Color::WHITE;
            look.note_border = text;
            // The theme's `skinparam stereotype { CBackgroundColor … }`.
            for (key, value) in [
                ("stereotypecbackgroundcolor", "#F4F4F4"),
                ("stereotypecbordercolor", "#C6C6C6"),
                ("stereotypeabackgroundcolor", "#262626"),
                ("stereotypeabordercolor", "#262626"),
                ("stereotypeibackgroundcolor", "#FFFFFF"),
                ("stereotypeibordercolor", "#FFFFFF"),
                ("stereotypeebackgroundcolor", "#FFFFFF"),
                ("stereotypeebordercolor", "#FFFFFF"),
            ] {
                look.apply(key, value);
            }
        }
        for (key, value) in &diagram.settings.skinparams {
            // `BackgroundColor<< S >> #color`: the reading split the key at
            // the stereotype's first blank.
            let joined;
            let (key, value) = if key.contains("<<") && !key.contains(">>") {
                joined = format!("{key} {value}");
                match joined.find(">>") {
                    Some(close) => (&joined[..close + 2], &joined[close + 2..]),
                    None => (key.as_str(), value.as_str()),
                }
            } else {
                (key.as_str(), value.as_str())
            };
            match split_stereotype(key) {
                Some((plain, stereo)) => look.stereotyped.push((stereo, plain, value.trim().to_string())),
                None => look.apply(key, value.trim()),
            }
        }
        look
    }

    /// The look of an element with these stereotypes: the scoped
    /// skinparams that name one of them applied over this one.
    pub fn for_stereotypes(&self, stereotypes: &[String]) -> Option<ClassLook> {
        if self.stereotyped.is_empty() || stereotypes.is_empty() {
            return None;
        }
        let wanted: Vec<String> = stereotypes.iter().map(|s| s.trim().to_ascii_lowercase()).collect();
        let mut scoped = self.clone();
        let mut any = false;
        for (stereo, key, value) in &self.stereotyped {
            if wanted.contains(stereo) {
                scoped.apply(key, value);
                any = true;
            }
        }
        any.then_some(scoped)
    }

    fn apply(&mut self, key: &str, value: &str) {
        if key == "classheaderbackgroundcolor" {
            self.header_bg = parse_color(value);
            return;
        }
        let color = parse_color(value);
        let number = value.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
        let set_color = |slot: &mut Color| {
            if let Some(c) = color {
                *slot = c;
            }
        };
        match key {
            "backgroundcolor" => set_color(&mut self.background),
            "classbackgroundcolor" => set_color(&mut self.class_bg),
            "classbordercolor" => set_color(&mut self.class_border),
            "classborderthickness" => {
                if let Some(n) = number {
                    self.class_border_width = n;
                }
            }
            "classfontcolor" => set_color(&mut self.class_font_color),
            "defaultfontsize" => {
                if let Some(n) = number.filter(|n| *n > 0.0 && *n < 200.0) {
                    self.spot_radius = (n / 3.0).floor() + 6.0;
                    for font in [
                        &mut self.name_font,
                        &mut self.member_font,
                        &mut self.stereotype_font,
                        &mut self.arrow_font,
                        &mut self.note_font,
                        &mut self.package_font,
                    ] {
                        font.size = n;
                    }
                }
            }
            "classfontsize" => {
                if let Some(n) = number.filter(|n| *n > 0.0 && *n < 200.0) {
                    self.name_font.size = n;
                }
            }
            "classfontname" => self.name_font.family = family_of(value),
            "classfontstyle" => {
                let v = value.to_ascii_lowercase();
                self.name_font.bold = v.contains("bold");
                self.name_font.italic = v.contains("italic");
            }
            "style" => self.strict_uml = value.eq_ignore_ascii_case("strictuml"),
            "linetype" => {
                self.ortho = value.eq_ignore_ascii_case("ortho");
                self.polyline = value.eq_ignore_ascii_case("polyline");
            }
            "classattributefontsize" => {
                if let Some(n) = number.filter(|n| *n > 0.0 && *n < 200.0) {
                    self.member_font.size = n;
                }
            }
            "classattributefontname" => self.member_font.family = family_of(value),
            "circledcharacterradius" => {
                if let Some(n) = number.filter(|n| *n > 0.0 && *n < 100.0) {
                    self.spot_radius = n;
                }
            }
            "classattributeiconsize" => self.visibility_icons = number.is_none_or(|n| n > 0.0),
            "classstereotypefontcolor" | "stereotypefontcolor" => set_color(&mut self.stereotype_font_color),
            "roundcorner" => {
                if let Some(n) = number {
                    self.radius = n / 2.0;
                }
            }
            "shadowing" => self.shadow = value.eq_ignore_ascii_case("true"),
            "arrowcolor" | "classarrowcolor" => set_color(&mut self.arrow_color),
            "arrowfontcolor" | "classarrowfontcolor" => set_color(&mut self.arrow_font_color),
            "arrowthickness" | "classarrowthickness" => {
                if let Some(n) = number.filter(|n| *n < 100.0) {
                    self.arrow_thickness = n;
                }
            }
            "arrowfontsize" | "classarrowfontsize" => {
                if let Some(n) = number.filter(|n| *n > 0.0 && *n < 200.0) {
                    self.arrow_font.size = n;
                }
            }
            "notebackgroundcolor" => set_color(&mut self.note_bg),
            "notebordercolor" => set_color(&mut self.note_border),
            "notefontcolor" => set_color(&mut self.note_font_color),
            "packagebordercolor" => set_color(&mut self.package_border),
            "packagebackgroundcolor" => self.package_bg = color,
            "packagefontcolor" => set_color(&mut self.package_font_color),
            "nodesep" => {
                if let Some(n) = number {
                    self.node_sep = n;
                }
            }
            "actorstyle" => self.awesome_actor = value.eq_ignore_ascii_case("awesome"),
            "padding" => {
                if let Some(n) = number.filter(|n| *n < 1000.0) {
                    self.padding = n;
                }
            }
            "ranksep" => {
                if let Some(n) = number {
                    self.rank_sep = n;
                }
            }
            _ => {
                // `stereotypeCBackgroundColor`, `stereotypeABackgroundColor`, …
                if let Some(rest) = key.strip_prefix("stereotype") {
                    if let Some(letter) = rest.strip_suffix("backgroundcolor") {
                        if let (Some(c), [l]) = (color, letter.as_bytes()) {
                            let letter = l.to_ascii_uppercase() as char;
                            self.spot_bg.retain(|(k, _)| *k != letter);
                            self.spot_bg.push((letter, c));
                        }
                    } else if let Some(letter) = rest.strip_suffix("bordercolor") {
                        match (color, letter.as_bytes()) {
                            (Some(c), [l]) => {
                                let letter = l.to_ascii_uppercase() as char;
                                self.spot_border_by_letter.retain(|(k, _)| *k != letter);
                                self.spot_border_by_letter.push((letter, c));
                            }
                            _ => set_color(&mut self.spot_border),
                        }
                    }
                }
            }
        }
    }

    /// The outline of a spot showing `letter`.
    pub fn spot_border_of(&self, letter: char) -> Color {
        self.spot_border_by_letter
            .iter()
            .find(|(l, _)| *l == letter.to_ascii_uppercase())
            .map_or(self.spot_border, |(_, c)| *c)
    }

    /// The spot's letter and colour PlantUML gives an element kind (none:
    /// no spot, as for objects).
    pub fn spot_of(&self, kind: ElementKind) -> Option<(char, Color)> {
        let (letter, color) = match kind {
            ElementKind::Class => ('C', 0xADD1B2),
            ElementKind::AbstractClass => ('A', 0xA9DCDF),
            ElementKind::Interface => ('I', 0xB4A7E5),
            ElementKind::Enum => ('E', 0xEB937F),
            ElementKind::Annotation => ('@', 0xE3664A),
            ElementKind::Entity => ('E', 0xADD1B2),
            ElementKind::Exception => ('X', 0xD94321),
            ElementKind::Metaclass => ('M', 0xCCCCCC),
            ElementKind::Protocol => ('P', 0xF1F1F1),
            ElementKind::Stereotype => ('S', 0xFF77FF),
            ElementKind::Struct => ('S', 0xF1F1F1),
            ElementKind::Record => ('R', 0xFF8F00),
            _ => return None,
        };
        let default = self.monochrome_icons.map_or(Color::hex(color), |(fill, _)| fill);
        let color = self
            .spot_bg
            .iter()
            .find(|(l, _)| *l == letter)
            .map_or(default, |(_, c)| *c);
        Some((letter, color))
    }
}

/// `classbackgroundcolor<<s>>` or `class<<s>>backgroundcolor` → the key
/// without the stereotype and the stereotype, lowercased.
fn split_stereotype(key: &str) -> Option<(String, String)> {
    let open = key.find("<<")?;
    let close = key[open..].find(">>")? + open;
    let stereo = key[open + 2..close].trim().to_ascii_lowercase();
    let plain = format!("{}{}", &key[..open], &key[close + 2..]);
    Some((plain, stereo))
}
