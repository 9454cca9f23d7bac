//! The look: fonts, colours and strokes from the theme, skinparams and styles.

use super::*;

/// `skin rose`'s activity look, observed as the themes' are
/// (`scripts/activity_theme_probe.py`, `test-data/activity-themes/skin_rose`).
pub(super) const ROSE_SHEET: &str = include_str!("../../themes/skin-rose.style");

/// Which of the action's and the diamond's text settings a diagram sets
/// itself (the diamond follows the action's where it sets none).
#[derive(Default)]
pub(super) struct OwnFonts {
    pub(super) action_family: Option<crate::scene::FontFamily>,
    pub(super) action_size: Option<f64>,
    pub(super) action_color: Option<Color>,
    pub(super) diamond_family: Option<crate::scene::FontFamily>,
    pub(super) diamond_size: Option<f64>,
    pub(super) diamond_color: Option<Color>,
    /// The same for the fill, outline colour and width: the diamond takes
    /// the action's (PlantUML 1.2026.8: `activity { BackGroundColor }` and
    /// `skinparam ActivityBackgroundColor` fill the conditions too, over a
    /// theme's own diamond fill, corpus activity 025).
    pub(super) action_bg: bool,
    pub(super) action_border: bool,
    pub(super) action_line: bool,
    pub(super) diamond_bg: bool,
    pub(super) diamond_border: bool,
    pub(super) diamond_line: bool,
}

/// The element and property an activity skinparam (lower-case) sets:
/// `activityDiamondFontSize` is the diamond's `fontsize`,
/// `activityArrowColor` the arrow's `color`, `partitionBackgroundColor`
/// the partition's `backgroundcolor`.
fn skinparam_target(key: &str) -> Option<(&'static str, String)> {
    // The general arrow and note parameters reach the activity elements
    // over a theme's activity look (corpus activity 025: `skinparam
    // ArrowColor #333333` after `!theme cerulean` draws #333 arrows).
    let general = match key {
        "arrowcolor" => Some(("arrow", "color")),
        "arrowfontcolor" => Some(("arrow", "fontcolor")),
        "arrowfontname" => Some(("arrow", "fontname")),
        // Over `skin rose`'s 11 px too (corpus activity 002).
        "arrowfontsize" => Some(("arrow", "fontsize")),
        "arrowthickness" => Some(("arrow", "linethickness")),
        "notebackgroundcolor" => Some(("note", "backgroundcolor")),
        "notebordercolor" => Some(("note", "linecolor")),
        "notefontcolor" => Some(("note", "fontcolor")),
        "notefontname" => Some(("note", "fontname")),
        "notefontsize" => Some(("note", "fontsize")),
        _ => None,
    };
    if let Some((element, property)) = general {
        return Some((element, property.to_string()));
    }
    for (prefix, element) in [
        ("activitydiamond", "diamond"),
        ("activityarrow", "arrow"),
        ("activity", "activity"),
        ("swimlane", "swimlane"),
        ("partition", "partition"),
    ] {
        // `LineColor` is a style property: PlantUML ignores the skinparam
        // `activityLineColor` (the border stays `activityBorderColor`).
        if let Some(property) = key.strip_prefix(prefix).filter(|p| !p.is_empty() && *p != "linecolor") {
            return Some((element, property.to_string()));
        }
    }
    None
}

