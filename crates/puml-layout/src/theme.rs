//! Themes, skin parameters and `<style>` sheets: the look of a diagram as
//! plain values. Built as PlantUML builds it (observed with PlantUML
//! 1.2026.8): the named theme first (PlantUML's themes are puml style sheets
//! in `themes/`, written from PlantUML's observed output), then the diagram's
//! `skinparam`s and `<style>` rules in source order (the later wins);
//! stereotype rules (`.name`) beat element rules wherever they stand, and an
//! inline colour (`participant A #pink`) beats everything (applied where
//! the element is drawn).

use crate::color::{parse_color, parse_gradient};
use crate::scene::{Color, Font, FontFamily, Gradient};
use puml_sema::model::{HorizontalAlign, ParticipantKind, Settings};
use puml_sema::style::{parse_sheet, StyleRule, StyleScope};
use std::sync::OnceLock;

/// puml's own looks, chosen with `--theme` (not PlantUML themes).
const PUML_LOOKS: [&str; 5] = ["default", "minimal", "docs", "dark", "sand"];

/// Names accepted by `!theme` and `--theme`: puml's own looks, then every
/// theme PlantUML ships.
pub const THEME_NAMES: [&str; 49] = {
    let mut names = [""; 49];
    let mut i = 0;
    while i < PUML_LOOKS.len() {
        names[i] = PUML_LOOKS[i];
        i += 1;
    }
    let mut j = 0;
    while j < puml_sema::themes::PLANTUML_THEMES.len() {
        names[i + j] = puml_sema::themes::PLANTUML_THEMES[j];
        j += 1;
    }
    names
};

/// PlantUML's themes as puml style sheets (values observed from PlantUML's
/// output for `test-data/themes/probe.body`, by `scripts/theme_probe.py`):
/// the theme a PlantUML theme sheet gives, read once per process: a sheet
/// is a few hundred style lines, and re-reading it for every diagram that
/// names the theme cost 3 % of the corpus render (`perf`).
fn plantuml_theme(name: &str) -> Option<Theme> {
    static READ: [OnceLock<Theme>; crate::theme_sheets::SHEETS.len()] =
        [const { OnceLock::new() }; crate::theme_sheets::SHEETS.len()];
    let index = crate::theme_sheets::SHEETS.iter().position(|(n, _)| *n == name)?;
    let (_, sheet) = crate::theme_sheets::SHEETS[index];
    let theme = READ[index].get_or_init(|| {
        let mut theme = Theme::default();
        theme.apply_theme_sheet(sheet);
        theme
    });
    Some(theme.clone())
}

/// The puml style sheet of one of PlantUML's themes (`!theme cerulean`),
/// for the rules a diagram kind reads itself (the activity diagram's
/// `activityDiagram { … }` block).
pub(crate) fn plantuml_theme_sheet(name: &str) -> Option<&'static str> {
    let name = name.trim().to_ascii_lowercase();
    crate::theme_sheets::SHEETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, sheet)| *sheet)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageAlign {
    Left,
    Center,
    Right,
    /// `direction`: at the arrow's tail (left for a message going right,
    /// right for one going left).
    Direction,
    /// `reverseDirection`: at the arrow's head.
    ReverseDirection,
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
    /// Where the participant fill fades to (`#A-B` and the like), for every
    /// kind without its own fill, then per kind beside `kind_bg`.
    pub participant_gradient: Option<Gradient>,
    /// Where a note's fill fades to (`note { BackGroundColor #A-B }`).
    pub note_gradient: Option<Gradient>,
    pub kind_gradient: [Option<Gradient>; 8],
    /// Where the other fills written as gradients fade to.
    pub fades: Fades,
    pub kind_border: [Option<Color>; 8],
    pub lifeline_color: Color,
    pub activation_bg: Color,
    /// Whether the lifeline's border / background came from a
    /// `sequenceLifeLine…` key (`skinparam sequence { LifeLine… }`): PlantUML
    /// then ignores the bare `LifeLine…` key, before or after it (probes
    /// `lifeline_*_sequence_*`).
    pub lifeline_keys_by_sequence: LifelineKeys,
    /// The activation bar's outline: PlantUML's `activationBox` LineColor,
    /// which follows the diagram's line colour, not the lifeline's.
    pub activation_border: Color,
    pub arrow_color: Color,
    pub arrow_font_color: Color,
    pub arrow_font_size: f64,
    pub arrow_thickness: f64,
    pub note_bg: Color,
    pub note_border: Color,
    pub note_font_color: Color,
    pub note_font_size: f64,
    pub group_border: Color,
    /// The mainframe's outline: the diagram's line colour (`root {
    /// LineColor }`), not the groups' (PlantUML, probes `mainframe_*`).
    pub mainframe_border: Color,
    pub group_bg: Option<Color>,
    pub group_header_bg: Color,
    pub group_font_color: Color,
    /// The label in a group's header tab (`alt`, `loop`, …).
    pub group_header_font_color: Color,
    pub divider_bg: Color,
    pub divider_font_color: Color,
    pub delay_font_color: Color,
    pub ref_bg: Option<Color>,
    pub ref_border: Color,
    /// The outline of a group's header tab when it is not the frame's:
    /// `groupHeader { LineColor }`, or the colour the tab kept when a style
    /// recoloured the frame alone (PlantUML 1.2026.8, probes
    /// `tab_outline_styles`: `group { LineColor }` leaves the tab black,
    /// `sequenceGroupBorderColor` recolours both).
    pub group_tab_border: Option<Color>,
    /// Its width (`groupHeader { LineThickness }`; 0 draws no outline, as
    /// most of PlantUML's themes do).
    pub group_tab_width: f64,
    /// The same for a `ref`'s header tab (`referenceHeader`).
    pub ref_tab_border: Option<Color>,
    pub ref_tab_width: f64,
    pub ref_header_bg: Color,
    pub ref_header_font_color: Color,
    pub ref_font_color: Color,
    pub legend_font_color: Color,
    pub footer_color: Color,
    /// A frame around the title (PlantUML's themes draw one).
    pub title_bg: Option<Color>,
    pub title_border: Option<Color>,
    /// Per-kind font colours (`actor { FontColor … }`), indexed like `ParticipantKind::ALL`.
    pub kind_font_color: [Option<Color>; 8],
    /// Per-kind name sizes and faces (`skinparam actorFontSize`,
    /// `participantFontName`, …): each kind's own, as in PlantUML.
    pub kind_font_size: [Option<f64>; 8],
    pub kind_font_family: [Option<FontFamily>; 8],
    /// Per-kind outline widths (`actor { LineThickness 2 }`; the actor's
    /// also from `root`'s or `element`'s and `skinparam
    /// actorBorderThickness`); `None` is PlantUML's 0.5. An actor's figure
    /// grows with its outline: its head is `2 × thickness` taller and wider
    /// than the strokes alone (observed for 0 to 30).
    pub kind_line_thickness: [Option<f64>; 8],
    /// `skinparam actorStyle awesome`: actors drawn as a head over a bust.
    pub awesome_actor: bool,
    /// `<style>` rules for stereotypes (`.name { … }`), applied to elements
    /// carrying that stereotype, over every element rule.
    pub stereotype_rules: Vec<StyleRule>,
    pub divider_border: Color,
    pub box_bg: Color,
    pub box_border: Color,
    pub box_font_color: Color,
    pub legend_bg: Color,
    pub legend_border: Color,
    pub title_font_size: f64,
    pub title_color: Color,
    pub header_color: Color,
    /// `header { BackGroundColor; LineColor; LineThickness }`: a frame
    /// around the header's text, none by default.
    pub header_frame: CaptionFrame,
    /// The same for the footer.
    pub footer_frame: CaptionFrame,
    /// The legend is filled with the page's paint: PlantUML does so once
    /// the page has a colour of its own, until the legend gets one (`fill
    /// none` over a solid page, the page's gradient over a faded one;
    /// observed with `skinparam backgroundColor` after `!theme cerulean`).
    pub legend_on_page: bool,
    pub destroy_color: Color,
    pub round_corner: f64,
    /// Corner radius of group frames, notes' boxes and the legend: 0 unless `skinparam roundCorner` is set.
    pub frame_round_corner: f64,
    pub shadowing: bool,
    pub message_align: MessageAlign,
    /// `skinparam defaultTextAlignment center`: message labels (but not a
    /// self message's) are centered unless `sequenceMessageAlign` says
    /// otherwise.
    pub default_text_center: bool,
    /// `skinparam defaultTextAlignment right`: messages', notes', refs' and
    /// participant heads' texts right-aligned and the footer at the right
    /// (PlantUML 1.2026.8, probe `s_defaulttextalignment_right`).
    pub default_text_right: bool,
    /// `skinparam minClassWidth`: the narrowest name room of a participant box.
    pub min_class_width: f64,
    pub max_message_size: Option<f64>,
    /// `note { MaximumWidth }`: notes wrap at this width and, like a
    /// wrapped message, are drawn word by word (PlantUML 1.2026.8).
    pub note_max_width: Option<f64>,
    /// `skinparam wrapWidth N`: what PlantUML 1.2026.8 draws as
    /// `maxMessageSize N` plus `note { MaximumWidth N }` at that line,
    /// except that it wins over `maxMessageSize` wherever that is written
    /// (probes `p_wrapwidth`, `s_wrapwidth_*`).
    pub wrap_width: Option<f64>,
    pub box_padding: f64,
    /// `skinparam padding N`: room PlantUML keeps around every text block
    /// it draws (`creole::TextBlock::padded`); 0 by default.
    pub text_padding: f64,
    /// Room between a participant box and its name, (vertical,
    /// horizontal) (`participant { Padding }`: one value or CSS's two).
    pub participant_padding: (f64, f64),
    /// `skinparam defaultFontSize`: the size of boxes' titles, group headers,
    /// dividers, refs and delays, which otherwise have fixed sizes.
    pub default_font_size: Option<f64>,
    /// Room kept around a participant box (`participant { Margin }`, one,
    /// two or four values as in CSS; PlantUML's plain theme has 5 and 10).
    pub participant_margin: Sides,
    /// `collections { Padding; Margin }`: a collections head's boxes take
    /// them like a participant's (PlantUML; `participant { … }` does not
    /// reach them, and the other kinds ignore both).
    pub collections_padding: (f64, f64),
    /// `FontSize` of the elements whose size is otherwise fixed by PlantUML
    /// (box titles 13, group tabs 13 and conditions 11, dividers 13, ref
    /// tabs 13 and texts 12, delays 11), as PlantUML's themes set them.
    pub box_font_size: Option<f64>,
    pub group_header_font_size: Option<f64>,
    pub group_font_size: Option<f64>,
    pub separator_font_size: Option<f64>,
    pub reference_header_font_size: Option<f64>,
    pub reference_font_size: Option<f64>,
    pub delay_font_size: Option<f64>,
    pub collections_margin: Sides,
    /// Room between the drawing and the page's edges: 5 px plus
    /// `document { Margin }` (PlantUML's default document margin is 5).
    pub page_margin: Sides,
    /// `header { Margin; Padding }` (PlantUML's defaults: none; the
    /// plain-like themes have a margin of 5). Without a frame both act
    /// alike: the header moves in by its top and right (or left) sides,
    /// and what is below it down by its top and bottom.
    pub header_spacing: Spacing,
    /// `footer { Margin; Padding }`, as for the header (defaults: none).
    pub footer_spacing: Spacing,
    /// `header { HorizontalAlignment }` and `footer { … }`: where they stand
    /// when the diagram does not say (`left header …`); PlantUML's defaults
    /// are right and centre.
    pub header_align: Option<HorizontalAlign>,
    pub footer_align: Option<HorizontalAlign>,
    /// `title { Margin; Padding }` (defaults 5 and 5): each takes its top
    /// side above the title and its bottom side below it.
    pub title_spacing: Spacing,
    /// `legend { Margin; Padding }` (defaults 12 and 5): the margin above
    /// and below the legend's frame, the padding between it and the text.
    pub legend_spacing: Spacing,

    /// `skinparam defaultFontName`: a monospaced name gives the mono face,
    /// a serif one the serif face (see [`family_of`]).
    pub font_family: FontFamily,
    /// Each element's own face (`title { FontName … }`, `skinparam
    /// titleFontName …`), indexed by [`TextElement`]; `None` takes
    /// [`Theme::font_family`].
    pub element_font_family: [Option<FontFamily>; TextElement::COUNT],
    /// Whether `defaultFontName` / each element's / each kind's name asks
    /// for the bold face (`Serif.bold`: see [`bold_of`]).
    pub font_bold: bool,
    pub element_font_bold: [Option<bool>; TextElement::COUNT],
    pub kind_font_bold: [Option<bool>; 8],
    /// `skinparam responseMessageBelowArrow`: read, but PlantUML 1.2026.8
    /// draws responses above their arrow all the same, and so does puml.
    pub response_below_arrow: bool,
    pub strict_uml: bool,
    pub solid_lifeline: bool,
    /// A note's lines centred on its widest (`note { HorizontalAlignment
    /// center }`, `skinparam noteTextAlignment center`).
    pub note_text_centered: bool,
    /// Extra room left of a note's text: `skinparam noteTextAlignment
    /// center` (black-knight's sheet has it) widens a note by 9 px, all
    /// of it before the text (observed; the style property does not).
    pub note_text_inset: f64,
    /// `FontStyle` per element (`skinparam arrowFontStyle bold`, `arrow {
    /// FontStyle bold }`), indexed by [`TextElement`]: added to the face's
    /// own weight. Bold text is wider, so it moves what follows.
    pub element_font_style: [Option<FontStyle>; TextElement::COUNT],
    /// `FontStyle` per participant kind (`actorFontStyle bold`): the name
    /// and, as PlantUML 1.2026.8 draws it, the kind's stereotype line.
    pub kind_font_style: [Option<FontStyle>; 8],
    /// A kind's stereotype line (`actorStereotypeFontSize`, `…Color`,
    /// `…Style`; `sequenceStereotypeFont…` for every kind).
    pub stereotype_font: [StereotypeFont; 8],
    /// `skinparam headerFontSize`, `footerFontSize`, `legendFontSize`
    /// (PlantUML's 10, 10 and 14 otherwise).
    pub header_font_size: Option<f64>,
    pub footer_font_size: Option<f64>,
    pub legend_font_size: Option<f64>,
    /// The frame around the whole drawing (`skinparam DiagramBorderColor`,
    /// `DiagramBorderThickness`, `document { LineColor; LineThickness }`):
    /// drawn when either is set, black and 1 px by default.
    pub diagram_border_color: Option<Color>,
    pub diagram_border_thickness: Option<f64>,
    /// `skinparam guillemet false` writes stereotypes `<<S>>`, not `«S»`.
    pub guillemet: bool,
}

