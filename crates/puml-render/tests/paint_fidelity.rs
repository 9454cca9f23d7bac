//! Paint fidelity against PlantUML without Java: every `test-data/themes`
//! probe (one per PlantUML theme), `test-data/styles` probe (one per
//! `<style>` property or cascade rule), `test-data/activity-styles` probe
//! (activity fonts, colours and partitions from skinparams and styles) and
//! `test-data/fonts` probe (font names Java lacks, condensed faces) is rendered by puml and compared with
//! PlantUML's SVG kept beside it (`NAME.plantuml.svg`, rendered by
//! PlantUML 1.2026.8). As `/work/shared/tools/paint-fidelity` does, a paint
//! is a (role, colour) pair: `text` (a font colour), `fill` or `stroke` of
//! a shape; gradients, transparent paints and the page background are left
//! out. Prints the figures per file; fails under the floor reached (minus a
//! small margin), so the themes and the style cascade never regress.
//!
//! Each probe also has two snapshots beside it: puml's SVG (`NAME.svg`)
//! and its measured distance to PlantUML's (`NAME.fidelity`: the paints
//! matched and missing, and how many of PlantUML's texts puml draws within
//! 2 px of the same place), so a change to a theme or to the cascade shows
//! in review as a change of picture and of distance. `UPDATE_EXPECT=1`
//! rewrites them.

use puml_layout::{layout, LayoutOptions};
use puml_render::to_svg;
use puml_sema::{analyze, AnalysisOptions, NoIncludes};
use std::collections::BTreeSet;
use std::path::PathBuf;

type Paints = BTreeSet<(&'static str, String)>;

fn norm(value: &str) -> Option<String> {
    let c = value.trim();
    let lower = c.to_ascii_lowercase();
    if c.is_empty() || lower == "none" || lower == "transparent" || c.starts_with("url(") {
        return None;
    }
    let named = [
        ("black", "000000"),
        ("white", "FFFFFF"),
        ("red", "FF0000"),
        ("green", "008000"),
        ("blue", "0000FF"),
        ("gray", "808080"),
        ("grey", "808080"),
        ("silver", "C0C0C0"),
        ("yellow", "FFFF00"),
    ];
    if let Some((_, hex)) = named.iter().find(|(n, _)| *n == lower) {
        return Some(format!("#{hex}"));
    }
    let hex = c.strip_prefix('#')?;
    if !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
        return Some(c.to_string());
    }
    match hex.len() {
        3 => Some(format!(
            "#{}",
            hex.chars().flat_map(|ch| [ch, ch]).collect::<String>().to_uppercase()
        )),
        6 | 8 => Some(format!("#{}", hex[..6].to_uppercase())),
        _ => Some(c.to_string()),
    }
}

fn paints(svg: &str) -> Paints {
    let doc = roxmltree::Document::parse(svg).expect("an SVG document");
    let root = doc.root_element();
    let (w, h) = (
        root.attribute("width").unwrap_or(""),
        root.attribute("height").unwrap_or(""),
    );
    let mut out = Paints::new();
    for el in root.descendants().filter(|n| n.is_element()) {
        let tag = el.tag_name().name();
        let shape = ["rect", "ellipse", "circle", "polygon", "path", "line", "polyline"].contains(&tag);
        if !shape && tag != "text" {
            continue;
        }
        let style: Vec<(&str, &str)> = el
            .attribute("style")
            .unwrap_or("")
            .split(';')
            .filter_map(|kv| kv.split_once(':'))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let get = |k: &str| {
            el.attribute(k)
                .or_else(|| style.iter().find(|(sk, _)| *sk == k).map(|(_, v)| *v))
        };
        let invisible = |k: &str| matches!(get(k).unwrap_or("1").trim(), "0" | "0.0");
        let mut fill = get("fill").and_then(norm);
        let mut stroke = get("stroke").and_then(norm);
        if invisible("fill-opacity") || invisible("opacity") {
            fill = None;
        }
        if invisible("stroke-opacity") || invisible("opacity") || invisible("stroke-width") {
            stroke = None;
        }
        if tag == "text" {
            if let Some(f) = fill {
                out.insert(("text", f));
            }
            continue;
        }
        let at_origin = |k: &str| matches!(el.attribute(k).unwrap_or("0"), "0" | "0.0");
        let width = el.attribute("width");
        let page = tag == "rect"
            && at_origin("x")
            && at_origin("y")
            && (width == Some(w.trim_end_matches("px")) || width == Some(w))
            && stroke.is_none();
        let _ = h;
        if page {
            continue;
        }
        if let Some(f) = fill.filter(|_| tag != "line" && tag != "polyline") {
            out.insert(("fill", f));
        }
        if let Some(s) = stroke {
            out.insert(("stroke", s));
        }
    }
    out
}

/// Every `<text>` of an SVG: its string and anchor.
fn texts(svg: &str) -> Vec<(String, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("an SVG document");
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let text: String = n.descendants().filter_map(|d| d.text()).collect();
            let x = n.attribute("x")?.parse().ok()?;
            let y = n.attribute("y")?.parse().ok()?;
            Some((text.replace('\u{a0}', " ").trim().to_string(), x, y))
        })
        .filter(|(t, _, _)| !t.is_empty())
        .collect()
}

