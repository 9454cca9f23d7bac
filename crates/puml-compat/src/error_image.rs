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
/// At most this many source lines are shown above the error (the ones
/// just before it): a 5,000-line diagram must not give a 5,000-line image.
const MAX_SOURCE_LINES: usize = 40;
/// Longer source lines are cut (the image stays readable and bounded).
const MAX_LINE_CHARS: usize = 200;

/// The error panel for `source` (one diagram) with the error on `error_line`
/// (0-based within `source`; past the end means "after the last line").
/// Without a line, only the message is shown (a diagram refused whole).
pub fn error_scene(source: &str, error_line: Option<usize>, message: &str) -> Scene {
    let mut texts = Vec::new();
    let header = format!("puml {} (PlantUML-compatible)", crate::VERSION);
    texts.push((header, Font::sans(12.0).bold().italic(), SOURCE_GREEN, false));
    if let Some(error_line) = error_line {
        let lines: Vec<&str> = source.lines().collect();
        let shown_end = error_line.saturating_add(1).min(lines.len());
        let shown_start = shown_end.saturating_sub(MAX_SOURCE_LINES);
        texts.push((
            format!("[From string (line {}) ]", error_line.saturating_add(1)),
            bold(),
            Color::BLACK,
            false,
        ));
        texts.push((String::new(), bold(), SOURCE_GREEN, false));
        if shown_start > 0 {
            texts.push((format!("… {shown_start} line(s) above"), bold(), SOURCE_GREEN, false));
        }
        for (index, line) in lines.iter().enumerate().take(shown_end).skip(shown_start) {
            let shown = cut(line.trim_end_matches('\r'));
            texts.push((shown, bold(), SOURCE_GREEN, index == error_line));
        }
    } else {
        texts.push((String::new(), bold(), SOURCE_GREEN, false));
    }
    for line in message.lines().take(8) {
        texts.push((cut(line), bold(), MESSAGE_RED, false));
    }

    let metrics = EmbeddedMetrics;
    let width_of = |text: &str, font: &Font| metrics.width(text, font);
    let content_width = texts
        .iter()
        .map(|(text, font, _, _)| width_of(text, font))
        .fold(0.0_f64, f64::max);
    let width = (content_width + 2.0 * MARGIN + 10.0).ceil().max(200.0);
    let height = (MARGIN * 2.0 + LINE_HEIGHT * texts.len() as f64 + 8.0).ceil();

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
    let mut baseline = MARGIN + LINE_HEIGHT;
    for (index, (text, font, color, underline)) in texts.into_iter().enumerate() {
        let text_width = width_of(&text, &font);
        if index == 1 && error_line.is_some() {
            // The "[From string …]" tab: black text on a green label.
            items.push(Item::Rect {
                x: MARGIN,
                y: baseline - LINE_HEIGHT + 3.0,
                width: text_width + 2.0,
                height: LINE_HEIGHT + 5.0,
                radius: 0.0,
                paint: Paint {
                    fill: Some(SOURCE_GREEN),
                    stroke: None,
                    gradient: None,
                    shadow: None,
                },
            });
            baseline += 6.0;
        }
        let x = if color == MESSAGE_RED {
            MARGIN + 4.874
        } else {
            MARGIN + f64::from(u8::from(index == 1 && error_line.is_some()))
        };
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
            "@startuml\nA -> B : hi\nfoo bar baz\nC -> D\n@enduml\n",
            Some(2),
            "Syntax Error?",
        );
        let texts = texts(&scene);
        assert_eq!(texts[1].0, "[From string (line 3) ]");
        let shown: Vec<&str> = texts[3..].iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(shown, ["@startuml", "A -> B : hi", "foo bar baz", "Syntax Error?"]);
        assert!(texts.iter().any(|(t, underlined)| t == "foo bar baz" && *underlined));
        assert!(scene.width >= 200.0 && scene.height > 90.0);
    }

    #[test]
    fn a_huge_source_gives_a_bounded_image() {
        let source = format!("@startuml\n{}@enduml\n", format!("{}\n", "x".repeat(5000)).repeat(5000));
        let scene = error_scene(&source, Some(4000), "boom");
        assert!(scene.texts().count() < MAX_SOURCE_LINES + 8);
        assert!(scene.width < 3000.0, "{}", scene.width);
    }
}