/// A `FontStyle` value: `bold`, `italic`, `bold italic`, `plain`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FontStyle {
    pub bold: bool,
    pub italic: bool,
}

impl FontStyle {
    /// PlantUML reads the words it knows and ignores the rest
    /// (`underline`, `strike` do not change a sequence diagram's measure).
    pub fn parse(value: &str) -> FontStyle {
        let value = value.to_ascii_lowercase();
        FontStyle {
            bold: value.contains("bold"),
            italic: value.contains("italic"),
        }
    }
}

/// What a participant kind's stereotype line takes from skinparams.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StereotypeFont {
    pub size: Option<f64>,
    /// `…StereotypeFontName`: only a monospaced face changes the measure a
    /// stereotype line can take apart from its name's (creole's `mono`).
    pub family: Option<FontFamily>,
    pub color: Option<Color>,
    pub style: Option<FontStyle>,
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
            participant_gradient: None,
            note_gradient: None,
            kind_gradient: [None; 8],
            fades: Fades::default(),
            kind_border: [None; 8],
            lifeline_color: line,
            activation_bg: Color::WHITE,
            lifeline_keys_by_sequence: LifelineKeys::default(),
            activation_border: line,
            arrow_color: line,
            arrow_font_color: Color::BLACK,
            arrow_font_size: 13.0,
            arrow_thickness: 1.0,
            note_bg: Color::hex(0xFEFFDD),
            note_border: line,
            note_font_color: Color::BLACK,
            note_font_size: 13.0,
            group_border: Color::BLACK,
            mainframe_border: line,
            group_bg: None,
            group_header_bg: Color::hex(0xEEEEEE),
            group_font_color: Color::BLACK,
            group_header_font_color: Color::BLACK,
            divider_bg: Color::hex(0xEEEEEE),
            divider_font_color: Color::BLACK,
            delay_font_color: Color::BLACK,
            ref_bg: None,
            ref_border: Color::BLACK,
            group_tab_border: None,
            group_tab_width: 1.5,
            ref_tab_border: None,
            ref_tab_width: 2.0,
            ref_header_bg: Color::hex(0xEEEEEE),
            ref_header_font_color: Color::BLACK,
            ref_font_color: Color::BLACK,
            legend_font_color: Color::BLACK,
            footer_color: Color::hex(0x888888),
            title_bg: None,
            title_border: None,
            kind_font_color: [None; 8],
            kind_font_size: [None; 8],
            kind_font_family: [None; 8],
            kind_line_thickness: [None; 8],
            awesome_actor: false,
            stereotype_rules: Vec::new(),
            divider_border: Color::BLACK,
            box_bg: Color::hex(0xDDDDDD),
            box_border: line,
            box_font_color: Color::BLACK,
            legend_bg: Color::hex(0xDDDDDD),
            legend_border: Color::BLACK,
            title_font_size: 14.0,
            title_color: Color::BLACK,
            header_color: Color::hex(0x888888),
            header_frame: CaptionFrame::default(),
            footer_frame: CaptionFrame::default(),
            legend_on_page: false,
            destroy_color: Color::hex(0xA80036),
            round_corner: 2.5,
            frame_round_corner: 0.0,
            shadowing: false,
            message_align: MessageAlign::Left,
            default_text_center: false,
            default_text_right: false,
            min_class_width: 0.0,
            max_message_size: None,
            note_max_width: None,
            wrap_width: None,
            box_padding: 0.0,
            text_padding: 0.0,
            participant_padding: (7.0, 7.0),
            default_font_size: None,
            participant_margin: Sides::all(0.0),
            collections_padding: (7.0, 7.0),
            box_font_size: None,
            group_header_font_size: None,
            group_font_size: None,
            separator_font_size: None,
            reference_header_font_size: None,
            reference_font_size: None,
            delay_font_size: None,
            collections_margin: Sides::all(0.0),
            page_margin: Sides::all(10.0),
            header_spacing: Spacing::none(),
            footer_spacing: Spacing::none(),
            header_align: None,
            footer_align: None,
            title_spacing: Spacing::DEFAULT_TITLE,
            legend_spacing: Spacing::DEFAULT_LEGEND,

            font_family: FontFamily::Sans,
            element_font_family: [None; TextElement::COUNT],
            font_bold: false,
            element_font_bold: [None; TextElement::COUNT],
            kind_font_bold: [None; 8],
            response_below_arrow: false,
            strict_uml: false,
            solid_lifeline: false,
            note_text_centered: false,
            note_text_inset: 0.0,
            element_font_style: [None; TextElement::COUNT],
            kind_font_style: [None; 8],
            stereotype_font: [StereotypeFont::default(); 8],
            header_font_size: None,
            footer_font_size: None,
            legend_font_size: None,
            diagram_border_color: None,
            diagram_border_thickness: None,
            guillemet: true,
        }
    }
}

/// Whether Java draws `name` in the bold face: its logical fonts with the
/// `.bold` or `.bolditalic` style (`Serif.bold`, `SansSerif.bolditalic`,
/// `Dialog.bold`) are measured bold, while a style word after a space
/// (`Serif Bold`) and an alias (`Courier.bold`) are not; of the DejaVu
/// faces, the bold slanted ones (`DejaVu Sans Bold Oblique`, `DejaVu Serif
/// Condensed Bold Italic`) are bold, `DejaVu Sans Bold` is not (PlantUML
/// 1.2026.8, probes `fonts/font_style_*`). Italic does not change DejaVu's
/// advances.
pub fn bold_of(name: &str) -> bool {
    let first = name.split(',').next().unwrap_or_default();
    let name = first.trim().trim_matches(['"', '\'']).trim().to_ascii_lowercase();
    let logical_bold = name.split_once('.').is_some_and(|(base, style)| {
        ["serif", "sansserif", "dialog", "monospaced", "dialoginput"].contains(&base)
            && ["bold", "bolditalic"].contains(&style)
    });
    let face_bold = |families: &[&str], style: &str| {
        name.strip_suffix(style)
            .is_some_and(|family| families.contains(&family))
    };
    logical_bold
        || face_bold(
            &["dejavu sans", "dejavu sans condensed", "dejavu sans mono"],
            " bold oblique",
        )
        || face_bold(&["dejavu serif", "dejavu serif condensed"], " bold italic")
}