pub(super) struct Style {
    pub(super) action_bg: Color,
    pub(super) action_border: Color,
    /// The action box's outline width, corner radius (PlantUML's
    /// `RoundCorner` is the corner's diameter) and the room around its text.
    pub(super) action_line: f64,
    pub(super) action_radius: f64,
    pub(super) action_pad: f64,
    pub(super) action_font: Font,
    pub(super) action_font_color: Color,
    pub(super) diamond_bg: Color,
    pub(super) diamond_border: Color,
    pub(super) diamond_line: f64,
    pub(super) diamond_font: Font,
    pub(super) arrow_color: Color,
    pub(super) arrow_width: f64,
    pub(super) arrow_font: Font,
    pub(super) arrow_font_color: Color,
    /// The start disc's fill and outline, the stop ring's outline and its
    /// dot's fill (PlantUML's themes paint them apart).
    pub(super) start_color: Color,
    pub(super) start_gradient: Option<Gradient>,
    pub(super) start_border: Color,
    pub(super) end_color: Color,
    pub(super) end_dot: Color,
    /// The `end` circle's colour: `activityEndColor` reaches it, not the
    /// `stop` circle (PlantUML 1.2026.8, corpus activity 023).
    pub(super) end_cross: Color,
    /// A connector circle keeps the theme's action look: the diagram's
    /// activity colours do not reach it (corpus activity 023).
    pub(super) connector_bg: Color,
    pub(super) connector_border: Color,
    pub(super) bar_color: Color,
    pub(super) bar_border: Color,
    pub(super) note_bg: Color,
    /// Where the fills fade to when written as gradients (`skinparam
    /// ActivityBackgroundColor #A-B`, …), as PlantUML 1.2026.8 paints them.
    pub(super) action_gradient: Option<Gradient>,
    pub(super) diamond_gradient: Option<Gradient>,
    pub(super) note_gradient: Option<Gradient>,
    pub(super) note_border: Color,
    pub(super) note_line: f64,
    pub(super) note_font: Font,
    pub(super) note_font_color: Color,
    pub(super) frame_color: Color,
    /// A partition's (and group's) frame width and corner radius.
    pub(super) frame_line: f64,
    pub(super) frame_radius: f64,
    pub(super) frame_font: Font,
    /// A group's title and frame: under a theme, the partition's title
    /// and the theme's group outline (observed: cerulean's group is framed
    /// #59B6EC, its title drawn as a partition's).
    pub(super) group_font: Font,
    pub(super) group_font_color: Color,
    pub(super) group_frame_color: Color,
    /// A partition's fill, title face and colour (`skinparam partition…`,
    /// `<style> partition { … }`); `partition P #colour` fills its own.
    pub(super) partition_bg: Option<Color>,
    pub(super) partition_font: Font,
    pub(super) partition_font_color: Color,
    pub(super) diamond_font_color: Color,
    pub(super) lane_border: Color,
    pub(super) lane_line: f64,
    /// A band behind the lanes' titles (the bootstrap-like themes').
    pub(super) lane_header_bg: Option<(Color, Option<Gradient>)>,
    pub(super) lane_header_border: Option<Color>,
    pub(super) lane_font: Font,
    pub(super) lane_font_color: Color,
    pub(super) font_color: Color,
    /// The room around a framed title (a theme's title box): outside the
    /// frame, and between the frame and the text.
    pub(super) title_margin: Sides,
    pub(super) title_padding: Sides,
    /// Whether a theme or style set the title's room for activity
    /// diagrams (else an unframed title keeps PlantUML's default room).
    pub(super) title_spacing_set: bool,
    /// Around the page (PlantUML's 10; 5 under some themes: `amiga`).
    pub(super) page_margin: f64,
    /// Set while a theme's own sheet applies: only a theme sets the title's
    /// room and the page's margin through `activityDiagram { … }`
    /// (PlantUML ignores a diagram's `activityDiagram { title | document }`).
    pub(super) theming: bool,
    /// Whether shapes cast PlantUML's shadow (a theme's `Shadowing`, `skin
    /// rose`); the page then keeps 6 px more right of and below the drawing.
    pub(super) shadows: bool,
    /// `MaximumWidth` of actions, notes and swimlane titles: their text
    /// wraps there and, as in sequence diagrams, is drawn word by word
    /// (`sunlust`).
    pub(super) action_max_width: Option<f64>,
    pub(super) note_max_width: Option<f64>,
    pub(super) lane_max_width: Option<f64>,
    /// The room around the header and the footer, on every side (a
    /// theme's: 16 px under the bootstrap-like themes, 5 under `amiga`).
    pub(super) header_margin: f64,
    pub(super) footer_margin: f64,
    /// The room around a legend's frame and inside it, and around the
    /// caption (PlantUML's 12, 5 and 1; a theme's: cerulean's 10, 6, 16).
    pub(super) legend_margin: f64,
    pub(super) legend_padding: f64,
    pub(super) caption_margin: f64,
    /// A theme's caption colour (the bootstrap-like themes': their
    /// footer's).
    pub(super) caption_color: Option<Color>,
}

