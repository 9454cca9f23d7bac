#!/usr/bin/env python3
"""Observe PlantUML's themes: render one probe diagram per theme with the
oracle and report the paint and font values PlantUML draws, per element, as
a puml style sheet (`crates/puml-layout/themes/NAME.style` is written from
these observations, then reviewed by hand).

usage: scripts/theme_probe.py write       # (re)writes crates/puml-layout/themes/NAME.style from the reports
       scripts/theme_probe.py render      # (re)writes test-data/themes/NAME.puml + NAME.plantuml.svg
       scripts/theme_probe.py report [NAME...]   # prints the observed values as style sheets

The probe (test-data/themes/probe.body) exercises every sequence element:
each participant kind, messages, an activation, a note, groups with headers,
a divider, boxes, a ref, a delay, title, header, footer and legend. Values
are read from PlantUML's SVG by anchoring on the probe's texts.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "test-data" / "themes"
THEMES_RS = ROOT / "crates" / "puml-sema" / "src" / "themes.rs"


def theme_names():
    text = THEMES_RS.read_text()
    block = text[text.index("PLANTUML_THEMES") : text.index("];")]
    return re.findall(r'"([^"]+)"', block)


def render():
    body = (DIR / "probe.body").read_text()
    files = []
    for name in theme_names():
        p = DIR / f"{name}.puml"
        p.write_text(f"@startuml\n!theme {name}\n{body}@enduml\n")
        files.append(p)
    jar = subprocess.run(["/work/shared/tools/plantuml-oracle", "jar"], capture_output=True, text=True).stdout.strip()
    subprocess.run(["java", "-Djava.awt.headless=true", "-jar", jar, "-tsvg", *map(str, files)], check=True)
    for p in files:
        svg = p.with_suffix(".svg")
        svg.rename(p.with_name(p.stem + ".plantuml.svg"))


def short(c):
    if not c:
        return None
    c = c.strip()
    if c.startswith("url(") or c in ("none",):
        return c
    m = re.fullmatch(r"#([0-9a-fA-F]{3})", c)
    if m:
        return "#" + "".join(ch * 2 for ch in m.group(1)).upper()
    return c.upper() if c.startswith("#") else c


def elements(svg):
    gradients = {}
    for gid, body in re.findall(r'<linearGradient[^>]*id="([^"]+)"[^>]*>(.*?)</linearGradient>', svg):
        stops = re.findall(r'stop-color="([^"]+)"', body)
        gradients[gid] = [short(s) for s in stops]
    svg = re.sub(r"<defs>.*?</defs>", "", svg)
    out = []
    for m in re.finditer(r"<(rect|text|line|path|polygon|ellipse|polyline)\b([^>]*)>([^<]*)", svg):
        tag, attrs, text = m.groups()
        a = dict(re.findall(r'([\w-]+)="([^"]*)"', attrs))
        style = dict(kv.split(":", 1) for kv in a.get("style", "").split(";") if ":" in kv)
        fill = short(a.get("fill") or style.get("fill"))
        if fill and fill.startswith("url(#"):
            stops = gradients.get(fill[5:-1], [])
            fill = "-".join(stops) if stops else fill
        stroke = short(a.get("stroke") or style.get("stroke"))
        if a.get("fill-opacity") == "0":
            continue
        out.append({
            "tag": tag, "fill": fill, "stroke": stroke, "width": style.get("stroke-width"),
            "dash": style.get("stroke-dasharray"), "text": text.strip(), "size": a.get("font-size"),
            "weight": a.get("font-weight"), "family": a.get("font-family", "").strip("'"),
            "italic": a.get("font-style"), "rx": a.get("rx"), "w": a.get("width"), "h": a.get("height"),
        })
    return out


def report(name):
    svg = (DIR / f"{name}.plantuml.svg").read_text()
    els = elements(svg)
    bg = re.search(r"background:(#[0-9A-Fa-f]+)", svg)
    texts = [i for i, e in enumerate(els) if e["tag"] == "text"]

    def text_at(t, nth=0):
        hits = [i for i in texts if els[i]["text"] == t]
        return hits[nth] if len(hits) > nth else None

    def before(i, pred):
        for j in range(i - 1, -1, -1):
            if pred(els[j]):
                return els[j]
        return None

    def after(i, pred, limit=6):
        for j in range(i + 1, min(len(els), i + 1 + limit)):
            if pred(els[j]):
                return els[j]
        return None

    filled = lambda e: e["tag"] != "text" and e["fill"] not in (None, "none")
    rules = {}

    def put(sel, prop, value):
        if value:
            rules.setdefault(sel, {})[prop] = value

    def font(sel, t):
        if t is None:
            return
        e = els[t]
        put(sel, "FontColor", e["fill"])
        put(sel, "FontSize", unscale(e["size"]))
        put(sel, "FontName", e["family"] or None)
        if e["weight"] in ("700", "bold"):
            put(sel, "FontStyle", "bold")
        if e["italic"]:
            put(sel, "FontStyle", "italic")

    # Some themes scale the whole drawing (cerulean: 1.0417); lifelines are
    # dashed 5,5 before scaling, which gives the factor back.
    scale = 1.0
    dash = next((e["dash"] for e in els if e["tag"] == "line" and e["dash"] and len(e["dash"].split(",")) == 2
                 and e["dash"].split(",")[0] == e["dash"].split(",")[1] and float(e["dash"].split(",")[0]) >= 4), None)
    if dash:
        scale = float(dash.split(",")[0]) / 5.0

    def unscale(v):
        if v is None:
            return None
        x = float(v) / scale
        return f"{x:.1f}".rstrip("0").rstrip(".")

    def shape(sel, e, fill=True):
        if not e:
            return
        if fill:
            put(sel, "BackGroundColor", e["fill"])
        put(sel, "LineColor", e["stroke"])
        put(sel, "LineThickness", unscale(e["width"]))
        if e.get("rx") and e["tag"] == "rect":
            put(sel, "RoundCorner", unscale(2 * float(e["rx"])))

    put("document", "BackGroundColor", bg.group(1).upper() if bg else "none")
    font("header", text_at("Page Header"))
    font("footer", text_at("Page Footer"))
    t = text_at("Probe Title")
    font("title", t)
    if t is not None:
        shape("title", before(t, lambda e: e["tag"] == "rect") if els[t - 1]["tag"] == "rect" else None)
    t = text_at("Front")
    font("box", t)
    t = text_at("Back")
    font("box", t)
    if t is not None:
        shape("box", els[t - 1] if els[t - 1]["tag"] == "rect" else None)
    t = text_at("Alice")
    font("participant", t)
    if t is not None:
        shape("participant", before(t, filled))
    for kind, label, tag in [("actor", "Bob", "ellipse"), ("boundary", "Bnd", "ellipse"), ("control", "Ctl", "ellipse"),
                             ("entity", "Ent", "ellipse"), ("database", "Db", "path"), ("collections", "Col", "rect"),
                             ("queue", "Que", "path")]:
        t = text_at(label)
        if t is None:
            continue
        font(kind, t)
        e = after(t, lambda e: e["tag"] == tag and filled(e))
        if kind == "queue":
            e = before(t, lambda e: e["tag"] == tag and filled(e))
        if kind in ("collections",):
            e = before(t, lambda e: e["tag"] == "rect" and filled(e))
        shape(kind, e)
    act = next((e for e in els if e["tag"] == "rect" and e["w"] and float(e["w"]) <= 12 and e["h"] and float(e["h"]) > 20), None)
    if act:
        put("lifeLine", "BackGroundColor", act["fill"])
        # A bar a delay crosses is drawn in pieces: its border is the lines
        # that follow each piece (PlantUML's `activationBox` LineColor).
        i = els.index(act)
        border = next((e for e in els[i + 1 : i + 3] if e["tag"] == "line"), None)
        if border:
            put("activationBox", "LineColor", border["stroke"])
    life = next((e for e in els if e["tag"] == "line" and e["dash"] and e["dash"].split(",")[0] not in ("1", "1.042") and e["dash"].split(",")[0] == e["dash"].split(",")[-1] and float(e["dash"].split(",")[0]) >= 4), None)
    if life:
        put("lifeLine", "LineColor", life["stroke"])
        put("lifeLine", "LineThickness", life["width"])
    t = text_at("request")
    font("arrow", t)
    if t is not None:
        line = before(t, lambda e: e["tag"] == "line")
        shape("arrow", line, fill=False)
    t = text_at("a note")
    font("note", t)
    if t is not None:
        shape("note", before(t, lambda e: e["tag"] in ("path", "polygon") and filled(e)))
    t = text_at("alt")
    font("groupHeader", t)
    if t is not None:
        tab = before(t, lambda e: e["tag"] in ("path", "polygon"))
        shape("groupHeader", tab)
        # Most themes draw the tab without an outline.
        if tab is not None and not tab["stroke"]:
            put("groupHeader", "LineThickness", "0")
        frame = before(t, lambda e: e["tag"] == "rect")
        shape("group", frame)
        # The body is a filled rect of the frame's size drawn before it
        # (white or the page colour in most themes; a top-to-bottom gradient,
        # written `#A-#B`, in materia, metal, silver and the spacelabs).
        if frame is not None:
            body = next((e for e in els if e["tag"] == "rect" and filled(e) and e is not frame
                         and (e["w"], e["h"]) == (frame["w"], frame["h"])), None)
            if body is not None:
                put("group", "BackGroundColor", body["fill"])
    font("group", text_at("[success]"))
    t = text_at("Divider")
    font("separator", t)
    if t is not None:
        shape("separator", before(t, lambda e: e["tag"] == "rect"))
    t = text_at("ref")
    if t is not None:
        font("reference", text_at("referenced"))
        frame = before(t, lambda e: e["tag"] == "rect")
        shape("reference", frame)
        tab = before(t, lambda e: e["tag"] in ("path", "polygon"))
        if tab:
            put("referenceHeader", "BackGroundColor", tab["fill"])
            put("referenceHeader", "LineColor", tab["stroke"])
            put("referenceHeader", "LineThickness", unscale(tab["width"]) if tab["stroke"] else "0")
        font("referenceHeader", t)
    font("delay", text_at("delay"))
    t = text_at("The legend")
    font("legend", t)
    if t is not None:
        shape("legend", before(t, lambda e: e["tag"] == "rect"))
    lines = [f"' !theme {name}, as PlantUML 1.2026.8 draws it (observed by scripts/theme_probe.py)"]
    if scale != 1.0:
        lines.append(f"' PlantUML scales this theme's drawing by {scale:.4f} (puml does not)")
    for sel, props in rules.items():
        body = "; ".join(f"{k} {v}" for k, v in props.items())
        lines.append(f"{sel} {{ {body} }}")
    return "\n".join(lines)


KEPT_MARK = "' --- observed spacing (kept by scripts/theme_probe.py write) ---"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "write":
        out = ROOT / "crates" / "puml-layout" / "themes"
        out.mkdir(exist_ok=True)
        for name in theme_names():
            if name == "_none_":
                continue
            sheet = out / f"{name}.style"
            # Spacing observed by hand with targeted probes (margins,
            # paddings, box padding) follows a marker line and is kept.
            kept = ""
            if sheet.exists():
                text = sheet.read_text()
                at = text.find(KEPT_MARK)
                if at >= 0:
                    kept = text[at:]
            sheet.write_text(report(name) + "\n" + kept)
        return 0
    if len(sys.argv) < 2 or sys.argv[1] not in ("render", "report"):
        print(__doc__)
        return 2
    if sys.argv[1] == "render":
        render()
        return 0
    for name in sys.argv[2:] or theme_names():
        print(report(name))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