/// The face a font name is measured in, as PlantUML 1.2026.8's Java
/// resolves it on a machine whose fonts are the DejaVu families (observed
/// name by name with the oracle; see docs/rendering.md, "Fonts"). Only
/// the first name of a list counts (`Serif, Courier` is serif), quotes
/// aside, in any case. Java knows its logical fonts (`Serif`,
/// `Monospaced`, `DialogInput`, their aliases `TimesRoman` and `Courier`),
/// optionally followed by one word `Bold`, `Italic` or `Plain` (and the
/// logical names by `.bold`, `.italic`, `.bolditalic`, `.plain`), and the
/// installed DejaVu families by their face names (`DejaVu Sans Mono Bold
/// Oblique`, `DejaVu Serif Condensed Italic`). Every other name, however
/// monospaced or serif it sounds (`Consolas`, `Courier New`, `monospace`,
/// `Times New Roman`, `Georgia`), is a font Java does not have: it falls
/// back to its default, DejaVu Sans, and so does puml.
pub fn family_of(name: &str) -> FontFamily {
    let first = name.split(',').next().unwrap_or_default();
    let name = first.trim().trim_matches(['"', '\'']).trim().to_ascii_lowercase();
    // `Serif.bold`: Java's logical names with a style; not its aliases
    // (`Courier.bold` is sans).
    if let Some((base, style)) = name.split_once('.') {
        if !["plain", "bold", "italic", "bolditalic"].contains(&style) {
            return FontFamily::Sans;
        }
        return match base {
            "serif" => FontFamily::Serif,
            "monospaced" | "dialoginput" => FontFamily::Mono,
            _ => FontFamily::Sans,
        };
    }
    let with_one_of = |family: &str, styles: &[&str]| {
        name.strip_prefix(family)
            .is_some_and(|rest| rest.is_empty() || styles.iter().any(|s| rest.strip_prefix(' ') == Some(*s)))
    };
    const LOGICAL_STYLES: &[&str] = &["bold", "italic", "plain"];
    const UPRIGHT_OR_ITALIC: &[&str] = &["bold", "italic", "bold italic"];
    const UPRIGHT_OR_OBLIQUE: &[&str] = &["bold", "oblique", "bold oblique"];
    if ["monospaced", "courier", "dialoginput"]
        .iter()
        .any(|f| with_one_of(f, LOGICAL_STYLES))
        || with_one_of("dejavu sans mono", UPRIGHT_OR_OBLIQUE)
    {
        FontFamily::Mono
    } else if with_one_of("dejavu serif condensed", UPRIGHT_OR_ITALIC) {
        FontFamily::SerifCondensed
    } else if with_one_of("dejavu sans condensed", UPRIGHT_OR_OBLIQUE) {
        FontFamily::SansCondensed
    } else if ["serif", "timesroman"].iter().any(|f| with_one_of(f, LOGICAL_STYLES))
        || with_one_of("dejavu serif", UPRIGHT_OR_ITALIC)
        // DejaVu's TeX math font: a serif face within 0.1 % of DejaVu Serif's widths.
        || name == "dejavu math tex gyre"
    {
        FontFamily::Serif
    } else {
        FontFamily::Sans
    }
}

/// Texts whose face a `<style>` rule or skinparam sets on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextElement {
    Title,
    Header,
    Footer,
    BoxTitle,
    Message,
    Note,
    /// A group's condition and its `else` labels (`group` style).
    GroupCondition,
    /// The tab of a group (`alt`, `loop`, …; `groupHeader` style).
    GroupTab,
    Separator,
    RefText,
    RefTab,
    Delay,
    Legend,
}

impl TextElement {
    pub const COUNT: usize = 13;

    /// The elements a `<style>` selector's `FontName` reaches, as observed
    /// with PlantUML 1.2026.8: `header` also reaches the group and ref
    /// tabs (`groupHeader`, `referenceHeader`), `document` only the page's
    /// decorations, `element` everything else.
    fn of_selector(selector: &str) -> &'static [TextElement] {
        use TextElement::*;
        match selector {
            "title" => &[Title],
            "header" => &[Header, GroupTab, RefTab],
            "footer" => &[Footer],
            "box" => &[BoxTitle],
            "arrow" => &[Message],
            "note" => &[Note],
            "group" => &[GroupCondition],
            "groupheader" => &[GroupTab],
            "separator" => &[Separator],
            "reference" => &[RefText],
            "referenceheader" => &[RefTab],
            "delay" => &[Delay],
            "legend" => &[Legend],
            "document" => &[Title, Header, Footer, Legend],
            "element" => &[
                BoxTitle,
                Message,
                Note,
                GroupCondition,
                GroupTab,
                Separator,
                RefText,
                RefTab,
                Delay,
            ],
            _ => &[],
        }
    }
}

/// How much wider `skinparam noteTextAlignment center` makes a note, all
/// of it before the text (PlantUML 1.2026.8, observed).
const NOTE_CENTERED_INSET: f64 = 9.0;

/// An actor's line thickness, when it is one PlantUML draws (0 draws no
/// stroke; past 100 the figure would dwarf any name).
fn actor_thickness(number: Option<f64>) -> Option<f64> {
    number.filter(|v| (0.0..=100.0).contains(v))
}

fn kind_index(kind: ParticipantKind) -> usize {
    ParticipantKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)
}

impl Theme {
    /// A regular font of the diagram's family (`defaultFontName`).
    /// The font of an element whose size PlantUML fixes (`size`) unless
    /// `skinparam defaultFontSize` is set.
    /// The font of an element with its own `<style>` `FontSize` (`own`),
    /// else `skinparam defaultFontSize`, else PlantUML's size for it.
    pub fn sized_font(&self, own: Option<f64>, default: f64) -> Font {
        self.font(own.or(self.default_font_size).unwrap_or(default))
    }

    pub fn element_font(&self, size: f64) -> Font {
        self.font(self.default_font_size.unwrap_or(size))
    }

    pub fn font(&self, size: f64) -> Font {
        Font {
            family: self.font_family,
            bold: self.font_bold,
            ..Font::sans(size)
        }
    }

    /// A font of `element`'s own face, else the diagram's, in its own
    /// `FontStyle`.
    pub fn font_of(&self, element: TextElement, size: f64) -> Font {
        let style = self.element_font_style[element as usize].unwrap_or_default();
        Font {
            family: self.element_font_family[element as usize].unwrap_or(self.font_family),
            bold: self.element_font_bold[element as usize].unwrap_or(self.font_bold) || style.bold,
            italic: style.italic,
            ..Font::sans(size)
        }
    }

    /// `skinparam DatabaseBackgroundColor<<Store>> …`: a participant
    /// kind's look for the participants of that kind carrying the
    /// stereotype, kept as the `<style>` rule it amounts to (probe
    /// `s_stereotype_background`).
    fn push_stereotype_skinparam(&mut self, name: &str, stereotype: &str, value: &str) {
        let bare = name.strip_prefix("sequence").unwrap_or(name);
        let Some((kind, prop)) = ParticipantKind::ALL
            .iter()
            .find_map(|kind| bare.strip_prefix(kind.keyword()).map(|prop| (kind, prop)))
        else {
            return;
        };
        let property = match prop {
            "backgroundcolor" => "backgroundcolor",
            "bordercolor" => "linecolor",
            "borderthickness" => "linethickness",
            "fontcolor" | "fontsize" | "fontname" | "fontstyle" => prop,
            _ => return,
        };
        if stereotype.is_empty() {
            return;
        }
        self.stereotype_rules.push(StyleRule {
            scope: None,
            element: kind.keyword().to_string(),
            stereotype: Some(stereotype.to_string()),
            property: property.to_string(),
            value: value.trim().to_string(),
        });
    }

    /// A group's tab: bold, unless its own `FontStyle` says otherwise
    /// (probe `p_sequencegroupheaderfontstyle_italic`: italic, not bold).
    pub fn group_tab_font(&self) -> Font {
        let font = self.sized_font_of(TextElement::GroupTab, self.group_header_font_size, 13.0);
        match self.element_font_style[TextElement::GroupTab as usize] {
            Some(_) => font,
            None => font.bold(),
        }
    }

    fn set_element_style(&mut self, elements: &[TextElement], value: &str) {
        for element in elements {
            self.element_font_style[*element as usize] = Some(FontStyle::parse(value));
        }
    }

    /// [`Theme::sized_font`] in `element`'s own face.
    pub fn sized_font_of(&self, element: TextElement, own: Option<f64>, default: f64) -> Font {
        self.font_of(element, own.or(self.default_font_size).unwrap_or(default))
    }

    /// `{kind}StereotypeFont{Size,Color,Style}` (`prop` without the kind).
    fn apply_stereotype_font(&mut self, kind: usize, prop: &str, size: Option<f64>, color: Option<Color>, value: &str) {
        let Some(font) = self.stereotype_font.get_mut(kind) else {
            return;
        };
        match prop {
            "stereotypefontsize" => font.size = size.or(font.size),
            "stereotypefontcolor" => font.color = color.or(font.color),
            "stereotypefontstyle" => font.style = Some(FontStyle::parse(value)),
            "stereotypefontname" => font.family = Some(family_of(value)),
            _ => {}
        }
    }

    /// A participant kind's own face (`actorFontName`, `participant { FontName }`).
    fn set_kind_face(&mut self, kind: usize, name: &str) {
        if let (Some(family), Some(bold)) = (self.kind_font_family.get_mut(kind), self.kind_font_bold.get_mut(kind)) {
            *family = Some(family_of(name));
            *bold = Some(bold_of(name));
        }
    }

    fn set_element_family(&mut self, elements: &[TextElement], name: &str) {
        for element in elements {
            self.element_font_family[*element as usize] = Some(family_of(name));
            self.element_font_bold[*element as usize] = Some(bold_of(name));
        }
    }