/// How many of PlantUML's texts puml draws within 2 px (each matched with
/// the nearest unused puml text of the same string, as
/// `/work/shared/tools/geometry-fidelity` does).
fn texts_placed(theirs: &str, ours: &str) -> (usize, usize) {
    let theirs = texts(theirs);
    let mut ours = texts(ours);
    let mut placed = 0;
    for (text, x, y) in &theirs {
        let nearest = ours
            .iter()
            .enumerate()
            .filter(|(_, (t, _, _))| t == text)
            .map(|(i, (_, ox, oy))| (i, (ox - x).abs().max((oy - y).abs())))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, distance)) = nearest {
            if distance <= 2.0 {
                placed += 1;
            }
            ours.swap_remove(i);
        }
    }
    (placed, theirs.len())
}

/// Figures over one probe directory.
struct Measured {
    paints_matched: usize,
    paints: usize,
    texts_placed: usize,
    texts: usize,
    /// Probes whose paints all agree with PlantUML's (none missing, none extra).
    agreeing: usize,
    probes: usize,
}

/// Every paint of PlantUML's in `dir`'s probes used by puml, and at least
/// `texts_at_least` of their texts within 2 px.
fn assert_every_paint_and_texts_placed(dir: &str, texts_at_least: usize) {
    assert_paints_and_texts_placed(dir, None, texts_at_least);
}

/// `dir`'s probes match at least `paints_at_least` of PlantUML's paints
/// (every one when `None`) and place at least `texts_at_least` texts.
fn assert_paints_and_texts_placed(dir: &str, paints_at_least: Option<usize>, texts_at_least: usize) {
    let measured = measure(dir);
    let paints_floor = paints_at_least.unwrap_or(measured.paints);
    assert!(
        measured.texts_placed >= texts_at_least && measured.paints_matched >= paints_floor,
        "{dir}: {}/{} texts within 2 px, {}/{} paints",
        measured.texts_placed,
        measured.texts,
        measured.paints_matched,
        measured.paints
    );
}

