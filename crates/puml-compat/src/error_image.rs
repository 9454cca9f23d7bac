//! The picture drawn in place of a diagram that cannot be drawn, laid out
//! as PlantUML lays out its own: a black panel, the source in green up to
//! the faulty line (underlined), and the message in red under it. Tools
//! that show PlantUML's error image show this one the same way, and a
//! reader sees where the diagram broke without opening the source.

use puml_layout::{Color, EmbeddedMetrics, Font, FontFamily, Item, Paint, Scene, Stroke, TextMeasure, TextRun};

/// PlantUML's colours for the error panel (observed in its SVGs).
const PANEL: Color = Color::BLACK;
const SOURCE_GREEN: Color = Color::hex(0x33FF02);
const MESSAGE_RED: Color = Color::hex(0xFF0000);
/// PlantUML draws its error text in 14 px bold with 16.3 px lines.
const TEXT_SIZE: f64 = 14.0;
const LINE_HEIGHT: f64 = 16.297;
const MARGIN: f64 = 5.0;
/// The header's baseline, the "[From …]" tab's top and the tab's height
/// (PlantUML 1.2026.8's error SVGs: baselines 17, 41.969, then the blank
/// line at 62.266 and one line every [`LINE_HEIGHT`]).
const HEADER_BASELINE: f64 = 17.0;
const TAB_TOP: f64 = 26.969;
const TAB_HEIGHT: f64 = 21.297;
const TAB_BASELINE: f64 = TAB_TOP + 15.0;
const BLANK_BASELINE: f64 = TAB_BASELINE + 4.0 + LINE_HEIGHT;
/// The width of one leading space of a source line (bold 14 px): PlantUML
/// shows each line trimmed and moved right by its indentation, a tab
/// counting as [`TAB_SPACES`] spaces.
const INDENT_STEP: f64 = 4.874;
const TAB_SPACES: usize = 8;
/// A source whose error is further down than [`SHOWN_WHOLE`] lines is
/// shown as PlantUML shows it: its first [`SHOWN_HEAD`] lines, a
/// "skipping" note, and the [`SHOWN_TAIL`] lines ending with the error
/// (probes with the error on lines 34 to 48); a 5,000-line diagram gives a
/// 31-line image.
const SHOWN_WHOLE: usize = 40;
const SHOWN_HEAD: usize = 5;
const SHOWN_TAIL: usize = 20;
/// Longer source lines are cut (the image stays readable and bounded).
const MAX_LINE_CHARS: usize = 200;

/// One line of the panel: text, font, colour, underlined, x.
type PanelLine = (String, Font, Color, bool, f64);

/// The error panel for `source` (one diagram) with the error on `error_line`
/// (0-based within `source`; past the end means "after the last line"),
/// read from `origin` (a file name; "string" when the text came without
/// one, as PlantUML says). Without a line, only the message is shown (a
/// diagram refused whole).
pub fn error_scene(source: &str, error_line: Option<usize>, message: &str, origin: Option<&str>) -> Scene {
    let mut texts: Vec<PanelLine> = Vec::new();
    let header = format!("puml {} (PlantUML-compatible)", crate::VERSION);
    texts.push((header, Font::sans(12.0).bold().italic(), SOURCE_GREEN, false, MARGIN));
    if let Some(error_line) = error_line {
        let lines: Vec<&str> = source.lines().collect();
        let shown_end = error_line.saturating_add(1).min(lines.len());
        // PlantUML shows the source as its preprocessor leaves it: without
        // the lines that are comments (`' …`, `/' … '/`), the line number
        // in the tab staying the file's.
        let shown = uncommented(&lines[..shown_end]);
        texts.push((
            format!(
                "[From {} (line {}) ]",
                origin.unwrap_or("string"),
                error_line.saturating_add(1)
            ),
            bold(),
            Color::BLACK,
            false,
            MARGIN + 1.0,
        ));
        texts.push((String::new(), bold(), SOURCE_GREEN, false, MARGIN));
        let source_line = |position: usize| -> PanelLine {
            let index = shown[position];
            let (text, indent) = indented(lines.get(index).copied().unwrap_or(""));
            let x = MARGIN + INDENT_STEP * indent as f64;
            (cut(text), bold(), SOURCE_GREEN, index == error_line, x)
        };
        let shown_end = shown.len();
        if shown_end > SHOWN_WHOLE {
            let tail_start = shown_end - SHOWN_TAIL;
            texts.extend((0..SHOWN_HEAD).map(source_line));
            let skipped = tail_start - SHOWN_HEAD;
            for note in [
                "...".to_string(),
                format!("... ( skipping {skipped} lines )"),
                "...".into(),
            ] {
                texts.push((note, bold(), SOURCE_GREEN, false, MARGIN));
            }
            texts.extend((tail_start..shown_end).map(source_line));
        } else {
            texts.extend((0..shown_end).map(source_line));
        }
    } else {
        texts.push((String::new(), bold(), SOURCE_GREEN, false, MARGIN));
    }
    for line in message.lines().take(8) {
        texts.push((cut(line), bold(), MESSAGE_RED, false, MARGIN + INDENT_STEP));
    }

    let metrics = EmbeddedMetrics;
    let width_of = |text: &str, font: &Font| metrics.width(text, font);
    let content_width = texts
        .iter()
        .map(|(text, font, _, _, x)| x + width_of(text, font))
        .fold(0.0_f64, f64::max);
    let width = (content_width + MARGIN + 10.0).ceil().max(200.0);
    let with_tab = error_line.is_some();
    let last_baseline = if with_tab {
        BLANK_BASELINE + LINE_HEIGHT * texts.len().saturating_sub(3) as f64
    } else {
        HEADER_BASELINE + LINE_HEIGHT * texts.len().saturating_sub(1) as f64
    };
    let height = (last_baseline + 8.0).ceil();

    let mut items = vec![Item::Rect {
        x: 0.0,
        y: 0.0,
        width,
        height,
        radius: 0.0,
        paint: Paint {
            fill: Some(PANEL),
            stroke: Some(Stroke {
                color: PANEL,
                width: 1.0,
                dash: None,
            }),
            gradient: None,
            shadow: None,
        },
    }];
    let mut baseline = HEADER_BASELINE;
    for (index, (text, font, color, underline, x)) in texts.into_iter().enumerate() {
        let text_width = width_of(&text, &font);
        if index == 1 && with_tab {
            // The "[From …]" tab: black text on a green label.
            items.push(Item::Rect {
                x: MARGIN,
                y: TAB_TOP,
                width: text_width + 2.0,
                height: TAB_HEIGHT,
                radius: 0.0,
                paint: Paint {
                    fill: Some(SOURCE_GREEN),
                    stroke: None,
                    gradient: None,
                    shadow: None,
                },
            });
            baseline = TAB_BASELINE;
        } else if index == 2 && with_tab {
            baseline = BLANK_BASELINE;
        }
        items.push(Item::Text(TextRun {
            x,
            y: baseline,
            text,
            font,
            color,
            width: text_width,
            underline,
            strike: false,
            link: None,
        }));
        baseline += LINE_HEIGHT;
    }
    Scene {
        width,
        height,
        background: PANEL,
        items,
    }
}