impl Style {
    pub(super) fn new(theme: &Theme, diagram: &Diagram, theme_name: Option<&str>) -> Style {
        let named_theme = theme_name.is_some();
        let line = theme.arrow_color;
        // `skinparam defaultFontSize` sizes every activity text but the
        // title and the legend: actions, conditions, partitions, groups,
        // lane titles, arrow labels and notes (PlantUML 1.2026.8, probes
        // deco_default_font_*); `activityFontSize` still wins for actions
        // and conditions.
        let mut s = Style {
            action_bg: if named_theme {
                theme.participant_bg
            } else {
                Color::hex(0xF1F1F1)
            },
            action_border: theme.participant_border,
            action_line: 0.5,
            action_radius: ACTION_RADIUS,
            action_pad: ACTION_PAD,
            action_font: theme.element_font(12.0),
            action_font_color: theme.participant_font_color,
            diamond_bg: if named_theme {
                theme.participant_bg
            } else {
                Color::hex(0xF1F1F1)
            },
            diamond_border: theme.participant_border,
            diamond_line: 0.5,
            diamond_font: theme.element_font(11.0),
            arrow_color: line,
            arrow_width: theme.arrow_thickness,
            arrow_font: theme.font_of(
                TextElement::Message,
                if theme.arrow_font_size == 13.0 {
                    11.0
                } else {
                    theme.arrow_font_size
                },
            ),
            arrow_font_color: theme.arrow_font_color,
            start_color: if named_theme { line } else { Color::hex(0x222222) },
            start_gradient: None,
            start_border: if named_theme { line } else { Color::hex(0x222222) },
            end_color: if named_theme { line } else { Color::hex(0x222222) },
            end_dot: if named_theme { line } else { Color::hex(0x222222) },
            end_cross: if named_theme { line } else { Color::hex(0x222222) },
            connector_bg: Color::hex(0xF1F1F1),
            connector_border: theme.participant_border,
            bar_color: if named_theme { line } else { Color::hex(0x555555) },
            bar_border: if named_theme { line } else { Color::hex(0x555555) },
            note_bg: theme.note_bg,
            action_gradient: None,
            diamond_gradient: None,
            note_gradient: theme.note_gradient,
            note_border: theme.note_border,
            note_line: 0.5,
            note_font: theme.font_of(TextElement::Note, theme.note_font_size),
            note_font_color: theme.note_font_color,
            frame_color: theme.group_border,
            frame_line: 1.5,
            frame_radius: 0.0,
            frame_font: theme.element_font(14.0),
            group_font: theme.element_font(14.0),
            group_font_color: theme.font_color,
            group_frame_color: theme.group_border,
            partition_bg: None,
            partition_font: theme.element_font(14.0),
            partition_font_color: theme.font_color,
            diamond_font_color: theme.participant_font_color,
            lane_border: theme.group_border,
            lane_line: 1.5,
            lane_header_bg: None,
            lane_header_border: None,
            lane_font: theme.element_font(18.0),
            lane_font_color: theme.font_color,
            font_color: theme.font_color,
            title_margin: theme.title_spacing.margin,
            title_padding: theme.title_spacing.padding,
            title_spacing_set: false,
            page_margin: 10.0,
            theming: false,
            shadows: theme.draws_shadows(),
            action_max_width: None,
            note_max_width: None,
            lane_max_width: None,
            header_margin: 0.0,
            footer_margin: 0.0,
            legend_margin: 12.0,
            legend_padding: 5.0,
            caption_margin: 1.0,
            caption_color: None,
        };
        // A PlantUML theme's own activity look (its sheet's
        // `activityDiagram { … }` rules, observed per theme): the diamond's
        // text takes the theme's face, but the diagram's `activityFont…`
        // still reach it (PlantUML 1.2026.8, `!theme cerulean` with
        // `skinparam ActivityFontSize 14` draws the conditions at 14).
        // `skin rose` (PlantUML's former look) comes after the theme.
        let rose = Some(ROSE_SHEET).filter(|_| diagram.settings.skin.as_deref() == Some("rose"));
        s.shadows |= rose.is_some();
        for sheet in theme_name
            .and_then(crate::theme::plantuml_theme_sheet)
            .into_iter()
            .chain(rose)
        {
            let mut themed = OwnFonts::default();
            s.theming = true;
            s.apply_sheet(sheet, &mut themed);
            s.theming = false;
            s.diamond_font.family = themed.diamond_family.unwrap_or(s.diamond_font.family);
            s.diamond_font.size = themed.diamond_size.unwrap_or(s.diamond_font.size);
            s.diamond_font_color = themed.diamond_color.unwrap_or(s.diamond_font_color);
            (s.group_font, s.group_font_color) = (s.partition_font, s.partition_font_color);
        }
        (s.connector_bg, s.connector_border) = (s.action_bg, s.action_border);
        // The activity skin parameters PlantUML documents (`activity…`,
        // `swimlane…`, `partition…`) and the `<style>` rules on the same
        // elements, in source order (the later wins); the others went
        // through the theme.
        let mut own = OwnFonts::default();
        let settings = &diagram.settings;
        let mut next_style = settings.styles.iter().peekable();
        for (i, (key, value)) in settings.skinparams.iter().enumerate() {
            while let Some(style) = next_style.next_if(|st| st.after_skinparams <= i) {
                s.apply_sheet(&style.text, &mut own);
            }
            if let Some((element, property)) = skinparam_target(&key.to_ascii_lowercase()) {
                s.apply(element, &property, value, &mut own);
            }
        }
        for style in next_style {
            s.apply_sheet(&style.text, &mut own);
        }
        // The diamond's text takes the action's face, size and colour
        // unless its own are set (PlantUML 1.2026.8: `activityFontSize 15`
        // draws the condition at 15 px too).
        if let Some(family) = own.diamond_family.or(own.action_family) {
            s.diamond_font.family = family;
        }
        if let Some(size) = own.diamond_size.or(own.action_size) {
            s.diamond_font.size = size;
        }
        if let Some(color) = own.diamond_color.or(own.action_color) {
            s.diamond_font_color = color;
        }
        if own.action_bg && !own.diamond_bg {
            (s.diamond_bg, s.diamond_gradient) = (s.action_bg, s.action_gradient);
        }
        if own.action_border && !own.diamond_border {
            s.diamond_border = s.action_border;
        }
        if own.action_line && !own.diamond_line {
            s.diamond_line = s.action_line;
        }
        s
    }

