//! Scene → text art (ASCII or Unicode box drawing), in the manner of
//! PlantUML's `-ttxt` / `-tutxt`: for agents and terminals that cannot
//! show images. The scene is projected onto a character grid (one column
//! per 7 px, one row per 10 px); shapes become boxes, lines become rules,
//! small polygons become arrow heads, and text is written last so that it
//! is never hidden.

use puml_layout::{Item, Paint, PathSegment, Scene};

const COL_PX: f64 = 7.0;
const ROW_PX: f64 = 10.0;
/// Bound on the grid so a huge scene cannot allocate without limit.
const MAX_CELLS: usize = 50_000_000;

struct Glyphs {
    h: char,
    v: char,
    dotted_h: char,
    dotted_v: char,
    tl: char,
    tr: char,
    bl: char,
    br: char,
    right: char,
    left: char,
    cross: char,
    circle: char,
}

const ASCII: Glyphs = Glyphs {
    h: '-',
    v: '|',
    dotted_h: '-',
    dotted_v: '|',
    tl: '+',
    tr: '+',
    bl: '+',
    br: '+',
    right: '>',
    left: '<',
    cross: 'X',
    circle: 'O',
};

const UNICODE: Glyphs = Glyphs {
    h: '─',
    v: '│',
    dotted_h: '╌',
    dotted_v: '┆',
    tl: '┌',
    tr: '┐',
    bl: '└',
    br: '┘',
    right: '►',
    left: '◄',
    cross: '╳',
    circle: '○',
};

struct Grid {
    cols: usize,
    rows: usize,
    cells: Vec<char>,
}

impl Grid {
    fn put(&mut self, col: i64, row: i64, c: char) {
        if col >= 0 && row >= 0 && (col as usize) < self.cols && (row as usize) < self.rows {
            self.cells[row as usize * self.cols + col as usize] = c;
        }
    }
    fn hline(&mut self, c0: i64, c1: i64, row: i64, ch: char) {
        for c in c0.min(c1)..=c0.max(c1) {
            self.put(c, row, ch);
        }
    }
    fn vline(&mut self, col: i64, r0: i64, r1: i64, ch: char) {
        for r in r0.min(r1)..=r0.max(r1) {
            self.put(col, r, ch);
        }
    }
    /// A box; `opaque` ones (filled shapes: heads, notes) hide what is behind them.
    fn boxed(&mut self, c0: i64, r0: i64, c1: i64, r1: i64, opaque: bool, g: &Glyphs) {
        if c1 <= c0 || r1 <= r0 {
            return;
        }
        if opaque {
            for r in r0 + 1..r1 {
                for c in c0 + 1..c1 {
                    self.put(c, r, ' ');
                }
            }
        }
        self.hline(c0, c1, r0, g.h);
        self.hline(c0, c1, r1, g.h);
        self.vline(c0, r0, r1, g.v);
        self.vline(c1, r0, r1, g.v);
        self.put(c0, r0, g.tl);
        self.put(c1, r0, g.tr);
        self.put(c0, r1, g.bl);
        self.put(c1, r1, g.br);
    }
}

fn col(x: f64) -> i64 {
    (x / COL_PX).round() as i64
}

fn row(y: f64) -> i64 {
    (y / ROW_PX).round() as i64
}