/// (matched, PlantUML's paints) per probe of `dir`, printed; checks each
/// probe's SVG and fidelity snapshots.
fn measure(dir: &str) -> Measured {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("probe directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    let (mut matched, mut total) = (0, 0);
    let (mut placed_total, mut texts_total) = (0, 0);
    let (mut agreeing, mut probes) = (0, 0);
    for file in files {
        let reference = file.with_extension("plantuml.svg");
        let Ok(theirs) = std::fs::read_to_string(&reference) else {
            continue;
        };
        let source = std::fs::read_to_string(&file).expect("probe");
        let analysis = analyze(&source, &AnalysisOptions::default(), &NoIncludes);
        let diagram = &analysis.document.diagrams[0];
        let scene = &layout(diagram, &LayoutOptions::default())[0];
        let our_svg = to_svg(scene);
        let (placed, text_total) = texts_placed(&theirs, &our_svg);
        let ours = paints(&our_svg);
        let their_paints = paints(&theirs);
        let n = their_paints.intersection(&ours).count();
        probes += 1;
        if their_paints == ours {
            agreeing += 1;
        }
        let missing: Vec<String> = their_paints
            .difference(&ours)
            .map(|(r, c)| format!("{r} {c}"))
            .collect();
        expect_test::expect_file![file.with_extension("svg")].assert_eq(&our_svg);
        let report = format!(
            "paints: {n}/{} of PlantUML's\nmissing: {}\ntexts within 2 px: {placed}/{text_total}\n",
            their_paints.len(),
            if missing.is_empty() {
                "none".to_string()
            } else {
                missing.join(", ")
            }
        );
        expect_test::expect_file![file.with_extension("fidelity")].assert_eq(&report);
        let theirs = their_paints;
        println!(
            "{:>3}/{:<3} {}  missing: {}",
            n,
            theirs.len(),
            file.file_name().unwrap_or_default().to_string_lossy(),
            missing.join(", ")
        );
        matched += n;
        total += theirs.len();
        placed_total += placed;
        texts_total += text_total;
    }
    println!(
        "{dir}: {matched}/{total} = {:.1}% of PlantUML's paints; {agreeing}/{probes} probes whose paints all agree",
        100.0 * matched as f64 / total.max(1) as f64,
        dir = dir.display()
    );
    Measured {
        paints_matched: matched,
        paints: total,
        texts_placed: placed_total,
        texts: texts_total,
        agreeing,
        probes,
    }
}

fn assert_floor(dir: &str, floor: f64, min_agreeing: usize) {
    let Measured {
        paints_matched: matched,
        paints: total,
        agreeing,
        probes,
        ..
    } = measure(dir);
    assert!(
        agreeing >= min_agreeing,
        "{dir}: {agreeing}/{probes} probes whose paints all agree, under the floor {min_agreeing}"
    );
    assert!(total > 0, "no probes in {dir}");
    let share = 100.0 * matched as f64 / total as f64;
    assert!(
        share >= floor,
        "{dir}: {share:.1}% of PlantUML's paints, under the floor {floor}%"
    );
}

#[test]
fn plantuml_themes_paint_like_plantuml() {
    // Reached: 100% (672/672) over the 44 theme probes, all 44 of them whose
    // paints all agree (97.2% and 14 before unfilled legends, tabs, heads,
    // notes and dividers and filtered shadows); the default look alone was 25.6%.
    assert_floor("themes", 99.5, 44);
}

#[test]
fn style_probes_paint_like_plantuml() {
    // Reached: 100% (232/232) over 19 `<style>` probes, all 19 whose paints
    // all agree (216/216 over 17 before the header tabs' own outlines;
    // 98.6% and 14 before root line colours, white bars under a lifeLine
    // background, stereotype-coloured bars); 22 with the three probes of
    // `sequenceLifeLine…` keys outranking bare `LifeLine…` ones; 23 with
    // message circles black inside an outline of the arrow's colour; 26
    // with a bar's colour dropped after another participant's `activate`.
    assert_floor("styles", 99.5, 26);
}

#[test]
fn themes_space_participants_like_plantuml() {
    // Two participants and a message under each of the 44 themes (scale,
    // page margin, participant padding and margins): 170/176 texts within
    // 2 px of PlantUML's (materia's 3 px wider spacing is not modelled).
    let measured = measure("theme-spacing");
    assert!(
        measured.texts_placed >= 166,
        "{}/{} texts within 2 px",
        measured.texts_placed,
        measured.texts
    );
}

#[test]
fn theme_probes_place_texts_like_plantuml() {
    // The full probe (every participant kind in boxes, groups, a divider,
    // a ref, a delay, title, header, footer, legend) under each of the 44
    // themes: all 1,673 texts within 2 px of PlantUML's, every theme whole
    // (18.6 % before the themes' header/title/legend/footer spacing, box
    // padding, collections spacing and element font sizes were observed;
    // 88.2 % before the actor's stroke, the queue's row, shadows' room,
    // black-knight's centred notes and header, and sunlust's DejaVu Serif,
    // per-element font names, heads' LineThickness and awesome actors).
    let measured = measure("themes");
    assert!(
        measured.texts_placed >= 1_663,
        "{}/{} texts within 2 px",
        measured.texts_placed,
        measured.texts
    );
}

#[test]
fn activity_style_probes_paint_and_place_like_plantuml() {
    // 25 activity probes: activityFontName/Size/Color reaching the
    // diamond, `<style> activityDiagram { activity | diamond | partition |
    // arrow }`, partition backgrounds, fonts and widths, multi-line
    // conditions, swimlane title fonts, element font names, and the page's
    // decorations one at a time (`page_*`): 188/188 paints, 105/111 texts
    // within 2 px (172/188 and 31/111 before; 100/111 before the `while`
    // label's room followed its first line).
    assert_every_paint_and_texts_placed("activity-styles", 105);
}

#[test]
fn activity_theme_probes_paint_and_place_like_plantuml() {
    // One activity probe (title, start, actions, if/else, a partition
    // around a fork, a note, while, stop), one with swimlanes and one with
    // a header, a legend, a caption and a footer under each of PlantUML's themes and `skin rose`, and `<style>` probes for
    // the activity selectors PlantUML honours (`activity`, `diamond`,
    // `arrow`, `partition`, `note`, `circle`, `start`, `stop`,
    // `activityBar`, `swimlane`, the diagram's root, a top-level `title`),
    // a group with a legend under cerulean and amiga, and cerulean under
    // the diagram's own skin parameters (corpus activity 025's).
    // 1299/1301 paints, 1249/1367 texts within 2 px (878/1301 and
    // 250/1367 before the themes' activity rules, 1168 before the fork
    // spacing); the texts left are mostly the lanes' columns and amiga's
    // legend room. 1273/1367 with a `fork` bar reaching 14 px past its
    // branches before the page-wide compression; 1349/1367 with a `while`
    // of actions laid out before PlantUML's vertical compression (a
    // `stop` on its exit line holds the rows under the `is` label: 53
    // probes 15/16 -> 16/16).
    assert_paints_and_texts_placed("activity-themes", Some(1299), 1340);
}

#[test]
fn activity_layout_probes_place_texts_like_plantuml() {
    // PlantUML's notices for actions coloured the deprecated way
    // (`#color:text…;` over several lines: one line per colour, a box
    // standing on the drawing under the title and a top legend, the action
    // left uncoloured), and the room a repeat loop keeps around its
    // condition (alone, nested, labelled, with a backward action, under a
    // wider action or condition): 50/51 texts within 2 px, every paint
    // (6/51 texts before). `fork`/`split` branches centred on the longest
    // one's rows, the 28 px gap under the bars' middle; loop bodies, a lone
    // `if` branch and a `backward` action on the same rows (lifted under a
    // `repeat :label;`), a `while` label's room from its first line, an
    // `if` whose other branch stops (no merge), a `then` that stops or
    // detaches beside the diamond, an `if` label's room, `split` spacing,
    // where the flow crosses a `fork`, `switch` cases, a note after
    // `endif`, an `elseif` chain's `else` column, the flow's clearance
    // beside a partition: 320/320 (185/320 with the layout before these
    // rules). PlantUML's readings of arrow labels (a label without `;`
    // running on to the next `;`, the last of two labels in a row, the
    // first colour) and `repeat while (c) -> label` (the label beside the
    // way back; the `is` label pushing a backward action right): 540/540;
    // a `then` that stops, kills or detaches beside the diamond above a
    // non-empty `else`: 574/574; an `elseif` chain's shorter `else`
    // centred on the longest branch's rows: 600/600. A tall note after
    // `start` (seed 001's workflows, with and without swimlanes) and a
    // 23 px title: 627/627. A `switch`'s cases spread apart for the arms
    // (two one-letter cases, a wide condition, a wide first case that does
    // not spread them; labels and cases lower when spread): 661/661; cases
    // without labels 20 px under the diamond: 668/668.
    assert_every_paint_and_texts_placed("activity-layout", 668);
}

#[test]
fn activity_generated_probes_place_texts_like_plantuml() {
    // `scripts/activity_probes.py`: each construct (if/elseif/else, lone
    // if, while with an exit label, repeat with and without `backward`,
    // fork of uneven branches, `end merge`, split, switch, notes right,
    // left over lines and floating, partition, group, detach and kill in a
    // branch, arrow colours and styles, connectors, swimlanes) x three
    // label widths x nesting depth (alone, in a while, in an if in a
    // repeat) x a narrow or wide step before it; not fitted one by one.
    // 540/791 texts within 2 px, 783/801 paints with the layout they were
    // generated for; 609/791, 795/801 with `group`'s notices and a killed
    // `then` beside its diamond; 615/791 with half the room after a flow
    // that ended; 621/791 with a shorter `else` on an `elseif` chain's rows;
    // 623/791 with a `switch`'s middle case right of its diamond; 629/791
    // with a wide shape beside its diamond moved 9 px at most; 641/791 with
    // an `elseif` branch's label counted without its 4 px offset. With each
    // construct also inside a partition and forks with notes (183 probes):
    // 926/1258 texts, 1039/1258 with the partition's frame around each
    // construct as PlantUML draws it (`Tile::frame`: 2 px beyond an `if`'s
    // branches, a loop's exit label outside, a body reaching above its first
    // step sunk 3 px); 1317/1326 paints. 1101/1258 with PlantUML's
    // page-wide compression (`activity/compress.rs`: `fork` branches 28 px
    // apart, uncovered stripes closed to 10 px) and an `if` holding a
    // `fork` on the half-row grid. With probes of those two rules
    // (`if_fork_rows_*`, `if_note_first_*`; 201 probes): 1273/1454 texts,
    // 1458/1467 paints. With probes of partitions opening a branch, forks of
    // partitions and a lone branch of unequal steps (237 probes):
    // 1472/1810 texts with a branch's opening partition starting at the
    // branch's top and a `fork` bar's 2 px ends holding columns apart in
    // the compression (6 more than without the bar's ends); 1494/1810 with
    // a lone branch's middle gap shrunk by half its halves' difference
    // (`layout_lone_branch`); 1539/1810 with the partitions opening a
    // `fork`'s branches 20 px under its bar inside an `if` branch with a
    // non-empty branch beside it (`Ctx::beside_branch`); 1536/1810 with a
    // partition's frame holding columns apart by its 2 px sides only (its
    // title too when wider than what it holds) and 10 px of room right
    // and left of a two-branch `if` for the compression to close (corpus
    // activity 009 whole; `while_exit_short_d4` loses 6); 1740/1749 paints.
    // With probes of an `if` opening an `else` (246 probes): 1643/1917
    // texts with that `if`'s 10 px of room beside the outer branches
    // (`NESTED_IF_ROOM`; without it those probes place 1 text in 11 to
    // 14), 1797/1806 paints. 1711/1917 with a step sharing a row with a
    // taller step of another `fork` branch widening the gaps beside it by
    // half the difference, at most 15 px (`row_height_extras`; the probes
    // `fork_partition_if_*`: 81 misses to 13); with probes of that rule
    // (`fork_row_*`, 264 probes): 1882/2104 texts, 1947/1956 paints.
    // 1893/2104 with an `elseif` chain closed by an `else` leaving from
    // the middle of its first branch's left edge and the `else` column.
    // With probes of an `if` holding a `fork` beside a step whose note
    // hangs below it (`if_note_rows_*`, 273 probes; the note's overhang
    // adds to the gap's extra room): 2006/2229 texts, 2031/2040 paints.
    // 2035/2229 with a `fork` bar reaching 14 px past its branches before
    // the compression (12 after it, where nothing holds the room open).
    // 2047/2229 with a partition's first action moved down by all of its
    // note's reach above it (`note_left_multi_*_d4_*`). 2057/2229 with a
    // loop body that is an `elseif` chain closed by an `else` starting as
    // any body (no room for a turn to its first diamond). 2066/2229 with
    // a plain `repeat` in a `while` body or an `if` branch gaining 15 px
    // in its body's middle gap (7.5 elsewhere). 2080/2229 with a lone
    // `if` branch hanging by its axis (an `elseif` chain: the line turns
    // to its entry) and the line from the diamond into a lone branch,
    // which PlantUML draws and puml left out. 2114/2229 with a `switch`'s
    // cases 20 px apart, spanning at least the diamond and two 15 px arms,
    // the diamond in their middle, and the page-wide compression closing
    // what the diamond and the labels (with their spaces) do not cover
    // (`switch_*`: 37 misses to 3). With probes of two cases and of
    // labels written with spaces (`switch_two_*`, `switch_spaced_*`, 291
    // probes): 2249/2389 texts (two cases whose arms set their spacing
    // stand 7 px lower in PlantUML, not yet followed), 2145/2154 paints;
    // 2256/2389 with that drop and the spread counting twice the narrower
    // outer case's half. 2282/2389 (95.5 %) with an `if`'s branch labels
    // widening the width a `fork` centres its flow on only past the 10 px
    // PlantUML keeps beyond the branches (`fork_row_if_*`,
    // `fork_partition_if_*`). With probes of notes beside the steps of a
    // `repeat` or `while` body (`loop_notes_*`, 339 probes): 2588/2849
    // texts, 2433/2442 paints, every `repeat` one whole (a loop with notes
    // laid out as PlantUML lays it out before its vertical compression,
    // then its uncovered rows closed); the `while` ones not yet. 2633/2849
    // with a labelled `while`'s first step reaching 10 px at most into the
    // gap above when nothing stands on the loop's exit line. With probes
    // of notes beside a diagram's first steps without `start`
    // (`notes_top_*`, 342 probes; nothing reaches above the drawing's top):
    // 2655/2871 texts, 2448/2457 paints.
    // With ten probes of swimlanes holding a fork, split or if's branches
    // (`lanes_*`; a block across lanes laid out as without lanes, each part
    // in its lane's column, lanes measured as PlantUML measures them):
    // 2716/2928 texts, 2528/2537 paints (352 probes). With nine more (a
    // `split` across lanes: its opening line in its first branch's lane,
    // its closing one in its last's; an arrow into another lane after a
    // step with a note): 2788/2997 texts, 2594/2603 paints (361 probes).
    // A `while` of actions with notes laid out before PlantUML's vertical
    // compression, then its empty rows closed (`loop_notes_while_*`):
    // 2897/2997 texts; with twelve probes varying what that family keeps
    // fixed (`while_notes_*`: no or a two-line `is` label, notes on the
    // left, four steps, steps around the loop): 3023/3123 texts, 2666/2675
    // paints (373 probes). With fourteen probes of noted loops nested in
    // loops and `if`s (`nested_note_loop_*`; loops of actions nested in a
    // while laid out before the compression, closed by the outermost):
    // 3097/3273 texts, 2750/2759 paints (387 probes); a noted loop in an
    // `if` laid out so too: 3139/3273 texts; a noted `repeat` with a
    // `backward` action laid out as PlantUML's before the compression,
    // four more probes of it: 3197/3313 texts, 2774/2783 paints (391); a
    // loop opening one of two `if` branches keeping the rows the other
    // (one-step) branch covers, four more probes (a loop in the `else`, a
    // two-step `else`): 3236/3365 texts, 2798/2807 paints (395).
    // Merged with the actmisc round (switch cases placed as PlantUML's
    // `FtileSwitchWithDiamonds` places them, a `while`'s exit by its body's
    // own dimension and its head holding columns, a then beside its diamond
    // under a label) and 18 probes more (`detach_wide_box_*`,
    // `switch_two_wide_last_*`): 2959/3121 texts, 2708/2717 paints (379
    // probes; 2840/2997 = 94.8 % on the 361 before); both merged (the
    // exit's head holding columns before the compression too, not pulled
    // nearer the body's leftmost shape): 3401/3489 texts, 2912/2921 paints
    // (413 probes); a loop's room left of an `else` closed: 3423/3489; and
    // a `while`'s right of its way back opening a `then`, four probes more
    // (a plain `while`, a step after the loop): 3468/3537 texts, 2934/2943
    // paints (417 probes); a lone partition in a `while` keeping its own
    // gaps: 3470/3537; a frame opening a lone `if` branch closed up to the
    // diamond or its label, four probes more (`lone_frame_*`): 3505/3563
    // texts, 2962/2971 paints (421 probes). The actloop round's 38 probes
    // (`repeat_label_*`, `repeat_unclosed_*`, `loop_if_middle_*`,
    // `repeat_backward_block_*`, `while_in_while_*`,
    // `while_{then,else}_beside_*`): 3792/3847 texts, 3180/3189 paints
    // (459 probes; 3509/3563 on the 421 before). The actdeco round, on
    // the 421 probes before it: the blanks an action keeps,
    // `- text` actions, the side of a note naming none and a note after a
    // container (`action_blanks_*`, `bullet_action_*`, `note_side_*`,
    // `note_after_container_*`): 3604/3662 texts (452 probes); labelled
    // arrows into and out of containers, packages' widths
    // (`label_container_*`, `package_widths_*`): 3699/3757 (477 probes);
    // notes beside a switch's cases (`switch_note_*`): 3745/3803 (484);
    // labelled arrows at a container within one swimlane: 3752/3810 (485).
    // Both rounds merged: 4039/4094 texts, 3614/3623 paints (523 probes).
    // After actloop's `break`, a `break` leaving a
    // `repeat` for a diamond under it, eight probes more (`break_*`):
    // 3848/3903 texts, 3228/3237 paints (467 probes). A plain `repeat`
    // beside a one-step branch laid out before the compression, four
    // more (`repeat_beside_step_*`): 3880/3935, 3252/3261 (471 probes). With
    // the actdeco round merged: 4127/4182 texts, 3686/3695 paints (535).
    // The actlane round (blocks changing swimlanes inside and
    // `if (c) is (x) then`, 18 probes: `lanes_inner_*`, `if_is_*`; 3634/3704
    // on its 439) merged with them: 4256/4323 texts, 3809/3818 paints (553).
    // The second actdeco round's style probes (`deco_*`: `none` fills,
    // `defaultFontSize`, arrow label sizes, tall branch labels, creole
    // tables in legends): 4302/4357 texts, 3857/3866 paints (562). Both
    // merged: 4431/4498 texts, 3980/3989 paints (580 probes).
    // The actif round's `if` rows (37 probes, `if_rows_*`, 458 probes
    // alone: 3917/3960 texts, 3190/3199 paints) merged (a `while` opening a branch
    // beside another keeps actloop's room unless its steps carry notes):
    // 4539/4579 texts, 3914/3923 paints (572 probes). All three merged
    // (actlane, actdeco's second round, actif): 4851/4895 texts, 4208/4217
    // paints (617 probes).
    assert_paints_and_texts_placed("activity-probes", Some(PROBE_PAINTS), PROBE_TEXTS);
}

/// The generated activity probes' floors (see the test above).
const PROBE_PAINTS: usize = 4208;
const PROBE_TEXTS: usize = 4851;

#[test]
fn creole_list_probes_place_texts_like_plantuml() {
    // Bullets (`*` to `****`: a disc, then squares) and numbers (`#` to
    // `###`, counted per level, `10.` wider than `9.`) in notes, message
    // labels, larger fonts and activity actions, and the lines that only
    // look like items (`**bold**`, a lone `*`, ` * ` after a blank):
    // 106/106 texts within 2 px, every paint (36/106 texts before); with
    // `[[target label]]` links blue and underlined whatever the target
    // (`link_without_scheme`): 116/116.
    assert_every_paint_and_texts_placed("creole-lists", 116);
}

#[test]
fn font_name_probes_place_texts_like_plantuml() {
    // Monospaced names Java lacks (Consolas, Courier New, Menlo, Lucida
    // Console: sans), per-element names, lists, DejaVu Sans/Serif
    // Condensed: 33/33 texts within 2 px (9/33 before); Java's logical
    // names with `.bold`/`.bolditalic` measured bold, not `Serif Bold` nor
    // `Courier.bold` (`font_style_*`), and DejaVu's bold slanted faces
    // bold, not `DejaVu Sans Bold` (`font_face_*`): 75/75.
    assert_every_paint_and_texts_placed("fonts", 75);
}

/// Every skin parameter that can change a sequence diagram, each alone on
/// one probe body, then the forms real files use (`skinparam sequence {…}`
/// blocks, element- and stereotype-scoped names, `<style>` equivalents,
/// paddings, wrapping, alignments, an unknown default face, scaling, a
/// diagram border): `test-data/skinparam-sequence`, written and rendered by
/// `scripts/skinparam_probe.py`. One summary snapshot (`fidelity.txt`, a
/// line per probe: texts within 2 px and paints matched) rather than an SVG
/// per probe, to keep the directory small; the figures are printed, and
/// the test fails under the level reached.
#[test]
fn skinparam_probes_paint_and_place_like_plantuml() {
    let summary = summarize("skinparam-sequence", "skinparam probes");
    // Reached: 11,481/11,526 texts (99.6 %), 260/261 probes whole; 261/261
    // probes whose paints all agree (10,359, 207 and 241 at the first
    // measure, before FontStyle, the `sequence`-prefixed font sizes,
    // header/footer/legend sizes, stereotype fonts, the diagram border,
    // `guillemet false`, a centred `defaultTextAlignment`, the bare
    // `LifeLine…` keys PlantUML ignores, the group tab's own FontStyle,
    // header and footer in `defaultFontColor`, stereotyped kind skinparams,
    // monospaced stereotype faces, a right `defaultTextAlignment`,
    // `wrapWidth`). With `skinparam padding` (N around every text block,
    // `creole::TextBlock::padded`) and its generated probes
    // (`s_padding_{0,5,10,20}_*`, 276 probes): 11,913/11,913 texts, every
    // probe whole.
    assert!(
        summary.placed >= SKINPARAM_TEXTS_PLACED && summary.agreeing >= SKINPARAM_PAINTS_AGREEING,
        "skinparam probes: {}/{} texts within 2 px (floor {SKINPARAM_TEXTS_PLACED}), \
         {}/{} probes whose paints agree (floor {SKINPARAM_PAINTS_AGREEING})",
        summary.placed,
        summary.texts,
        summary.agreeing,
        summary.files
    );
}

/// Real sequence diagrams outside `../shared/corpus`, from repositories it
/// does not draw from (`test-data/sequence-wild`, sources in its
/// `SOURCES.tsv`, PlantUML's SVGs rendered by `scripts/sequence_wild.py`):
/// measured as the probes are, so that what the corpus happens not to use
/// shows. Fails under the level reached.
#[test]
fn wild_sequence_diagrams_paint_and_place_like_plantuml() {
    let summary = summarize("sequence-wild", "wild sequence diagrams");
    // Reached: 1,882/1,934 texts (97.3 %), 31/32 diagrams whole, 32/32
    // whose paints all agree (1,832 and 29 at the first measure, before
    // self messages in groups, notes beside loops under bars opened
    // later, notes over unequal heads in groups and quoted titles, each
    // derived from `test-data/sequence-probes`). Left: ai-assistant's
    // registry 15 px closer to the participant before its group.
    summary.assert_at_least(
        "wild sequence diagrams",
        WILD_TEXTS_PLACED,
        WILD_WHOLE,
        WILD_PAINTS_AGREEING,
    );
}

/// Real new-style activity diagrams outside `../shared/corpus-activity`,
/// from repositories it does not draw from, at most two a repository
/// (`test-data/activity-wild`, sources in its `SOURCES.tsv`, PlantUML's SVGs
/// rendered by `scripts/sequence_wild.py render test-data/activity-wild`):
/// measured as the sequence ones are, so that what the activity corpus
/// happens not to use shows. Fails under the level reached.
#[test]
fn wild_activity_diagrams_paint_and_place_like_plantuml() {
    let summary = summarize("activity-wild", "wild activity diagrams");
    // Reached at the first measure: 209/540 texts (38.7 %), 7/30 diagrams
    // whole, 30/30 whose paints all agree. Most misses come from a few
    // constructs (docs/rendering.md, "Activity diagrams"): an `if` whose
    // else branch holds another `if` (PlantUML spaces the steps of both
    // branches 69 px apart, puml 54), an `if` nested in a branch after
    // other steps (10 px more on its left in PlantUML), `repeat :label;`,
    // partitions with a floating note, swimlanes with notes, `- action`
    // lines, and in `find-multiline-guard-activity` (a `then ([…])` label
    // over two lines, read since) an action's leading blanks, which
    // PlantUML keeps, and the `if` under a two-line label 4.7 px lower.
    // The actloop round (loops laid out as PlantUML's `FtileRepeat` before
    // the compression: `repeat :label;`, unclosed loops, a loop whose body
    // is one `if`): 222/540, 9/30 whole (`grace-rotate-accesskeys`,
    // `find-nested-repeat-activity`). The actdeco round, on its own: an
    // action's blanks kept, `- text` read as an action, a note naming
    // no side drawn on the left and one after a partition's `}` beside
    // its last step: 243/540 texts (45.0 %), 8/30 whole; labelled arrows
    // into and out of a partition: 250/540. Both rounds merged:
    // 263/540 (48.7 %), 10/30 whole. The actif round (an `if`'s rows as
    // PlantUML's compression settles them, `if_rows_*`): 332/540, 15/30
    // alone; merged with both: 399/540 (73.9 %), 20/30 whole.
    summary.assert_at_least(
        "wild activity diagrams",
        WILD_ACTIVITY_TEXTS_PLACED,
        WILD_ACTIVITY_WHOLE,
        WILD_ACTIVITY_PAINTS_AGREEING,
    );
}

/// A second set of real new-style activity diagrams, held out: no layout
/// rule is tuned on it (`test-data/activity-wild-holdout`, 30 files from
/// repositories neither `../shared/corpus-activity` nor
/// `test-data/activity-wild` draws from, one a repository, sources in its
/// `SOURCES.tsv`, PlantUML's SVGs rendered by `scripts/sequence_wild.py
/// render test-data/activity-wild-holdout`). The wild set's figure is
/// measured on the files its rules were derived from and so flatters;
/// this one says how those rules carry to files no one looked at. Rules
/// are derived from the wild set and the probes, never from these files;
/// the set is re-measured after they are merged. Fails under the level
/// reached. Caveat: the second actdeco round and the actlane round took
/// constructs first seen missing here (`defaultFontSize`, `none` fills,
/// creole tables in a legend, steps changing lanes inside a block, `if
/// (c) is (x) then`) and derived their rules from probes of their own, so
/// for those constructs the set is no longer strictly held out.
#[test]
fn held_out_activity_diagrams_paint_and_place_like_plantuml() {
    let summary = summarize("activity-wild-holdout", "held-out activity diagrams");
    // Reached at the first measure, before this round's rules: 184/768
    // texts (24.0 %), 8/30 diagrams whole, 29/30 whose paints all agree.
    // After the actloop and actdeco rounds (rules derived on the first
    // wild set and probes): 218/768 (28.4 %), 11/30 whole; with actloop's
    // `break` (its one file here, untuned, whole): 232/768, 12/30; with
    // the actif round's `if` rows merged: 242/768, 12/30; the actlane
    // round (steps changing lanes inside blocks) and the second actdeco
    // round (style settings, legend tables) merged with them: 324/768
    // (42.2 %), 15/30 whole, 30/30 paints.
    summary.assert_at_least(
        "held-out activity diagrams",
        HELD_OUT_ACTIVITY_TEXTS_PLACED,
        HELD_OUT_ACTIVITY_WHOLE,
        HELD_OUT_ACTIVITY_PAINTS_AGREEING,
    );
}

/// The small diagrams the rules the wild files showed off were derived from
/// (`test-data/sequence-probes`: self messages and their notes in groups
/// and under bars opened later, notes over two participants of unequal
/// heads in groups, quoted titles), rendered by `scripts/sequence_wild.py
/// render test-data/sequence-probes`. The texts still off are listed in its
/// `fidelity.txt`: a note left of a self message in a group, and a group
/// frame that starts left of a note overhanging the first of two heads
/// (`group_note_over_short`; corpus 153 keeps the frame at the head).
#[test]
fn sequence_probes_paint_and_place_like_plantuml() {
    let summary = summarize("sequence-probes", "sequence probes");
    assert!(
        summary.placed >= SEQUENCE_PROBE_TEXTS_PLACED && summary.agreeing == summary.files,
        "sequence probes: {}/{} texts within 2 px (floor {SEQUENCE_PROBE_TEXTS_PLACED}), {}/{} whose paints agree",
        summary.placed,
        summary.texts,
        summary.agreeing,
        summary.files
    );
}

/// Figures over a directory of diagrams measured by [`summarize`].
struct Summary {
    placed: usize,
    texts: usize,
    /// Files with every text within 2 px.
    whole: usize,
    /// Files whose paints all agree with PlantUML's.
    agreeing: usize,
    files: usize,
}

impl Summary {
    /// Fails when texts placed, whole files or files whose paints agree
    /// fall under their floors (a set of real diagrams' ratchet).
    fn assert_at_least(&self, what: &str, placed: usize, whole: usize, agreeing: usize) {
        assert!(
            self.placed >= placed && self.whole >= whole && self.agreeing >= agreeing,
            "{what}: {}/{} texts within 2 px (floor {placed}), {}/{} whole (floor {whole}), \
             {}/{} whose paints agree (floor {agreeing})",
            self.placed,
            self.texts,
            self.whole,
            self.files,
            self.agreeing,
            self.files
        );
    }
}

/// Renders every `NAME.puml` of `test-data/DIR` that has PlantUML's
/// `NAME.plantuml.svg` beside it and compares texts and paints. One
/// summary snapshot (`fidelity.txt`, a line per file: texts within 2 px
/// and paints matched, with the paints that differ) rather than an SVG per
/// file, to keep the directory small; the totals are printed.
fn summarize(dir: &str, what: &str) -> Summary {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../test-data")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("probe directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "puml"))
        .collect();
    files.sort();
    let mut summary = String::new();
    let (mut placed_total, mut texts_total, mut whole) = (0, 0, 0);
    let (mut paints_matched, mut paints_total, mut agreeing, mut probes) = (0, 0, 0, 0);
    for file in files {
        let Ok(theirs) = std::fs::read_to_string(file.with_extension("plantuml.svg")) else {
            continue;
        };
        let source = std::fs::read_to_string(&file).expect("probe");
        let analysis = analyze(&source, &AnalysisOptions::default(), &NoIncludes);
        let diagram = &analysis.document.diagrams[0];
        let scene = &layout(diagram, &LayoutOptions::default())[0];
        let our_svg = to_svg(scene);
        let (placed, texts) = texts_placed(&theirs, &our_svg);
        let (their_paints, ours) = (paints(&theirs), paints(&our_svg));
        let matched = their_paints.intersection(&ours).count();
        let differ: Vec<String> = their_paints
            .symmetric_difference(&ours)
            .map(|(r, c)| format!("{}{r} {c}", if ours.contains(&(*r, c.clone())) { "+" } else { "-" }))
            .collect();
        let name = file.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        summary.push_str(&format!(
            "{name}: texts {placed}/{texts}, paints {matched}/{}{}\n",
            their_paints.len(),
            if differ.is_empty() {
                String::new()
            } else {
                format!(" ({})", differ.join(", "))
            }
        ));
        probes += 1;
        placed_total += placed;
        texts_total += texts;
        whole += usize::from(placed == texts);
        paints_matched += matched;
        paints_total += their_paints.len();
        agreeing += usize::from(differ.is_empty());
    }
    print!("{summary}");
    println!(
        "{what}: {placed_total}/{texts_total} = {:.1} % texts within 2 px, {whole}/{probes} whole; \
         {paints_matched}/{paints_total} paints, {agreeing}/{probes} whose paints all agree",
        100.0 * placed_total as f64 / texts_total.max(1) as f64
    );
    expect_test::expect_file![dir.join("fidelity.txt")].assert_eq(&summary);
    Summary {
        placed: placed_total,
        texts: texts_total,
        whole,
        agreeing,
        files: probes,
    }
}

const SEQUENCE_PROBE_TEXTS_PLACED: usize = 201;
const WILD_TEXTS_PLACED: usize = 1_882;
const WILD_WHOLE: usize = 31;
const WILD_PAINTS_AGREEING: usize = 32;
const WILD_ACTIVITY_TEXTS_PLACED: usize = 415;
const WILD_ACTIVITY_WHOLE: usize = 20;
const WILD_ACTIVITY_PAINTS_AGREEING: usize = 30;
const HELD_OUT_ACTIVITY_TEXTS_PLACED: usize = 324;
const HELD_OUT_ACTIVITY_WHOLE: usize = 15;
const HELD_OUT_ACTIVITY_PAINTS_AGREEING: usize = 30;

const SKINPARAM_TEXTS_PLACED: usize = 11_913;
const SKINPARAM_PAINTS_AGREEING: usize = 276;