    /// A named theme: one of puml's own looks or PlantUML's themes;
    /// unknown names give `None`.
    pub fn named(name: &str) -> Option<Theme> {
        let base = Theme::default();
        let name = name.trim().to_ascii_lowercase();
        if let Some(theme) = plantuml_theme(&name) {
            return Some(theme);
        }
        let mut look = match name.as_str() {
            "default" | "_none_" | "" => base,
            "minimal" => {
                let gray = Color::hex(0x777777);
                Theme {
                    participant_bg: Color::WHITE,
                    participant_border: gray,
                    lifeline_color: Color::hex(0xAAAAAA),
                    activation_border: Color::hex(0xAAAAAA),
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
                    activation_border: Color::hex(0x90A4AE),
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
                    activation_border: Color::hex(0x808080),
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
                    activation_border: Color::hex(0x8B7355),
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
            _ => return None,
        };
        look.sync_derived_colors();
        Some(look)
    }

    /// The resolution a diagram is drawn at: 96 (PlantUML's SVG unit), the
    /// 100 of the PlantUML themes that set it, or the last `skinparam dpi`.
    /// PlantUML scales the whole drawing by `dpi / 96` (with `scale` on top).
    pub fn dpi_for(settings: &Settings, override_name: Option<&str>) -> f64 {
        let theme_dpi = override_name
            .or(settings.theme.as_deref())
            .map(|name| name.trim().to_ascii_lowercase())
            .filter(|name| crate::theme_sheets::DRAWN_AT_100_DPI.contains(&name.as_str()))
            .map_or(96.0, |_| 100.0);
        settings
            .skinparams
            .iter()
            .rev()
            .filter(|(key, _)| key.eq_ignore_ascii_case("dpi"))
            .filter_map(|(_, value)| value.trim().parse::<f64>().ok())
            .find(|dpi| (10.0..=1000.0).contains(dpi))
            .unwrap_or(theme_dpi)
    }

    /// Whether a theme draws by hand (PlantUML's `sketchy` themes).
    pub fn is_hand_drawn(name: &str) -> bool {
        let name = name.trim().to_ascii_lowercase();
        crate::theme_sheets::HAND_DRAWN.contains(&name.as_str())
    }

    /// The theme for a diagram: `override_name` (e.g. `--theme`) wins over
    /// the diagram's `!theme`; then skinparams and `<style>` rules apply.
    pub fn for_settings(settings: &Settings, override_name: Option<&str>) -> Theme {
        let mut theme = override_name
            .or(settings.theme.as_deref())
            .and_then(Theme::named)
            .unwrap_or_default();
        Theme::apply_settings(&mut theme, settings, StyleScope::Sequence);
        theme
    }

    /// The diagram's skinparams and `<style>` sheets over `self`, in source
    /// order (PlantUML: the later of a skinparam and a style rule wins).
    pub fn apply_settings(&mut self, settings: &Settings, scope: StyleScope) {
        let mut next_style = settings.styles.iter().peekable();
        for (i, (key, value)) in settings.skinparams.iter().enumerate() {
            while let Some(style) = next_style.next_if(|s| s.after_skinparams <= i) {
                self.apply_sheet(&style.text, scope);
            }
            self.apply_skinparam(key, value);
        }
        for style in next_style {
            self.apply_sheet(&style.text, scope);
        }
    }

    /// Applies one of PlantUML's themes as puml writes it: `<style>` rules,
    /// and `skinparam Key Value` lines for what only a skinparam sets
    /// (`BoxPadding`: PlantUML ignores `box { Padding }` in a style).
    fn apply_theme_sheet(&mut self, sheet: &str) {
        let mut style = String::with_capacity(sheet.len());
        for line in sheet.lines() {
            let trimmed = line.trim_start();
            let skinparam = trimmed
                .get(..10)
                .filter(|head| head.eq_ignore_ascii_case("skinparam "))
                .and_then(|_| trimmed[10..].trim().split_once(char::is_whitespace));
            match skinparam {
                Some((key, value)) => self.apply_skinparam(key, value),
                None => {
                    style.push_str(line);
                    style.push('\n');
                }
            }
        }
        self.apply_sheet(&style, StyleScope::Sequence);
    }

    /// Applies one style sheet's rules for diagrams of `scope`.
    pub fn apply_sheet(&mut self, sheet: &str, scope: StyleScope) {
        let (rules, _) = parse_sheet(sheet);
        for rule in rules {
            if rule.scope.is_some_and(|s| s != scope) {
                continue;
            }
            if rule.stereotype.is_some() {
                self.stereotype_rules.push(rule);
            } else {
                self.apply_style_rule(&rule.element, &rule.property, &rule.value);
            }
        }
    }

    /// Colours for an element with these stereotypes: the theme's values
    /// overridden by the matching stereotype rules (later rules win).
    /// `element` is the element's selector (`participant`, `note`, …).
    pub fn with_stereotypes<'s>(&self, element: &str, labels: impl IntoIterator<Item = &'s str>) -> Theme {
        let labels: Vec<String> = labels.into_iter().map(|l| l.trim().to_ascii_lowercase()).collect();
        let mut themed = self.clone();
        for rule in &self.stereotype_rules {
            let matches = rule
                .stereotype
                .as_deref()
                .is_some_and(|s| labels.iter().any(|l| l == s));
            if matches && (rule.element == "root" || rule.element == "element" || rule.element == element) {
                // The stereotype's rule speaks for the element it is drawn on.
                themed.apply_style_rule(element, &rule.property, &rule.value);
            }
        }
        themed
    }

    /// The background a stereotype rule (`.name { BackGroundColor … }`)
    /// gives any element carrying one of `labels`: PlantUML fills that
    /// participant's activation bars with it too (observed:
    /// test-data/styles/stereotype), not with a rule nested in an element's
    /// (`actor { .hero { … } }`: test-data/styles/stereotype_nested).
    pub fn stereotype_background<'s>(&self, labels: impl IntoIterator<Item = &'s str>) -> Option<Color> {
        if self.stereotype_rules.is_empty() {
            return None;
        }
        let labels: Vec<String> = labels.into_iter().map(|l| l.trim().to_ascii_lowercase()).collect();
        self.stereotype_rules
            .iter()
            .filter(|rule| {
                rule.property == "backgroundcolor"
                    && (rule.element == "root" || rule.element == "element")
                    && rule
                        .stereotype
                        .as_deref()
                        .is_some_and(|s| labels.iter().any(|l| l == s))
            })
            .filter_map(|rule| parse_color(&rule.value))
            .next_back()
    }