fn bold() -> Font {
    Font {
        family: FontFamily::Sans,
        size: TEXT_SIZE,
        bold: true,
        italic: false,
    }
}

/// The indexes of the lines that are not comments: a line starting with
/// `'`, and every line of a `/' … '/` block (observed: PlantUML 1.2026.8's
/// error picture leaves them out; a comment after a statement stays).
fn uncommented(lines: &[&str]) -> Vec<usize> {
    let mut kept = Vec::with_capacity(lines.len());
    let mut in_block = false;
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if in_block {
            in_block = !trimmed.contains("'/");
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("/'") {
            in_block = !rest.contains("'/");
            continue;
        }
        if trimmed.starts_with('\'') {
            continue;
        }
        kept.push(index);
    }
    kept
}

/// The line without its surrounding blanks, and its indentation in spaces.
fn indented(line: &str) -> (&str, usize) {
    let line = line.trim_end();
    let trimmed = line.trim_start();
    let indent = line[..line.len() - trimmed.len()]
        .chars()
        .map(|c| if c == '\t' { TAB_SPACES } else { 1 })
        .sum::<usize>()
        .min(MAX_LINE_CHARS);
    (trimmed, indent)
}

fn cut(line: &str) -> String {
    if line.chars().count() <= MAX_LINE_CHARS {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(MAX_LINE_CHARS).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(scene: &Scene) -> Vec<(String, bool)> {
        scene.texts().map(|run| (run.text.clone(), run.underline)).collect()
    }

    #[test]
    fn shows_the_source_up_to_the_error_and_the_message() {
        let scene = error_scene(
            "@startuml\nA -> B : hi\n  foo bar baz\nC -> D\n@enduml\n",
            Some(2),
            "Syntax Error?",
            None,
        );
        let texts = texts(&scene);
        assert_eq!(texts[1].0, "[From string (line 3) ]");
        let shown: Vec<&str> = texts[3..].iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(shown, ["@startuml", "A -> B : hi", "foo bar baz", "Syntax Error?"]);
        assert!(texts.iter().any(|(t, underlined)| t == "foo bar baz" && *underlined));
        let indented = scene.texts().find(|run| run.text == "foo bar baz").map(|run| run.x);
        assert_eq!(indented, Some(MARGIN + 2.0 * INDENT_STEP), "indented by its two spaces");
        assert!(scene.width >= 200.0 && scene.height > 90.0);
    }

    #[test]
    fn comment_lines_are_left_out_as_plantuml_leaves_them_out() {
        // PlantUML 1.2026.8 on this text shows `@startuml`, the two
        // statements (the trailing comment kept) and the failing line.
        let source = "@startuml\n' a comment\nAlice -> Bob : hi\n/' block\n  comment '/\n  ' indented\nBob -> Alice : x ' trailing\nfoo bar baz (\n@enduml\n";
        let scene = error_scene(source, Some(7), "Syntax Error?", Some("comments.puml"));
        let texts = texts(&scene);
        assert_eq!(texts[1].0, "[From comments.puml (line 8) ]");
        let shown: Vec<&str> = texts[3..].iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            shown,
            [
                "@startuml",
                "Alice -> Bob : hi",
                "Bob -> Alice : x ' trailing",
                "foo bar baz (",
                "Syntax Error?"
            ]
        );
        assert!(texts.iter().any(|(t, underlined)| t == "foo bar baz (" && *underlined));
    }

    #[test]
    fn a_huge_source_gives_a_bounded_image() {
        let source = format!("@startuml\n{}@enduml\n", format!("{}\n", "x".repeat(5000)).repeat(5000));
        let scene = error_scene(&source, Some(4000), "boom", Some("big.puml"));
        let texts = texts(&scene);
        assert_eq!(texts.len(), 3 + SHOWN_HEAD + 3 + SHOWN_TAIL + 1);
        assert_eq!(texts[1].0, "[From big.puml (line 4001) ]");
        assert_eq!(texts[3 + SHOWN_HEAD + 1].0, "... ( skipping 3976 lines )");
        assert!(scene.width < 3000.0, "{}", scene.width);
    }
}
