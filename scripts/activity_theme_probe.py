#!/usr/bin/env python3
"""Observe how PlantUML's themes draw activity diagrams: render one probe
activity diagram per theme with the oracle, read the values PlantUML paints
for each activity element, and keep them in the theme's puml style sheet
(`crates/puml-layout/themes/NAME.style`) as `activityDiagram { … }` rules.

usage: scripts/activity_theme_probe.py render   # (re)writes test-data/activity-themes/NAME.puml + NAME.plantuml.svg
       scripts/activity_theme_probe.py report [NAME...]   # prints the observed rules
       scripts/activity_theme_probe.py write    # replaces the activity block of every theme sheet

The probe (test-data/activity-themes/probe.body) has a title, start, actions,
an if/else, a partition around a fork, a note, a while loop and stop; the
lanes probe (lanes.body) two swimlanes and a note, the page probe (page.body)
a header and a footer. `skin rose` is observed the
same way (themes/skin-rose.style). The `style_*` and `*_group`,
`cerulean_skinparams` probes beside them are written by hand.
Values are read from PlantUML's SVG by anchoring on the probe's texts and
unscaled for the themes PlantUML draws at 100 dpi.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "test-data" / "activity-themes"
SHEETS = ROOT / "crates" / "puml-layout" / "themes"
sys.path.insert(0, str(ROOT / "scripts"))
from theme_probe import elements  # noqa: E402
from theme_probe import theme_names as all_theme_names  # noqa: E402


def theme_names():
    """The themes with a sheet of their own (`_none_` is the default look)."""
    return [name for name in all_theme_names() if name != "_none_"]

MARK = "' --- activity diagrams"


def drawn_at_100_dpi():
    text = (ROOT / "crates" / "puml-layout" / "src" / "theme_sheets.rs").read_text()
    block = text[text.index("DRAWN_AT_100_DPI") : text.index("HAND_DRAWN")]
    return set(re.findall(r'"([a-z-]+)"', block))


def render():
    files = []
    for probe, suffix in (("probe.body", ""), ("lanes.body", "_lanes"), ("page.body", "_page")):
        body = (DIR / probe).read_text()
        for name in theme_names():
            p = DIR / f"{name}{suffix}.puml"
            p.write_text(f"@startuml\n!theme {name}\n{body}@enduml\n")
            files.append(p)
        p = DIR / f"skin_rose{suffix}.puml"
        p.write_text(f"@startuml\nskin rose\n{body}@enduml\n")
        files.append(p)
    jar = subprocess.run(["/work/shared/tools/plantuml-oracle", "jar"], capture_output=True, text=True).stdout.strip()
    subprocess.run(["java", "-Djava.awt.headless=true", "-jar", jar, "-tsvg", *map(str, files)], check=True)
    for p in files:
        p.with_suffix(".svg").rename(p.with_name(p.stem + ".plantuml.svg"))


def positions(svg):
    """x, y of every shape and text, in the order `elements` reads them."""
    svg = re.sub(r"<defs>.*?</defs>", "", svg)
    out = []
    for m in re.finditer(r"<(rect|text|line|path|polygon|ellipse|polyline)\b([^>]*)>", svg):
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(2)))
        if a.get("fill-opacity") == "0":
            continue
        if "points" in a:
            # A hand-drawn (sketchy) outline: its top-left corner.
            pts = [float(v) for v in a["points"].replace(",", " ").split()]
            out.append((min(pts[0::2]), min(pts[1::2])))
        else:
            out.append((float(a.get("x", "nan")), float(a.get("y", "nan"))))
    return out


def stop_ring_bottom(svg):
    """The lowest point of the last ellipse (the stop's ring)."""
    cy, r = re.findall(r'<ellipse cx="[^"]+" cy="([^"]+)" rx="([^"]+)"', svg)[-1]
    return float(cy) + float(r)


def ellipse_top(svg):
    """The centre's y and radius of the first ellipse (the start disc)."""
    m = re.search(r'<ellipse cx="[^"]+" cy="([^"]+)" rx="([^"]+)"', svg)
    return float(m.group(1)), float(m.group(2))


def report(name, scale_100):
    svg = (DIR / f"{name}.plantuml.svg").read_text()
    els = elements(svg)
    xy = positions(svg)
    k = 100 / 96 if scale_100 else 1.0

    def num(v):
        x = float(v) / k
        return f"{x:.2f}".rstrip("0").rstrip(".")

    def at(text):
        # A theme that draws word by word (sunlust) is anchored on the first word.
        texts = [i for i, e in enumerate(els) if e["tag"] == "text"]
        whole = next((i for i in texts if els[i]["text"] == text), None)
        return whole if whole is not None else next(i for i in texts if els[i]["text"] == text.split()[0])

    def before(i, tag):
        # The shape drawn just before a text; a hand-drawn theme draws
        # polygons where the others draw rects and paths.
        tags = (tag, "polygon")
        return next((j for j in range(i - 1, -1, -1) if els[j]["tag"] in tags), None)

    rules = {}
    ellipses = [e for e in els if e["tag"] == "ellipse"]

    def put(sel, prop, value):
        if value is not None:
            rules.setdefault(sel, {})[prop] = value

    def paint(sel, e, fill=True, line=True):
        if fill:
            put(sel, "BackGroundColor", "transparent" if e["fill"] in (None, "none") else e["fill"])
        if line:
            put(sel, "LineColor", "transparent" if e["stroke"] in (None, "none") else e["stroke"])
            put(sel, "LineThickness", num(e["width"]) if e["width"] else "0")

    def font(sel, e):
        put(sel, "FontColor", e["fill"])
        put(sel, "FontSize", num(e["size"]))
        put(sel, "FontName", e["family"] or None)
        style = [s for s, on in (("bold", e["weight"] in ("700", "bold")), ("italic", bool(e["italic"]))) if on]
        put(sel, "FontStyle", " ".join(style) or "plain")

    # A theme with a MaximumWidth draws the texts it wraps word by word;
    # the width itself is the theme's sequence sheet's (200 in sunlust).
    if not any(e["tag"] == "text" and e["text"] == "Read input" for e in els):
        for sel in ("activity", "note", "swimlane"):
            put(sel, "MaximumWidth", "200")
    t = at("Read input")
    box = before(t, "rect")
    paint("activity", els[box])
    if els[box]["tag"] == "rect":
        put("activity", "RoundCorner", num(2 * float(els[box]["rx"])) if els[box]["rx"] else "0")
    # (rounded: a hand-drawn outline starts a fraction of a pixel off)
    put("activity", "Padding", str(round((xy[t][0] - xy[box][0]) / k)))
    font("activity", els[t])
    t = at("Valid?")
    paint("diamond", els[before(t, "polygon")])
    font("diamond", els[t])
    # A hand-drawn theme draws its lines as filled paths: their colour and
    # width are left to the theme's sequence rules.
    line = next((e for e in els if e["tag"] == "line"), None)
    if line:
        put("arrow", "LineColor", line["stroke"])
        put("arrow", "LineThickness", num(line["width"]))
    font("arrow", els[at("yes")])
    t = at("Work")
    frame = els[before(t, "rect")]
    paint("partition", frame)
    if frame["tag"] == "rect":
        put("partition", "RoundCorner", num(2 * float(frame["rx"])) if frame["rx"] else "0")
    font("partition", els[t])
    t = at("a note")
    paint("note", els[before(t, "path")])
    font("note", els[t])
    bar = next((e for e in els if e["tag"] == "rect" and e["h"] and abs(float(e["h"]) / k - 6) < 0.01), None)
    if bar:
        paint("activityBar", bar, line=False)
    # The page's margin: the drawing's leftmost shape (the if's left
    # branch) stands 6 px inside it (a hand-drawn outline wanders a pixel).
    shapes = range(at("Activity Probe") + 1, len(els))
    margin = round(min(xy[i][0] for i in shapes if els[i]["tag"] in ("rect", "polygon")) / k - 6)
    margin = 10 if abs(margin - 10) <= 1 else margin
    if margin != 10:
        put("document", "Margin", str(margin))
    # A framed title: its margin above (from the page's margin) and its
    # padding beside the text, both the same on every side.
    t = at("Activity Probe")
    if els[t - 1]["tag"] == "rect" and xy[t - 1][1] > 0:  # (not the page's own rect)
        put("title", "Margin", str(round(xy[t - 1][1] / k - margin)))
        put("title", "Padding", str(round((xy[t][0] - xy[t - 1][0]) / k)))
    elif ellipses:
        # Unframed: the room above the text (its top is the baseline less
        # the bold face's ascent, 0.928 em as PlantUML measures it) and
        # below it (its height is 1.164 em; the drawing keeps 1 + 5 px).
        size = float(els[t]["size"]) / k
        top = xy[t][1] / k - 0.92822 * size
        cy, r = ellipse_top(svg)
        below = (cy - r) / k - (top + 1.16406 * size) - 6
        above = top - margin
        put("title", "Margin", "0 5")
        put("title", "Padding", f"{round(above)} 5 {round(below)} 5")
    if len(ellipses) >= 3:
        paint("start", ellipses[0])
        paint("stop", ellipses[-1], line=False)
        paint("stop", ellipses[-2], fill=False)
    else:
        # Hand-drawn: the start disc follows the title, the stop ring and
        # its dot the loop's exit label, the fork bar the partition's title.
        paint("start", els[at("Activity Probe") + 1])
        last = max(i for i, e in enumerate(els) if e["tag"] == "text" and e["text"] == "no")
        paint("stop", els[last + 1], fill=False)
        paint("stop", els[last + 2], line=False)
        bar = els[at("Work") + 1]
        if bar["fill"] == bar["stroke"]:
            paint("activityBar", bar, line=False)
    lanes(name, k, put)
    page(name, k, margin, put)
    return rules


def page(name, k, margin, put):
    """The room around the header and the footer (NAME_page): the same on
    every side of both, measured above the header (its text's top is the
    baseline less 0.928 em of its 10 px face)."""
    svg = (DIR / f"{name}_page.plantuml.svg").read_text()
    els = elements(svg)
    xy = positions(svg)
    header = next((i for i, e in enumerate(els) if e["tag"] == "text" and e["text"] in ("Page Header", "Page")), None)
    if header is None:
        return
    room = round(xy[header][1] / k - 0.92822 * float(els[header]["size"]) / k - margin)
    if room > 0:
        put("header", "Margin", str(room))
        put("footer", "Margin", str(room))
    # The legend follows the drawing (PlantUML's 12 px margin leaves 26 px
    # between the stop's ring and the frame), the caption the legend.
    frame = next((i for i, e in enumerate(els) if e["tag"] == "rect" and e["text"] == "" and xy[i][1] > 0
                  and any(t["text"] in ("The legend", "The") for t in els[i + 1:i + 2])), None)
    ellipses = [i for i, e in enumerate(els) if e["tag"] == "ellipse"]
    # (hand-drawn: left to the defaults; skin rose's stop ring casts a
    # shadow the drawing's bottom does not follow: not derived)
    if frame is not None and ellipses and name != "skin_rose":
        text = frame + 1
        ring_bottom = float(stop_ring_bottom(svg)) / k
        # A shadowed theme's drawing reaches 6 px below the ring.
        shadow = 6 if 'filter="url(' in svg else 0
        legend_margin = round(xy[frame][1] / k - ring_bottom - 14 - shadow)
        padding = round(xy[text][0] / k - xy[frame][0] / k)
        put("legend", "Margin", str(legend_margin))
        put("legend", "Padding", str(padding))
        words = [(i, e["text"]) for i, e in enumerate(els) if e["tag"] == "text"]
        caption = next((i for i, t in words if t == "The caption"), None)
        if caption is None:  # (drawn word by word: "The", a space, "caption")
            caption = next(i for i, t in words if t == "caption") - 2
        caption_top = xy[caption][1] / k - 0.92822 * float(els[caption]["size"]) / k
        frame_bottom = (xy[frame][1] + float(els[frame]["h"])) / k
        put("caption", "Margin", str(round(caption_top - frame_bottom - legend_margin - 1)))
    caption = next((e for e in els if e["tag"] == "text" and e["text"] in ("The caption", "caption")), None)
    if caption is not None:
        put("caption", "FontColor", caption["fill"])


def lanes(name, k, put):
    """The swimlanes' separators, titles and header band (NAME_lanes)."""
    svg = (DIR / f"{name}_lanes.plantuml.svg").read_text()
    els = elements(svg)
    xy = positions(svg)

    def num(v):
        x = float(v) / k
        return f"{x:.2f}".rstrip("0").rstrip(".")

    title = next((e for e in els if e["tag"] == "text" and e["text"] == "Lane A"), None)
    line = next((e for e in els if e["tag"] == "line"), None)
    if line is not None:  # (a hand-drawn theme draws its lines as paths)
        put("swimlane", "LineColor", line["stroke"])
        put("swimlane", "LineThickness", num(line["width"]))
    if title is not None:  # (sunlust draws it word by word)
        put("swimlane", "FontColor", title["fill"])
        put("swimlane", "FontSize", num(title["size"]))
        put("swimlane", "FontName", title["family"] or None)
        put("swimlane", "FontStyle", "bold" if title["weight"] in ("700", "bold") else "plain")
    if line is None:
        return
    # The bootstrap-like themes band the titles (a rect over every lane,
    # as tall as the title; the page's own rect lies at 0,0), the themes
    # with a page colour of their own band them in it: PlantUML fills the
    # band with the swimlane's BackGroundColor and outlines it in the same
    # paint.
    band = next((i for i, e in enumerate(els) if e["tag"] == "rect" and xy[i][1] > 0), None)
    stroke = els[band]["stroke"] or "" if band is not None else ""
    if band is not None and (stroke.startswith("url(") or stroke == els[band]["fill"] != "none"):
        put("swimlane", "BackGroundColor", els[band]["fill"])


def sheet_lines(rules):
    lines = [f"{MARK} (observed with test-data/activity-themes by scripts/activity_theme_probe.py) ---"]
    for sel, props in rules.items():
        body = "; ".join(f"{p} {v}" for p, v in props.items())
        lines.append(f"activityDiagram {{ {sel} {{ {body} }} }}")
    return lines


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else "report"
    hundred = drawn_at_100_dpi()
    if cmd == "render":
        render()
    elif cmd == "report":
        for name in sys.argv[2:] or theme_names():
            print(f"' {name}")
            print("\n".join(sheet_lines(report(name, name in hundred))))
    elif cmd == "write":
        for name in theme_names():
            path = SHEETS / f"{name}.style"
            text = path.read_text()
            if MARK in text:
                text = text[: text.index(MARK)]
            text = text.rstrip("\n") + "\n" + "\n".join(sheet_lines(report(name, name in hundred))) + "\n"
            path.write_text(text)
        # `skin rose`, PlantUML's former look, as a sheet of its own.
        lines = sheet_lines(report("skin_rose", False))
        lines[0] = lines[0].replace("activity diagrams", "activity diagrams under `skin rose`")
        (SHEETS / "skin-rose.style").write_text("\n".join(lines) + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