    /// `skinparam monochrome true` (the last `monochrome` setting counts).
    pub fn is_monochrome(settings: &Settings) -> bool {
        settings
            .skinparams
            .iter()
            .rev()
            .find(|(key, _)| key.eq_ignore_ascii_case("monochrome"))
            .is_some_and(|(_, value)| matches!(value.trim().to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1"))
    }

    /// Whether shadows are drawn: `shadowing`, unless `style strictuml`
    /// (PlantUML draws none then, and keeps no room for them).
    pub fn draws_shadows(&self) -> bool {
        self.shadowing && !self.strict_uml
    }

    /// The room PlantUML keeps around heads and notes for their shadows.
    pub fn shadow_room(&self) -> f64 {
        if self.draws_shadows() {
            crate::shapes::SHADOW_ROOM
        } else {
            0.0
        }
    }

    pub fn participant_bg(&self, kind: ParticipantKind) -> Color {
        self.kind_bg[kind_index(kind)].unwrap_or(self.participant_bg)
    }

    /// Where a participant's fill fades to, if it is a gradient.
    pub fn participant_gradient(&self, kind: ParticipantKind) -> Option<Gradient> {
        match self.kind_bg[kind_index(kind)] {
            Some(_) => self.kind_gradient[kind_index(kind)],
            None => self.participant_gradient,
        }
    }

    pub fn participant_border(&self, kind: ParticipantKind) -> Color {
        self.kind_border[kind_index(kind)].unwrap_or(self.participant_border)
    }

    /// Applies one `skinparam key value` (key in any case, with or
    /// without the `sequence` prefix). Unknown keys and bad values are ignored.
    pub fn apply_skinparam(&mut self, key: &str, value: &str) {
        let key = key.to_ascii_lowercase();
        if let Some((name, stereotype)) = key.split_once("<<") {
            self.push_stereotype_skinparam(name, stereotype.trim_end_matches(">>").trim(), value);
            return;
        }
        let prefixed = key.starts_with("sequence");
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
                // PlantUML gives each kind its own name font: `participant…`
                // leaves actors and databases as they are, and so on.
                match prop {
                    "fontsize" => self.kind_font_size[i] = size.or(self.kind_font_size[i]),
                    "fontcolor" => self.kind_font_color[i] = color.or(self.kind_font_color[i]),
                    "fontname" => self.set_kind_face(i, value),
                    "fontstyle" => self.kind_font_style[i] = Some(FontStyle::parse(value)),
                    _ => self.apply_stereotype_font(i, prop, size, color, value),
                }
                if *kind != ParticipantKind::Participant {
                    match prop {
                        "backgroundcolor" => self.set_kind_bg(i, color, value),
                        "bordercolor" => self.kind_border[i] = color.or(self.kind_border[i]),
                        _ => {}
                    }
                }
            }
        }
        match key {
            // `sequenceStereotypeFont…`: every kind's stereotype line.
            "stereotypefontsize" | "stereotypefontcolor" | "stereotypefontstyle" | "stereotypefontname" if prefixed => {
                for i in 0..8 {
                    self.apply_stereotype_font(i, key, size, color, value);
                }
            }
            "arrowfontstyle" => self.set_element_style(&[TextElement::Message], value),
            "notefontstyle" => self.set_element_style(&[TextElement::Note], value),
            "headerfontstyle" => self.set_element_style(&[TextElement::Header], value),
            "footerfontstyle" => self.set_element_style(&[TextElement::Footer], value),
            "legendfontstyle" => self.set_element_style(&[TextElement::Legend], value),
            "titlefontstyle" => self.set_element_style(&[TextElement::Title], value),
            "delayfontstyle" => self.set_element_style(&[TextElement::Delay], value),
            "referencefontstyle" if prefixed => self.set_element_style(&[TextElement::RefText], value),
            "groupfontstyle" if prefixed => self.set_element_style(&[TextElement::GroupCondition], value),
            "groupheaderfontstyle" if prefixed => self.set_element_style(&[TextElement::GroupTab], value),
            "dividerfontstyle" if prefixed => self.set_element_style(&[TextElement::Separator], value),
            // PlantUML 1.2026.8 (probes `p_sequence…fontsize`): only the
            // `sequence`-prefixed names size these; the bare ones do nothing.
            "groupfontsize" if prefixed => self.group_font_size = size.or(self.group_font_size),
            "groupheaderfontsize" if prefixed => self.group_header_font_size = size.or(self.group_header_font_size),
            "dividerfontsize" if prefixed => self.separator_font_size = size.or(self.separator_font_size),
            "delayfontsize" if prefixed => self.delay_font_size = size.or(self.delay_font_size),
            "referencefontsize" if prefixed => {
                self.reference_font_size = size.or(self.reference_font_size);
                self.reference_header_font_size = size.or(self.reference_header_font_size);
            }
            "headerfontsize" => self.header_font_size = size.or(self.header_font_size),
            "footerfontsize" => self.footer_font_size = size.or(self.footer_font_size),
            "legendfontsize" => self.legend_font_size = size.or(self.legend_font_size),
            "legendfontcolor" => set!(self.legend_font_color, color),
            "diagrambordercolor" => self.diagram_border_color = color.or(self.diagram_border_color),
            "diagramborderthickness" => {
                self.diagram_border_thickness = number
                    .filter(|v| (0.0..=50.0).contains(v))
                    .or(self.diagram_border_thickness)
            }
            "delayfontcolor" if prefixed => set!(self.delay_font_color, color),
            "dividerfontcolor" if prefixed => set!(self.divider_font_color, color),
            "referencefontcolor" if prefixed => set!(self.ref_font_color, color),
            "backgroundcolor" => {
                self.legend_on_page |= color.is_some();
                set!(self.background, color);
                fade(&mut self.fades.page, color, value);
            }
            "defaultfontcolor" => {
                if let Some(c) = color {
                    self.font_color = c;
                    self.participant_font_color = c;
                    self.arrow_font_color = c;
                    self.note_font_color = c;
                    self.group_font_color = c;
                    self.title_color = c;
                    self.box_font_color = c;
                    self.kind_font_color = [None; 8];
                    // The header and the footer too (probe `p_defaultfontcolor`).
                    self.header_color = c;
                    self.sync_derived_colors();
                    self.footer_color = self.header_color;
                }
            }
            "defaultfontsize" => {
                // PlantUML 1.2026: every sequence element takes this size
                // (participants, boxes, groups, dividers, refs, delays); the
                // title keeps its own.
                if let Some(s) = size {
                    self.participant_font_size = s;
                    self.kind_font_size = [None; 8];
                    // It also replaces the sizes a theme gave these elements.
                    self.box_font_size = None;
                    self.group_header_font_size = None;
                    self.group_font_size = None;
                    self.separator_font_size = None;
                    self.reference_header_font_size = None;
                    self.reference_font_size = None;
                    self.delay_font_size = None;
                    self.arrow_font_size = s;
                    self.note_font_size = s;
                    self.default_font_size = Some(s);
                }
            }
            "participantbackgroundcolor" => self.set_participant_only_bg(color, value),
            "participantbordercolor" => self.set_participant_only_border(color),
            // PlantUML 1.2026.8 ignores the bare keys (probes
            // `p_lifeline…`, corpus 228's black `LifeLineBackgroundColor`
            // drawn white): only `sequenceLifeLine…` and the same names in
            // a `skinparam sequence { … }` block colour the lifelines.
            "lifelinebordercolor" if color.is_some() && prefixed => {
                set!(self.lifeline_color, color);
                self.lifeline_keys_by_sequence.border |= prefixed;
            }
            "lifelinebackgroundcolor" if color.is_some() && prefixed => {
                set!(self.activation_bg, color);
                fade(&mut self.fades.activation, color, value);
                self.lifeline_keys_by_sequence.background |= prefixed;
            }
            "arrowcolor" => set!(self.arrow_color, color),
            "arrowfontcolor" => set!(self.arrow_font_color, color),
            "arrowfontsize" => set!(self.arrow_font_size, size),
            "arrowthickness" => set!(self.arrow_thickness, number.filter(|v| (0.1..=20.0).contains(v))),
            "actorborderthickness" => self.set_kind_line_thickness(kind_index(ParticipantKind::Actor), number),
            "notebackgroundcolor" => {
                if let Some(c) = color {
                    self.note_bg = c;
                    self.note_gradient = parse_gradient(value);
                }
            }
            "notebordercolor" => set!(self.note_border, color),
            "notefontcolor" => set!(self.note_font_color, color),
            "notefontsize" => set!(self.note_font_size, size),
            "notetextalignment" => {
                let center = value.eq_ignore_ascii_case("center");
                self.note_text_centered = center;
                self.note_text_inset = if center { NOTE_CENTERED_INSET } else { 0.0 };
            }
            "groupbordercolor" => {
                set!(self.group_border, color);
                set!(self.ref_border, color);
                if color.is_some() {
                    self.group_tab_border = None;
                    self.ref_tab_border = None;
                }
            }
            // PlantUML 1.2026.8 (probe `tab_outline_styles`): the ref's
            // frame and its tab.
            "referencebordercolor" => {
                set!(self.ref_border, color);
                if color.is_some() {
                    self.ref_tab_border = None;
                }
            }
            // PlantUML 1.2026.8 (observed): `sequenceGroupBackgroundColor` fills
            // a group's header tab, `sequenceGroupBodyBackgroundColor` its
            // body; `sequenceGroupHeaderBackgroundColor` fills nothing.
            "groupbackgroundcolor" => {
                set!(self.group_header_bg, color);
                fade(&mut self.fades.group_header, color, value);
            }
            "groupbodybackgroundcolor" => {
                self.group_bg = color.or(self.group_bg);
                fade(&mut self.fades.group_body, color, value);
            }
            "referencebackgroundcolor" => {
                self.ref_bg = color.or(self.ref_bg);
                fade(&mut self.fades.reference, color, value);
            }
            "referenceheaderbackgroundcolor" => {
                set!(self.ref_header_bg, color);
                fade(&mut self.fades.reference_header, color, value);
            }
            "titlebordercolor" => self.title_border = color.or(self.title_border),
            "titlebackgroundcolor" => {
                self.title_bg = color.or(self.title_bg);
                fade(&mut self.fades.title, color, value);
            }
            "groupfontcolor" | "groupheaderfontcolor" => {
                set!(self.group_font_color, color);
                set!(self.group_header_font_color, color);
                set!(self.ref_header_font_color, color);
            }
            "dividerbackgroundcolor" => {
                set!(self.divider_bg, color);
                fade(&mut self.fades.divider, color, value);
            }
            "dividerbordercolor" => set!(self.divider_border, color),
            "boxbackgroundcolor" => {
                set!(self.box_bg, color);
                fade(&mut self.fades.boxes, color, value);
            }
            "boxbordercolor" => set!(self.box_border, color),
            "boxfontcolor" => set!(self.box_font_color, color),
            "legendbackgroundcolor" => {
                self.legend_on_page &= color.is_none();
                set!(self.legend_bg, color);
                fade(&mut self.fades.legend, color, value);
            }
            "legendbordercolor" => set!(self.legend_border, color),
            // `sequenceTitleFontSize` does nothing (probe `p_sequencetitlefontsize`).
            "titlefontsize" if !prefixed => set!(self.title_font_size, size),
            "titlefontcolor" => set!(self.title_color, color),
            "headerfontcolor" => set!(self.header_color, color),
            "footerfontcolor" => set!(self.footer_color, color),
            "roundcorner" => {
                if let Some(v) = number.filter(|v| (0.0..=50.0).contains(v)) {
                    self.round_corner = v / 2.0;
                    self.frame_round_corner = v / 2.0;
                }
            }
            "shadowing" => set!(self.shadowing, flag),
            "minclasswidth" => set!(self.min_class_width, number.filter(|v| (0.0..=1000.0).contains(v))),
            "defaulttextalignment" => {
                self.default_text_center = value.eq_ignore_ascii_case("center");
                self.default_text_right = value.eq_ignore_ascii_case("right");
                if self.default_text_right {
                    self.footer_align = Some(HorizontalAlign::Right);
                }
                // PlantUML 1.2026.8 (probe `p_defaulttextalignment`): a
                // centred default also centres notes (with the room
                // `noteTextAlignment center` keeps) and the header.
                if self.default_text_center {
                    self.note_text_centered = true;
                    self.note_text_inset = NOTE_CENTERED_INSET;
                    self.header_align = Some(HorizontalAlign::Center);
                }
            }
            "guillemet" => set!(self.guillemet, flag),
            // `sequenceMessageAlignment` is read as `sequenceMessageAlign`
            // (probe `p_sequencemessagealignment`).
            "messagealign" | "messagealignment" if key == "messagealign" || prefixed => {
                self.message_align = match value.to_ascii_lowercase().as_str() {
                    "center" => MessageAlign::Center,
                    "right" => MessageAlign::Right,
                    "direction" => MessageAlign::Direction,
                    "reversedirection" => MessageAlign::ReverseDirection,
                    _ => MessageAlign::Left,
                }
            }
            "maxmessagesize" if self.wrap_width.is_none() => {
                self.max_message_size = number.filter(|v| *v >= 10.0).or(self.max_message_size);
            }
            "maxmessagesize" => {}
            "wrapwidth" => {
                if let Some(width) = number.filter(|v| *v >= 10.0) {
                    self.wrap_width = Some(width);
                    self.max_message_size = Some(width);
                    self.note_max_width = Some(width);
                }
            }
            // PlantUML 1.2026 accepts `participantPadding` but lays out as if it
            // were absent (it only prints a deprecation banner): so do we.
            "participantpadding" => {}
            "defaultfontname" => {
                // Every name after it takes this face, whatever face a
                // theme gave each participant kind or element before.
                self.font_family = family_of(value);
                self.font_bold = bold_of(value);
                self.kind_font_family = [None; 8];
                self.kind_font_bold = [None; 8];
                self.element_font_family = [None; TextElement::COUNT];
                self.element_font_bold = [None; TextElement::COUNT];
            }
            // Each element's face, under the names PlantUML 1.2026.8 obeys
            // (observed: `groupHeaderFontName` and `referenceFontName` do
            // nothing without the `sequence` prefix, nor `boxFontName` at all).
            "titlefontname" => self.set_element_family(&[TextElement::Title], value),
            "headerfontname" => self.set_element_family(&[TextElement::Header], value),
            "footerfontname" => self.set_element_family(&[TextElement::Footer], value),
            "arrowfontname" => self.set_element_family(&[TextElement::Message], value),
            "notefontname" => self.set_element_family(&[TextElement::Note], value),
            "legendfontname" => self.set_element_family(&[TextElement::Legend], value),
            "dividerfontname" => self.set_element_family(&[TextElement::Separator], value),
            "delayfontname" => self.set_element_family(&[TextElement::Delay], value),
            "groupheaderfontname" if prefixed => self.set_element_family(&[TextElement::GroupTab], value),
            "referencefontname" if prefixed => {
                self.set_element_family(&[TextElement::RefText, TextElement::RefTab], value)
            }
            "actorstyle" => self.awesome_actor = value.eq_ignore_ascii_case("awesome"),
            "boxpadding" => set!(self.box_padding, number.filter(|v| (0.0..=500.0).contains(v))),
            "padding" => set!(self.text_padding, number.filter(|v| (0.0..=500.0).contains(v))),
            "responsemessagebelowarrow" => set!(self.response_below_arrow, flag),
            "lifelinestrategy" => self.solid_lifeline = value.eq_ignore_ascii_case("solid"),
            "style" => self.strict_uml = value.eq_ignore_ascii_case("strictuml"),
            // `monochrome true` keeps the look and greys every colour of
            // the finished drawing (`Theme::is_monochrome`, `scene::to_grey`).
            "monochrome" if value.eq_ignore_ascii_case("reverse") => {
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
                    activation_border: fg,
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
                    participant_gradient: None,
                    note_gradient: None,
                    kind_gradient: [None; 8],
                    fades: Fades::default(),
                    kind_border: [None; 8],
                    kind_font_color: [None; 8],
                    title_bg: self.title_bg.map(|_| bg),
                    title_border: self.title_border.map(|_| fg),
                    ref_bg: self.ref_bg.map(|_| bg),
                    ..self.clone()
                };
                self.sync_derived_colors();
            }
            _ => {}
        }
    }
}

/// Which lifeline colours a `sequence`-prefixed skinparam key set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LifelineKeys {
    pub border: bool,
    pub background: bool,
}