/// Renders `scene` as text art; `unicode` selects box-drawing characters.
pub fn to_text(scene: &Scene, unicode: bool) -> String {
    let g = if unicode { &UNICODE } else { &ASCII };
    let cols = (scene.width / COL_PX).ceil().max(1.0) as usize + 2;
    let rows = (scene.height / ROW_PX).ceil().max(1.0) as usize + 2;
    if cols.saturating_mul(rows) > MAX_CELLS {
        return format!("(diagram too large for text output: {cols}x{rows} characters)\n");
    }
    let mut grid = Grid {
        cols,
        rows,
        cells: vec![' '; cols * rows],
    };
    let mut texts = Vec::new();
    for item in &scene.items {
        match item {
            Item::Rect {
                x,
                y,
                width,
                height,
                paint,
                ..
            } => {
                if *width < COL_PX * 2.0 || *height < ROW_PX * 1.5 {
                    continue;
                }
                grid.boxed(col(*x), row(*y), col(x + width), row(y + height), opaque(paint), g);
            }
            Item::Line { x1, y1, x2, y2, stroke } => {
                let dotted = stroke.dash.is_some();
                if (y1 - y2).abs() < 0.5 {
                    grid.hline(col(*x1), col(*x2), row(*y1), if dotted { g.dotted_h } else { g.h });
                } else if (x1 - x2).abs() < 0.5 {
                    grid.vline(col(*x1), row(*y1), row(*y2), if dotted { g.dotted_v } else { g.v });
                } else if (x1 - x2).abs() < 25.0 && (y1 - y2).abs() < 25.0 {
                    // Short diagonals are crosses (destroy, lost messages).
                    grid.put(col((x1 + x2) / 2.0), row((y1 + y2) / 2.0), g.cross);
                } else {
                    // A slanted arrow: step along it.
                    let steps = ((x2 - x1).abs() / COL_PX).max((y2 - y1).abs() / ROW_PX).ceil().max(1.0) as i64;
                    for i in 0..=steps.min(10_000) {
                        let t = i as f64 / steps as f64;
                        grid.put(col(x1 + (x2 - x1) * t), row(y1 + (y2 - y1) * t), g.h);
                    }
                }
            }
            Item::Polygon { points, paint } => {
                let (min_x, max_x, min_y, max_y) = bounds(points.iter().map(|p| (p.x, p.y)));
                if max_x - min_x <= 14.0 && max_y - min_y <= 14.0 {
                    // An arrow head: the tip is the point farthest from the centroid in x.
                    let n = points.len().max(1) as f64;
                    let cx = points.iter().map(|p| p.x).sum::<f64>() / n;
                    let tip = points
                        .iter()
                        .max_by(|a, b| (a.x - cx).abs().total_cmp(&(b.x - cx).abs()))
                        .map(|p| (p.x, p.y));
                    if let Some((tx, ty)) = tip {
                        let c = if tx > cx { g.right } else { g.left };
                        grid.put(col(tx), row(ty), c);
                    }
                } else {
                    grid.boxed(col(min_x), row(min_y), col(max_x), row(max_y), opaque(paint), g);
                }
            }
            Item::Ellipse { cx, cy, rx, ry, paint } => {
                if *rx > 14.0 && *ry > 14.0 {
                    grid.boxed(col(cx - rx), row(cy - ry), col(cx + rx), row(cy + ry), opaque(paint), g);
                } else if *rx > 5.0 {
                    grid.put(col(*cx), row(*cy), g.circle);
                }
            }
            Item::Path { segments, paint } => {
                if paint.fill.is_none() {
                    continue;
                }
                let pts = segments.iter().filter_map(|s| match s {
                    PathSegment::MoveTo { x, y } | PathSegment::LineTo { x, y } | PathSegment::CubicTo { x, y, .. } => {
                        Some((*x, *y))
                    }
                    PathSegment::Close => None,
                });
                let (min_x, max_x, min_y, max_y) = bounds(pts);
                if max_x - min_x >= COL_PX * 2.0 && max_y - min_y >= ROW_PX * 1.5 {
                    grid.boxed(col(min_x), row(min_y), col(max_x), row(max_y), opaque(paint), g);
                }
            }
            Item::Text(run) => texts.push(run),
            Item::Begin { .. } | Item::End => {}
        }
    }
    for run in texts {
        let r = row(run.y - run.font.size * 0.35);
        let mut c = col(run.x);
        for ch in run.text.chars() {
            if ch.is_control() {
                continue;
            }
            grid.put(c, r, ch);
            c += 1;
        }
    }
    let mut out = String::with_capacity(rows * (cols + 1));
    let mut blank_run = 0;
    for r in 0..rows {
        let line: String = grid.cells[r * cols..(r + 1) * cols].iter().collect();
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            continue;
        }
        if !out.is_empty() {
            for _ in 0..blank_run.min(1) {
                out.push('\n');
            }
        }
        blank_run = 0;
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Filled shapes hide what is behind them.
fn opaque(paint: &Paint) -> bool {
    paint.fill.is_some_and(|c| c.a > 0)
}

fn bounds(points: impl Iterator<Item = (f64, f64)>) -> (f64, f64, f64, f64) {
    points.fold(
        (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY),
        |(a, b, c, d), (x, y)| (a.min(x), b.max(x), c.min(y), d.max(y)),
    )
}