    /// The `<style>` rules of one sheet for activity diagrams.
    fn apply_sheet(&mut self, sheet: &str, own: &mut OwnFonts) {
        let (rules, _) = puml_sema::style::parse_sheet(sheet);
        for rule in rules {
            let for_activity = rule
                .scope
                .is_none_or(|scope| scope == puml_sema::style::StyleScope::Activity);
            if for_activity && rule.stereotype.is_none() {
                self.apply(&rule.element, &rule.property, &rule.value, own);
            }
        }
    }

    /// One property of an activity element, from a skinparam or a style
    /// rule (both lower-case): `element` is `activity`, `diamond`,
    /// `arrow`, `swimlane`, `partition`, `note`, `activitybar`, `start` or
    /// `stop`.
    fn apply(&mut self, element: &str, property: &str, value: &str, own: &mut OwnFonts) {
        // A fill of `none` is no fill, as `transparent` (PlantUML 1.2026.8
        // draws `fill="none"` for `skinparam activityBackgroundColor none`,
        // under `monochrome true` too; probes deco_fill_none_*).
        let unfilled =
            property == "backgroundcolor" && value.trim().trim_start_matches('#').eq_ignore_ascii_case("none");
        let color = if unfilled {
            parse_color("transparent")
        } else {
            parse_color(value)
        };
        let size = value
            .trim()
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|v| (1.0..=200.0).contains(v));
        // Widths, paddings and corners may be 0.
        let length = value
            .trim()
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|v| (0.0..=200.0).contains(v));
        let styled = |font: &mut Font| {
            let style = value.to_ascii_lowercase();
            font.bold = style.contains("bold");
            font.italic = style.contains("italic");
        };
        macro_rules! set {
            ($field:expr, $v:expr) => {
                if let Some(v) = $v {
                    $field = v;
                }
            };
        }
        let family = || Some(crate::theme::family_of(value));
        match (element, property) {
            ("activity", "backgroundcolor") => {
                if let Some(c) = color {
                    self.action_bg = c;
                    self.action_gradient = parse_gradient(value);
                    own.action_bg = true;
                }
            }
            ("activity", "bordercolor" | "linecolor") => {
                set!(self.action_border, color);
                own.action_border |= color.is_some();
            }
            ("activity", "linethickness") => {
                set!(self.action_line, length);
                own.action_line |= length.is_some();
            }
            ("activity", "roundcorner") => set!(self.action_radius, length.map(|d| d / 2.0)),
            ("activity", "padding") => set!(self.action_pad, length),
            ("activity", "maximumwidth") => self.action_max_width = size.or(self.action_max_width),
            ("note", "maximumwidth") => self.note_max_width = size.or(self.note_max_width),
            ("swimlane", "maximumwidth") => self.lane_max_width = size.or(self.lane_max_width),
            ("activity", "fontstyle") => styled(&mut self.action_font),
            ("activity", "fontcolor") => {
                set!(self.action_font_color, color);
                own.action_color = color.or(own.action_color);
            }
            ("activity", "fontsize") => {
                set!(self.action_font.size, size);
                own.action_size = size.or(own.action_size);
            }
            ("activity", "fontname") => {
                set!(self.action_font.family, family());
                own.action_family = family();
            }
            ("diamond", "backgroundcolor") => {
                if let Some(c) = color {
                    self.diamond_bg = c;
                    self.diamond_gradient = parse_gradient(value);
                    own.diamond_bg = true;
                }
            }
            ("diamond", "bordercolor" | "linecolor") => {
                set!(self.diamond_border, color);
                own.diamond_border |= color.is_some();
            }
            ("diamond", "linethickness") => {
                set!(self.diamond_line, length);
                own.diamond_line |= length.is_some();
            }
            ("diamond", "fontsize") => own.diamond_size = size.or(own.diamond_size),
            ("diamond", "fontname") => own.diamond_family = family(),
            ("diamond", "fontcolor") => own.diamond_color = color.or(own.diamond_color),
            // `activityStartColor` fills the start circle, its outline
            // stays; `activityEndColor` draws the `end` circle only (PlantUML
            // 1.2026.8, corpus activity 023); a theme's sheet sets them all.
            ("activity", "startcolor") => {
                if let Some(c) = color {
                    self.start_color = c;
                    if self.theming {
                        self.start_border = c;
                    }
                    self.start_gradient = parse_gradient(value);
                }
            }
            ("activity", "endcolor") => {
                set!(self.end_cross, color);
                if self.theming {
                    set!(self.end_color, color);
                    set!(self.end_dot, color);
                }
            }
            ("activity", "barcolor") => {
                set!(self.bar_color, color);
                set!(self.bar_border, color);
            }
            ("arrow", "color" | "linecolor") => set!(self.arrow_color, color),
            ("arrow", "linethickness") => set!(self.arrow_width, length),
            ("arrow", "fontcolor") => set!(self.arrow_font_color, color),
            ("arrow", "fontsize") => set!(self.arrow_font.size, size),
            ("arrow", "fontname") => set!(self.arrow_font.family, family()),
            ("arrow", "fontstyle") => styled(&mut self.arrow_font),
            ("note", "backgroundcolor") => {
                if let Some(c) = color {
                    self.note_bg = c;
                    self.note_gradient = parse_gradient(value);
                }
            }
            ("note", "bordercolor" | "linecolor") => set!(self.note_border, color),
            ("note", "linethickness") => set!(self.note_line, length),
            ("note", "fontcolor") => set!(self.note_font_color, color),
            ("note", "fontsize") => set!(self.note_font.size, size),
            ("note", "fontname") => set!(self.note_font.family, family()),
            ("note", "fontstyle") => styled(&mut self.note_font),
            // (PlantUML outlines the bar in its fill: `LineColor` is ignored)
            ("activitybar", "backgroundcolor") => {
                set!(self.bar_color, color);
                set!(self.bar_border, color);
            }
            // `circle` is both start and stop.
            ("circle", "backgroundcolor" | "linecolor") => {
                self.apply("start", property, value, own);
                self.apply("stop", property, value, own);
            }
            // The diagram's own line colour and text face and colour reach
            // every element but the fork bar and the title (observed).
            ("root", "linecolor") => {
                for element in [
                    "activity",
                    "diamond",
                    "arrow",
                    "partition",
                    "note",
                    "circle",
                    "swimlane",
                ] {
                    self.apply(element, property, value, own);
                }
            }
            ("root", "fontcolor" | "fontname") => {
                for element in ["activity", "diamond", "arrow", "partition", "note", "swimlane"] {
                    self.apply(element, property, value, own);
                }
            }
            ("start", "backgroundcolor") => {
                if let Some(c) = color {
                    self.start_color = c;
                    self.start_gradient = parse_gradient(value);
                }
            }
            ("start", "linecolor") => set!(self.start_border, color),
            ("stop", "backgroundcolor") => set!(self.end_dot, color),
            ("stop", "linecolor") => set!(self.end_color, color),
            ("swimlane", "bordercolor" | "linecolor") => set!(self.lane_border, color),
            ("swimlane", "linethickness") => set!(self.lane_line, length),
            ("swimlane", "titlefontcolor" | "fontcolor") => set!(self.lane_font_color, color),
            ("swimlane", "titlefontsize" | "fontsize") => set!(self.lane_font.size, size),
            ("swimlane", "titlefontname" | "fontname") => set!(self.lane_font.family, family()),
            ("swimlane", "fontstyle") => styled(&mut self.lane_font),
            // A swimlane's fill is the band behind the titles, outlined in
            // it (PlantUML strokes a gradient band with the gradient).
            ("swimlane", "backgroundcolor") => {
                let gradient = parse_gradient(value);
                self.lane_header_bg = color.map(|c| (c, gradient));
                self.lane_header_border = color.filter(|_| gradient.is_none());
            }
            ("partition", "bordercolor" | "linecolor") => set!(self.frame_color, color),
            ("partition", "linethickness") => set!(self.frame_line, length),
            ("partition", "roundcorner") => set!(self.frame_radius, length.map(|d| d / 2.0)),
            ("partition", "backgroundcolor") => self.partition_bg = color.or(self.partition_bg),
            ("partition", "fontcolor") => set!(self.partition_font_color, color),
            ("partition", "fontsize") => set!(self.partition_font.size, size),
            ("partition", "fontname") => set!(self.partition_font.family, family()),
            ("partition", "fontstyle") => styled(&mut self.partition_font),
            ("document", "margin") if self.theming => set!(self.page_margin, length),
            ("header", "margin") if self.theming => set!(self.header_margin, length),
            ("footer", "margin") if self.theming => set!(self.footer_margin, length),
            ("legend", "margin") if self.theming => set!(self.legend_margin, length),
            ("legend", "padding") if self.theming => set!(self.legend_padding, length),
            ("caption", "margin") if self.theming => set!(self.caption_margin, length),
            ("caption", "fontcolor") if self.theming => self.caption_color = color.or(self.caption_color),
            ("title", "margin" | "padding") if self.theming => {
                if let Some(sides) = crate::theme::css_sides(value, 0.0..=200.0) {
                    if property == "margin" {
                        self.title_margin = sides;
                    } else {
                        self.title_padding = sides;
                    }
                    self.title_spacing_set = true;
                }
            }
            _ => {}
        }
    }

    pub(super) fn edge_stroke(&self, arrow: Option<&ArrowStyle>) -> Option<Stroke> {
        let mut st = Stroke {
            color: self.arrow_color,
            width: self.arrow_width,
            dash: None,
        };
        if let Some(a) = arrow {
            if a.hidden {
                return None;
            }
            if let Some(c) = a.color.as_deref().and_then(parse_color) {
                st.color = c;
            }
            if a.bold {
                st.width = 2.0;
            }
            if a.dashed {
                st.dash = Some((7.0, 7.0));
            } else if a.dotted {
                st.dash = Some((1.0, 3.0));
            }
        }
        Some(st)
    }
}