/// Where the fills of elements other than participants and notes fade
/// to when written as gradients (`#A-B`, `#A|B`, `#A/B`, `#A\B`), by a
/// theme, a skinparam or a `<style>` rule; `None` for a solid fill. Each
/// is drawn as PlantUML 1.2026.8 draws it (observed: the title's frame,
/// the divider's band and box, a group's tab and body, a ref's frame and
/// tab, a box, an activation bar, the legend).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Fades {
    /// The page (`skinparam BackgroundColor`, `document { BackGroundColor }`).
    pub page: Option<Gradient>,
    pub title: Option<Gradient>,
    pub legend: Option<Gradient>,
    pub divider: Option<Gradient>,
    pub group_header: Option<Gradient>,
    pub group_body: Option<Gradient>,
    pub reference: Option<Gradient>,
    pub reference_header: Option<Gradient>,
    pub boxes: Option<Gradient>,
    pub activation: Option<Gradient>,
}

/// Keeps where a fill set from `value` fades to: a new colour (`color`)
/// or a transparent one replaces the old gradient, a bad value keeps it.
fn fade(slot: &mut Option<Gradient>, color: Option<Color>, value: &str) {
    let transparent = matches!(value.trim().to_ascii_lowercase().as_str(), "none" | "transparent");
    if color.is_some() || transparent {
        *slot = parse_gradient(value);
    }
}

/// The frame PlantUML draws around a header's or footer's text when its
/// `<style>` gives it a background or a line colour (observed: a box exactly
/// around the text lines, the fill `none` without a background, no outline
/// without a line colour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CaptionFrame {
    pub fill: Option<Color>,
    pub gradient: Option<Gradient>,
    pub border: Option<Color>,
    pub thickness: f64,
}

impl Default for CaptionFrame {
    fn default() -> Self {
        CaptionFrame {
            fill: None,
            gradient: None,
            border: None,
            thickness: 1.0,
        }
    }
}

impl Theme {
    /// How the legend is filled: its own colour, or the page's paint (see
    /// `legend_on_page`).
    pub fn legend_fill(&self) -> (Color, Option<Gradient>) {
        match (self.legend_on_page, self.fades.page) {
            (false, _) => (self.legend_bg, self.fades.legend),
            (true, Some(page)) => (self.background, Some(page)),
            (true, None) => (Color { a: 0, ..Color::WHITE }, None),
        }
    }

    /// The page's gradient, which PlantUML repeats behind an unframed header
    /// and footer and inside an unfilled title frame; `None` on a solid page.
    pub fn page_fade(&self) -> Option<(Color, Gradient)> {
        Some((self.background, self.fades.page?))
    }
}

impl CaptionFrame {
    /// Whether anything is drawn.
    pub fn is_drawn(&self) -> bool {
        self.fill.is_some_and(|c| c.a > 0) || self.border.is_some()
    }

    fn apply(&mut self, property: &str, value: &str, color: Option<Color>, transparent: bool, number: Option<f64>) {
        match property {
            "backgroundcolor" if transparent => {
                self.fill = None;
                self.gradient = None;
            }
            "backgroundcolor" if color.is_some() => {
                self.fill = color;
                self.gradient = parse_gradient(value);
            }
            "linecolor" if transparent => self.border = None,
            "linecolor" if color.is_some() => self.border = color,
            "linethickness" => {
                if let Some(t) = number.filter(|t| (0.0..=100.0).contains(t)) {
                    self.thickness = t;
                }
            }
            _ => {}
        }
    }
}

/// Lengths on the four sides of a box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sides {
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub left: f64,
}

impl Sides {
    pub const fn all(length: f64) -> Sides {
        Sides {
            top: length,
            right: length,
            bottom: length,
            left: length,
        }
    }
}

/// An element's `Margin` (outside its frame) and `Padding` (inside it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spacing {
    pub margin: Sides,
    pub padding: Sides,
}

impl Spacing {
    /// The title's defaults in PlantUML 1.2026.8 (observed: `Margin 0` or
    /// `Padding 0` each take 5 px from above the title and 5 from below).
    pub const DEFAULT_TITLE: Spacing = Spacing {
        margin: Sides::all(5.0),
        padding: Sides::all(5.0),
    };
    /// The legend's defaults (observed: `Margin 0` lifts it 12 px and what
    /// follows 24; `Padding 0` shrinks its frame 5 px on each side).
    pub const DEFAULT_LEGEND: Spacing = Spacing {
        margin: Sides::all(12.0),
        padding: Sides::all(5.0),
    };

    pub const fn none() -> Spacing {
        Spacing {
            margin: Sides::all(0.0),
            padding: Sides::all(0.0),
        }
    }

    /// Margin and padding together: the room of an element drawn without
    /// a frame.
    pub fn outer(&self) -> Sides {
        Sides {
            top: self.margin.top + self.padding.top,
            right: self.margin.right + self.padding.right,
            bottom: self.margin.bottom + self.padding.bottom,
            left: self.margin.left + self.padding.left,
        }
    }
}

/// A `Margin`/`Padding` value as PlantUML reads it (observed with the
/// oracle): one length for every side, `vertical horizontal`, or `top right
/// bottom left`; every length within `range`.
pub(crate) fn css_sides(value: &str, range: std::ops::RangeInclusive<f64>) -> Option<Sides> {
    let values: Vec<f64> = value
        .split_whitespace()
        .map(|v| {
            v.trim_end_matches("px")
                .parse::<f64>()
                .ok()
                .filter(|v| range.contains(v))
        })
        .collect::<Option<_>>()?;
    match values[..] {
        [all] => Some(Sides::all(all)),
        [vertical, horizontal] => Some(Sides {
            top: vertical,
            right: horizontal,
            bottom: vertical,
            left: horizontal,
        }),
        [top, right, bottom, left] => Some(Sides {
            top,
            right,
            bottom,
            left,
        }),
        _ => None,
    }
}

/// A style colour: a colour, or the first colour of a gradient
/// (`#59B6EC-#2FA4E7`; where it fades to is kept in [`Fades`]).
fn style_color(value: &str) -> Option<Color> {
    parse_color(value).or_else(|| {
        let first = value
            .trim()
            .split(['-', '/', '|', '\\'])
            .find(|p| !p.trim().is_empty())?;
        parse_color(first)
    })
}

impl Theme {
    /// Colours drawn with the default text colour before they had their own
    /// field follow it in puml's own looks.
    fn sync_derived_colors(&mut self) {
        self.divider_font_color = self.font_color;
        self.delay_font_color = self.font_color;
        self.legend_font_color = self.font_color;
        self.ref_font_color = self.font_color;
        self.group_header_font_color = self.group_font_color;
        self.ref_header_font_color = self.group_font_color;
        self.ref_border = self.group_border;
        self.ref_header_bg = self.group_header_bg;
        self.fades.reference_header = self.fades.group_header;
        self.footer_color = self.header_color;
    }

    /// Applies one `<style>` declaration: `element` is a lower-case
    /// selector (`participant`, `lifeline`, `root`, …), `property` a
    /// lower-case property. Unknown pairs and bad values are ignored (what
    /// puml does not draw is listed in docs/rendering.md).
    pub fn apply_style_rule(&mut self, element: &str, property: &str, value: &str) {
        let value = value.trim();
        let color = style_color(value);
        let transparent = matches!(value.to_ascii_lowercase().as_str(), "none" | "transparent");
        let number = value
            .trim_end_matches("px")
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite());
        let size = number.filter(|v| (1.0..=200.0).contains(v));
        let flag = match value.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(true),
            "false" | "no" | "off" | "0" => Some(false),
            _ => None,
        };
        macro_rules! set {
            ($field:expr, $v:expr) => {
                if let Some(v) = $v {
                    $field = v;
                }
            };
        }
        let kind = ParticipantKind::ALL
            .iter()
            .position(|k| k.keyword() == element && *k != ParticipantKind::Participant);
        if let Some(i) = kind {
            match property {
                "padding" if element == "collections" => {
                    if let Some(sides) = css_sides(value, 0.0..=100.0) {
                        self.collections_padding = (sides.top, sides.left);
                    }
                }
                "margin" if element == "collections" => {
                    if let Some(sides) = css_sides(value, 0.0..=100.0) {
                        self.collections_margin = sides;
                    }
                }
                "backgroundcolor" => self.set_kind_bg(i, color, value),
                "linecolor" => self.kind_border[i] = color.or(self.kind_border[i]),
                "fontcolor" => self.kind_font_color[i] = color.or(self.kind_font_color[i]),
                "fontsize" => self.kind_font_size[i] = size.or(self.kind_font_size[i]),
                "fontname" => self.set_kind_face(i, value),
                "fontstyle" => self.kind_font_style[i] = Some(FontStyle::parse(value)),
                "linethickness" => self.set_kind_line_thickness(i, number),
                _ => {}
            }
            return;
        }
        match (element, property) {
            ("root" | "element", "fontcolor") => {
                if let Some(c) = color {
                    self.font_color = c;
                    self.participant_font_color = c;
                    self.kind_font_color = [None; 8];
                    self.arrow_font_color = c;
                    self.note_font_color = c;
                    self.group_font_color = c;
                    self.title_color = c;
                    self.box_font_color = c;
                    self.sync_derived_colors();
                    self.header_color = c;
                    self.footer_color = c;
                }
            }
            ("root" | "element", "fontsize") => self.apply_skinparam("defaultfontsize", value),
            // Observed: a root or element line thickness reaches the actor.
            ("root" | "element", "linethickness") => {
                self.set_kind_line_thickness(kind_index(ParticipantKind::Actor), number)
            }
            ("root", "fontname") => self.apply_skinparam("defaultfontname", value),
            // `element` also reaches every participant kind (observed).
            ("element", "fontname") => {
                for i in 0..8 {
                    self.set_kind_face(i, value);
                }
                self.set_element_family(TextElement::of_selector(element), value);
            }
            ("participant", "linethickness") => {
                self.set_kind_line_thickness(kind_index(ParticipantKind::Participant), number)
            }
            ("participant", "fontname") => self.set_kind_face(kind_index(ParticipantKind::Participant), value),
            ("participant", "fontstyle") => {
                self.kind_font_style[kind_index(ParticipantKind::Participant)] = Some(FontStyle::parse(value))
            }
            (
                "arrow" | "note" | "header" | "footer" | "legend" | "title" | "delay" | "reference" | "group"
                | "groupheader" | "separator",
                "fontstyle",
            ) => self.set_element_style(TextElement::of_selector(element), value),
            (_, "fontname") => self.set_element_family(TextElement::of_selector(element), value),
            ("root" | "document", "backgroundcolor") => {
                self.legend_on_page |= color.is_some();
                set!(self.background, color);
                fade(&mut self.fades.page, color, value);
            }
            ("element", "backgroundcolor") => {
                if let Some(c) = color {
                    self.participant_bg = c;
                    self.participant_gradient = parse_gradient(value);
                    self.kind_bg = [None; 8];
                    self.kind_gradient = [None; 8];
                }
            }
            ("root" | "element", "linecolor") => {
                if let Some(c) = color {
                    self.participant_border = c;
                    self.kind_border = [None; 8];
                    self.arrow_color = c;
                    self.lifeline_color = c;
                    self.activation_border = c;
                    self.note_border = c;
                    if element == "root" {
                        // Observed (test-data/styles/root_colors): the frames
                        // too, and the title gets one.
                        self.group_border = c;
                        self.mainframe_border = c;
                        self.ref_border = c;
                        self.divider_border = c;
                        self.legend_border = c;
                        self.title_border = Some(c);
                    }
                }
            }
            // PlantUML 1.2026.8: a `sequenceDiagram` line colour outlines
            // the lifelines and activation bars (its other properties are
            // not observed yet).
            ("sequencediagram", "linecolor") => {
                if let Some(c) = color {
                    self.lifeline_color = c;
                    self.activation_border = c;
                }
            }
            ("activationbox", "linecolor") => set!(self.activation_border, color),
            ("activationbox", "backgroundcolor") => {
                if transparent {
                    self.activation_bg = Color { a: 0, ..Color::WHITE };
                }
                set!(self.activation_bg, color);
                fade(&mut self.fades.activation, color, value);
            }
            (_, "shadowing") => set!(self.shadowing, flag.or(number.map(|n| n > 0.0))),
            ("participant", "backgroundcolor") => self.set_participant_only_bg(color, value),
            ("participant", "linecolor") => self.set_participant_only_border(color),
            ("participant", "fontcolor") => set!(self.participant_font_color, color),
            // Only the `participant` kind: actors, databases… keep theirs
            // (observed: `participant { FontSize 24 }` leaves an actor at 14).
            ("participant", "fontsize") => {
                let i = kind_index(ParticipantKind::Participant);
                self.kind_font_size[i] = size.or(self.kind_font_size[i]);
            }
            ("participant", "padding") => {
                if let Some(sides) = css_sides(value, 0.0..=100.0) {
                    self.participant_padding = (sides.top, sides.left);
                }
            }
            ("participant", "margin") => {
                if let Some(sides) = css_sides(value, 0.0..=100.0) {
                    self.participant_margin = sides;
                }
            }
            ("header" | "footer", "horizontalalignment") => {
                let align = HorizontalAlign::from_keyword(value);
                if element == "header" {
                    self.header_align = align.or(self.header_align);
                } else {
                    self.footer_align = align.or(self.footer_align);
                }
            }
            ("header" | "footer" | "title" | "legend", "margin" | "padding") => {
                if let Some(sides) = css_sides(value, 0.0..=200.0) {
                    let spacing = match element {
                        "header" => &mut self.header_spacing,
                        "footer" => &mut self.footer_spacing,
                        "title" => &mut self.title_spacing,
                        _ => &mut self.legend_spacing,
                    };
                    if property == "margin" {
                        spacing.margin = sides;
                    } else {
                        spacing.padding = sides;
                    }
                }
            }
            ("document", "margin") => {
                if let Some(sides) = css_sides(value, 0.0..=500.0) {
                    self.page_margin = Sides {
                        top: 5.0 + sides.top,
                        right: 5.0 + sides.right,
                        bottom: 5.0 + sides.bottom,
                        left: 5.0 + sides.left,
                    };
                }
            }
            ("participant", "roundcorner") => {
                set!(
                    self.round_corner,
                    number.filter(|v| (0.0..=50.0).contains(v)).map(|v| v / 2.0)
                )
            }
            ("arrow", "linecolor") => set!(self.arrow_color, color),
            ("arrow", "fontcolor") => set!(self.arrow_font_color, color),
            ("arrow", "fontsize") => set!(self.arrow_font_size, size),
            ("arrow", "linethickness") => set!(self.arrow_thickness, number.filter(|v| (0.1..=20.0).contains(v))),
            ("arrow", "horizontalalignment") => self.apply_skinparam("messagealign", value),
            ("arrow", "maximumwidth") => self.apply_skinparam("maxmessagesize", value),
            ("lifeline", "linecolor") => set!(self.lifeline_color, color),
            // `lifeLine { BackGroundColor }` leaves activation bars white
            // (observed: test-data/styles/arrow_style); the theme sheets
            // colour them with `activationBox { BackGroundColor }`.
            ("note", "backgroundcolor") => {
                if let Some(c) = color {
                    self.note_bg = c;
                    self.note_gradient = parse_gradient(value);
                }
            }
            ("note", "linecolor") => set!(self.note_border, color),
            ("note", "fontcolor") => set!(self.note_font_color, color),
            ("note", "fontsize") => set!(self.note_font_size, size),
            ("note", "maximumwidth") => self.note_max_width = number.filter(|v| *v >= 10.0).or(self.note_max_width),
            ("note", "horizontalalignment") => self.note_text_centered = value.eq_ignore_ascii_case("center"),
            ("group", "linecolor") => {
                // The tab keeps the colour it had (probe `tab_outline_styles`).
                if color.is_some() && self.group_tab_border.is_none() {
                    self.group_tab_border = Some(self.group_border);
                }
                set!(self.group_border, color)
            }
            ("groupheader", "linecolor") => self.group_tab_border = color.or(self.group_tab_border),
            ("groupheader", "linethickness") => {
                set!(self.group_tab_width, number.filter(|v| (0.0..=20.0).contains(v)))
            }
            ("referenceheader", "linecolor") => self.ref_tab_border = color.or(self.ref_tab_border),
            ("referenceheader", "linethickness") => {
                set!(self.ref_tab_width, number.filter(|v| (0.0..=20.0).contains(v)))
            }
            ("group", "fontcolor") => set!(self.group_font_color, color),
            ("group", "backgroundcolor") => {
                self.group_bg = if transparent { None } else { color.or(self.group_bg) };
                fade(&mut self.fades.group_body, color, value);
            }
            ("groupheader", "backgroundcolor") => {
                // `none`: an unfilled tab (PlantUML's outline themes).
                if transparent {
                    self.group_header_bg = Color { a: 0, ..Color::WHITE };
                }
                set!(self.group_header_bg, color);
                fade(&mut self.fades.group_header, color, value);
            }
            ("box", "fontsize") => self.box_font_size = size.or(self.box_font_size),
            ("groupheader", "fontsize") => self.group_header_font_size = size.or(self.group_header_font_size),
            ("group", "fontsize") => self.group_font_size = size.or(self.group_font_size),
            ("separator", "fontsize") => self.separator_font_size = size.or(self.separator_font_size),
            ("referenceheader", "fontsize") => {
                self.reference_header_font_size = size.or(self.reference_header_font_size)
            }
            ("reference", "fontsize") => self.reference_font_size = size.or(self.reference_font_size),
            ("delay", "fontsize") => self.delay_font_size = size.or(self.delay_font_size),
            ("groupheader", "fontcolor") => set!(self.group_header_font_color, color),
            ("separator", "backgroundcolor") => {
                // `none`: an unfilled band and box (PlantUML's outline themes).
                if transparent {
                    self.divider_bg = Color { a: 0, ..Color::WHITE };
                }
                set!(self.divider_bg, color);
                fade(&mut self.fades.divider, color, value);
            }
            ("separator", "linecolor") => set!(self.divider_border, color),
            ("separator", "fontcolor") => set!(self.divider_font_color, color),
            ("delay", "fontcolor") => set!(self.delay_font_color, color),
            ("reference", "backgroundcolor") => {
                self.ref_bg = if transparent { None } else { color.or(self.ref_bg) };
                fade(&mut self.fades.reference, color, value);
            }
            ("reference", "linecolor") => {
                if color.is_some() && self.ref_tab_border.is_none() {
                    self.ref_tab_border = Some(self.ref_border);
                }
                set!(self.ref_border, color)
            }
            ("reference", "fontcolor") => set!(self.ref_font_color, color),
            ("referenceheader", "backgroundcolor") => {
                if transparent {
                    // Unfilled, as PlantUML writes it (`fill="none"`): the
                    // ref's body or the page shows through.
                    self.ref_header_bg = Color { a: 0, ..Color::WHITE };
                    self.fades.reference_header = None;
                } else {
                    set!(self.ref_header_bg, color);
                    fade(&mut self.fades.reference_header, color, value);
                }
            }
            ("referenceheader", "fontcolor") => set!(self.ref_header_font_color, color),
            ("box", "backgroundcolor") => {
                // `none` leaves a box unfilled (PlantUML's Bootswatch-like
                // themes: its second box shows the page through it).
                if transparent {
                    self.box_bg = Color { a: 0, ..Color::WHITE };
                } else {
                    set!(self.box_bg, color);
                }
                fade(&mut self.fades.boxes, color, value);
            }
            ("box", "linecolor") => set!(self.box_border, color),
            ("box", "fontcolor") => set!(self.box_font_color, color),
            ("title", "fontcolor") => set!(self.title_color, color),
            ("title", "fontsize") => set!(self.title_font_size, size),
            ("title", "backgroundcolor") => {
                self.title_bg = if transparent { None } else { color.or(self.title_bg) };
                fade(&mut self.fades.title, color, value);
            }
            ("title", "linecolor") => self.title_border = if transparent { None } else { color.or(self.title_border) },
            ("legend", "backgroundcolor") => {
                self.legend_on_page &= !(transparent || color.is_some());
                // `none` leaves the legend unfilled (PlantUML's amiga,
                // plain, reddress-… themes: fill="none").
                if transparent {
                    self.legend_bg = Color { a: 0, ..Color::WHITE };
                }
                set!(self.legend_bg, color);
                fade(&mut self.fades.legend, color, value);
            }
            ("legend", "linecolor") => set!(self.legend_border, color),
            ("legend", "fontcolor") => set!(self.legend_font_color, color),
            ("header", "fontcolor") => set!(self.header_color, color),
            ("footer", "fontcolor") => set!(self.footer_color, color),
            ("header", "backgroundcolor" | "linecolor" | "linethickness") => {
                self.header_frame.apply(property, value, color, transparent, number)
            }
            ("footer", "backgroundcolor" | "linecolor" | "linethickness") => {
                self.footer_frame.apply(property, value, color, transparent, number)
            }
            ("destroy", "linecolor") => set!(self.destroy_color, color),
            ("document", "linecolor") => self.apply_skinparam("diagrambordercolor", value),
            ("document", "linethickness") => self.apply_skinparam("diagramborderthickness", value),
            _ => {}
        }
    }

    /// `participant { BackGroundColor }` and `skinparam
    /// participantBackgroundColor` colour the `participant` kind only: the
    /// other kinds keep their look (observed with PlantUML 1.2026.8).
    fn set_participant_only_bg(&mut self, color: Option<Color>, value: &str) {
        if let Some(c) = color {
            for (i, kind) in ParticipantKind::ALL.iter().enumerate() {
                if *kind != ParticipantKind::Participant && self.kind_bg[i].is_none() {
                    self.kind_bg[i] = Some(self.participant_bg);
                    self.kind_gradient[i] = self.participant_gradient;
                }
            }
            self.participant_bg = c;
            self.participant_gradient = parse_gradient(value);
        }
    }

    /// One kind's own fill (`actor { BackGroundColor … }`), with its gradient.
    fn set_kind_bg(&mut self, kind: usize, color: Option<Color>, value: &str) {
        if let Some(c) = color {
            self.kind_bg[kind] = Some(c);
            self.kind_gradient[kind] = parse_gradient(value);
        }
    }

    fn set_participant_only_border(&mut self, color: Option<Color>) {
        if let Some(c) = color {
            for (i, kind) in ParticipantKind::ALL.iter().enumerate() {
                if *kind != ParticipantKind::Participant {
                    self.kind_border[i] = Some(self.kind_border[i].unwrap_or(self.participant_border));
                }
            }
            self.participant_border = c;
        }
    }

    /// The font of a participant's name (its kind's size and face, or
    /// the participants' default).
    pub fn participant_head_font(&self, kind: ParticipantKind) -> Font {
        let i = kind_index(kind);
        let style = self.kind_font_style[i].unwrap_or_default();
        Font {
            family: self.kind_font_family[i].unwrap_or(self.font_family),
            bold: self.kind_font_bold[i].unwrap_or(self.font_bold) || style.bold,
            italic: style.italic,
            ..Font::sans(self.kind_font_size[i].unwrap_or(self.participant_font_size))
        }
    }

    /// A participant kind's stereotype line (its own skinparams).
    pub fn participant_stereotype_font(&self, kind: ParticipantKind) -> StereotypeFont {
        self.stereotype_font[kind_index(kind)]
    }

    fn set_kind_line_thickness(&mut self, kind: usize, width: Option<f64>) {
        let width = if kind == kind_index(ParticipantKind::Actor) {
            actor_thickness(width)
        } else {
            width.filter(|w| (0.0..=20.0).contains(w))
        };
        if let Some(w) = width {
            self.kind_line_thickness[kind] = Some(w);
        }
    }

    /// The outline width of a participant head of `kind`.
    pub fn participant_line_thickness(&self, kind: ParticipantKind) -> f64 {
        self.kind_line_thickness[kind_index(kind)].unwrap_or(crate::shapes::DEFAULT_LINE_THICKNESS)
    }

    /// The frame around the whole drawing: its colour and width, when one
    /// is asked for.
    pub fn diagram_border(&self) -> Option<(Color, f64)> {
        if self.diagram_border_color.is_none() && self.diagram_border_thickness.is_none() {
            return None;
        }
        Some((
            self.diagram_border_color.unwrap_or(Color::BLACK),
            self.diagram_border_thickness.unwrap_or(1.0),
        ))
    }

    /// The font colour of a participant's name.
    pub fn participant_font_color(&self, kind: ParticipantKind) -> Color {
        self.kind_font_color[kind_index(kind)].unwrap_or(self.participant_font_color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_names_select_the_face_java_falls_back_to() {
        // Observed with PlantUML 1.2026.8 on a machine whose fonts are the
        // DejaVu families (text widths in its SVG).
        let cases: [(FontFamily, &[&str]); 5] = [
            (
                FontFamily::Serif,
                &[
                    "serif",
                    "Serif",
                    "SERIF",
                    "TimesRoman",
                    "TimesRoman Bold",
                    "DejaVu Serif",
                    "Dejavu Serif",
                    "dejavu serif",
                    "Serif Bold",
                    "Serif Italic",
                    "DejaVu Serif Bold",
                    "DejaVu Serif Italic",
                    "Serif.plain",
                    "Serif.bolditalic",
                    "DejaVu Serif, serif",
                    "\"DejaVu Serif, serif\"",
                    "Serif,Courier",
                    "DejaVu Math TeX Gyre",
                ],
            ),
            (
                FontFamily::Mono,
                &[
                    "Courier",
                    "Monospaced",
                    "DejaVu Sans Mono",
                    "DialogInput",
                    "DialogInput Bold",
                    "Courier Bold",
                    "Courier Italic",
                    "Courier Plain",
                    "Monospaced Bold",
                    "Monospaced.bold",
                    "Monospaced.italic",
                    "DejaVu Sans Mono Bold",
                    "DejaVu Sans Mono Oblique",
                    "DejaVu Sans Mono Bold Oblique",
                    "Courier,Serif",
                ],
            ),
            (
                FontFamily::SerifCondensed,
                &[
                    "DejaVu Serif Condensed",
                    "dejavu serif condensed",
                    "DejaVu Serif Condensed Bold",
                    "DejaVu Serif Condensed Italic",
                ],
            ),
            (
                FontFamily::SansCondensed,
                &[
                    "DejaVu Sans Condensed",
                    "DejaVu Sans Condensed Bold",
                    "DejaVu Sans Condensed Oblique",
                ],
            ),
            (
                FontFamily::Sans,
                &[
                    "Times",
                    "Times New Roman",
                    "Georgia",
                    "Liberation Serif",
                    "DejaVuSerif",
                    "DejaVu Serif Book",
                    "DejaVu Serif  Condensed",
                    "Serif Regular",
                    "serif bold italic",
                    "Serif Foo",
                    "sans-serif",
                    "SansSerif",
                    "VL Gothic",
                    "Verdana",
                    // Monospaced names Java does not have fall back to sans.
                    "Consolas",
                    "CONSOLAS",
                    "Menlo",
                    "Monaco",
                    "Courier New",
                    "courier new",
                    "Courier Oblique",
                    "Courier Bold Italic",
                    "Courier Foo",
                    "Courier.bold",
                    "Courier 10 Pitch",
                    "Lucida Console",
                    "monospace",
                    "Mono",
                    "Fira Mono",
                    "JetBrains Mono",
                    "DejaVuSansMono",
                    "DejaVu Sans Mono Book",
                    "DejaVu Sans Mono Foo",
                    "Foo,Courier",
                    "Consolas,Courier",
                ],
            ),
        ];
        for (family, names) in cases {
            for name in names {
                assert_eq!(family_of(name), family, "{name}");
            }
        }
    }

    #[test]
    fn style_font_names_reach_the_elements_plantuml_gives_them() {
        let mut theme = Theme::default();
        theme.apply_style_rule("header", "fontname", "serif");
        for element in [TextElement::Header, TextElement::GroupTab, TextElement::RefTab] {
            assert_eq!(theme.font_of(element, 10.0).family, FontFamily::Serif);
        }
        assert_eq!(theme.font_of(TextElement::Title, 10.0).family, FontFamily::Sans);
        theme.apply_style_rule("document", "fontname", "Courier");
        assert_eq!(theme.font_of(TextElement::Legend, 10.0).family, FontFamily::Mono);
        assert_eq!(theme.font_of(TextElement::Message, 10.0).family, FontFamily::Sans);
        theme.apply_style_rule("element", "fontname", "serif");
        assert_eq!(theme.font_of(TextElement::Message, 10.0).family, FontFamily::Serif);
        assert_eq!(
            theme.participant_head_font(ParticipantKind::Actor).family,
            FontFamily::Serif
        );
        // A later defaultFontName replaces every element's face.
        theme.apply_skinparam("defaultFontName", "Arial");
        assert_eq!(theme.font_of(TextElement::Header, 10.0).family, FontFamily::Sans);
        assert_eq!(
            theme.participant_head_font(ParticipantKind::Actor).family,
            FontFamily::Sans
        );
        // Without the `sequence` prefix PlantUML ignores these two.
        theme.apply_skinparam("groupHeaderFontName", "serif");
        assert_eq!(theme.font_of(TextElement::GroupTab, 10.0).family, FontFamily::Sans);
        theme.apply_skinparam("sequenceGroupHeaderFontName", "serif");
        assert_eq!(theme.font_of(TextElement::GroupTab, 10.0).family, FontFamily::Serif);
    }

    #[test]
    fn line_thickness_reaches_the_kinds_plantuml_gives_it() {
        let mut theme = Theme::default();
        theme.apply_style_rule("participant", "linethickness", "2");
        assert_eq!(theme.participant_line_thickness(ParticipantKind::Participant), 2.0);
        assert_eq!(theme.participant_line_thickness(ParticipantKind::Actor), 0.5);
        // A root or element thickness and actorBorderThickness reach the
        // actor only (observed), up to 100 px; other kinds up to 20.
        theme.apply_style_rule("root", "linethickness", "3");
        assert_eq!(theme.participant_line_thickness(ParticipantKind::Actor), 3.0);
        assert_eq!(theme.participant_line_thickness(ParticipantKind::Queue), 0.5);
        theme.apply_skinparam("actorBorderThickness", "30");
        assert_eq!(theme.participant_line_thickness(ParticipantKind::Actor), 30.0);
        theme.apply_style_rule("queue", "linethickness", "30");
        assert_eq!(theme.participant_line_thickness(ParticipantKind::Queue), 0.5);
    }

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
            styles: vec![puml_sema::model::StyleBlock {
                text: "sequenceDiagram {\n note { BackgroundColor #0000ff }\n}".into(),
                after_skinparams: 3,
            }],
            ..Settings::default()
        };
        let theme = Theme::for_settings(&settings, None);
        assert_eq!(theme.arrow_color, Color::hex(0xFF0000));
        assert_eq!(theme.participant_bg, Color::hex(0x00FF00));
        assert_eq!(theme.note_bg, Color::hex(0x0000FF));
        assert_eq!(theme.max_message_size, Some(80.0));
    }

    #[test]
    fn gradients_are_kept_per_element() {
        use crate::scene::GradientDirection;
        let settings = Settings {
            skinparams: vec![
                ("titlebackgroundcolor".into(), "#red|blue".into()),
                ("sequencegroupbackgroundcolor".into(), "#red/blue".into()),
                ("sequencedividerbackgroundcolor".into(), "#red".into()),
            ],
            styles: vec![puml_sema::model::StyleBlock {
                text: "separator { BackGroundColor #white-#gold }\nlegend { BackGroundColor #red\\blue }".into(),
                after_skinparams: 2,
            }],
            ..Settings::default()
        };
        let theme = Theme::for_settings(&settings, None);
        let direction = |g: Option<Gradient>| g.map(|g| g.direction);
        assert_eq!(theme.title_bg, Some(Color::hex(0xFF0000)));
        assert_eq!(direction(theme.fades.title), Some(GradientDirection::LeftToRight));
        assert_eq!(theme.group_header_bg, Color::hex(0xFF0000));
        assert_eq!(
            direction(theme.fades.group_header),
            Some(GradientDirection::TopLeftToBottomRight)
        );
        // The later solid skinparam replaced the style's gradient.
        assert_eq!(theme.divider_bg, Color::hex(0xFF0000));
        assert_eq!(theme.fades.divider, None);
        assert_eq!(
            direction(theme.fades.legend),
            Some(GradientDirection::BottomLeftToTopRight)
        );
        assert_eq!(theme.fades.boxes, None);
    }
}
