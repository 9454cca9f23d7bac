#!/usr/bin/env python3
"""Probe every skin parameter that can change a sequence diagram with the
oracle, so that puml's rules (crates/puml-layout/src/theme.rs and the
sequence layout) are derived from PlantUML's drawings, not from memory.

usage: scripts/skinparam_probe.py write    # (re)writes test-data/skinparam-sequence/*.puml
       scripts/skinparam_probe.py render   # renders them with PlantUML (one JVM) into NAME.plantuml.svg
       scripts/skinparam_probe.py list     # prints the probe names and the skinparam each sets
       scripts/skinparam_probe.py ignored  # the probed names whose drawing equals the baseline's

The parameters come from `java -jar plantuml.jar -language` (its
`;skinparameter` section), restricted to the families a sequence diagram
draws (participants of each kind, arrows, notes, groups, dividers, refs,
delays, boxes, lifelines, title/header/footer/legend/caption, the page),
plus the colour and thickness names PlantUML reads but does not list
(`ParticipantBackgroundColor`, `ArrowColor`, `LifeLineBorderColor`, …).
Each gets a value chosen by its suffix (a colour no default uses, a size,
a face, `bold`, a thickness, an alignment) and one probe alone; then come
the forms real files use: `skinparam sequence { … }` and
`skinparam participant { … }` blocks, stereotype-scoped names, `<style>`
equivalents, and the special cases (maxMessageSize wrapping, message
alignment, paddings, an unknown default face, `%page%` headers,
`scale max N width`, a diagram border, deprecated names).

`crates/puml-render/tests/paint_fidelity.rs` (`skinparam_probes_…`)
renders every probe with puml and compares texts and paints with the
stored SVGs, without Java.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "test-data" / "skinparam-sequence"
JAR = Path.home() / ".cache" / "plantuml-oracle" / "plantuml.jar"

BODY = """\
title Probe Title
header Header %page% of %lastpage%
footer Page Footer
box "Front"
participant Alice
actor Bob <<Human>>
end box
boundary Bnd
control Ctl
entity Ent
database Db <<Store>>
collections Col
queue Que
Alice -> Bob : hello world message
activate Bob
Bob --> Alice : reply
Bob -> Bob : self call
note left of Alice : a note
note over Bob, Db : shared note
alt success case
  Bob -> Db : query
else failure
  Db -> Que : error
  Bnd -> Ctl : check
end
group Custom [extra]
  Alice -> Db : call
  Ent -> Col : store
end
deactivate Bob
== Divider ==
ref over Alice, Bob : referenced
...delay text...
legend
Legend text
end legend
"""

# The families a sequence diagram draws, as PlantUML names them.
SEQUENCE_PREFIXES = (
    "Participant", "Actor", "Boundary", "Control", "Entity", "Database", "Collections", "Queue",
    "Arrow", "Note", "Sequence", "Default", "Diagram", "Title", "Header", "Footer", "Legend",
    "Caption", "Box", "Lifeline", "LifeLine", "Group", "Divider", "Reference", "Delay",
)
SINGLE = {
    "BackgroundColor", "BoxPadding", "ParticipantPadding", "MaxMessageSize", "Monochrome", "Padding",
    "RoundCorner", "Shadowing", "ResponseMessageBelowArrow", "Style", "Guillemet", "HyperlinkColor",
    "HyperlinkUnderline", "DefaultTextAlignment", "PageMargin", "WrapWidth", "TabSize",
    "DefaultMonospacedFontName",
}
# Names PlantUML reads for sequence diagrams but does not list.
UNLISTED = [
    f"{kind}{prop}"
    for kind in ("Participant", "Actor", "Boundary", "Control", "Entity", "Database", "Collections", "Queue")
    for prop in ("BackgroundColor", "BorderColor", "BorderThickness")
] + [
    "ArrowColor", "LifeLineBorderColor", "LifeLineBackgroundColor", "NoteBorderColor",
    "SequenceGroupBackgroundColor", "SequenceGroupBorderColor", "SequenceGroupHeaderFontColor",
    "SequenceDividerBackgroundColor", "SequenceDividerBorderColor", "SequenceReferenceBorderColor",
    "SequenceBoxBackgroundColor", "SequenceLifeLineBackgroundColor", "SequenceMessageAlign",
    "LegendBackgroundColor", "LegendBorderColor", "TitleBackgroundColor", "TitleBorderColor",
    "SequenceTitleFontSize", "CollectionsFontSize", "CollectionsFontStyle", "CollectionsFontName",
    "CollectionsFontColor", "SequenceParticipantBorderThickness", "SequenceArrowThickness",
]
ITALIC_TOO = {"participantfontstyle", "arrowfontstyle", "notefontstyle", "defaultfontstyle", "sequencegroupheaderfontstyle"}
SKIP = {"Handwritten", "Dpi", "SvglinkTarget", "PathHoverColor", "Style", "Monochrome"}


def language_names():
    out = subprocess.run(["java", "-jar", str(JAR), "-language"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    start = lines.index(";skinparameter") + 2
    names = []
    for line in lines[start:]:
        if line.startswith(";"):
            break
        names.append(line.strip())
    return names


def relevant(name):
    if name in SKIP:
        return False
    if name in SINGLE:
        return True
    return name.startswith(SEQUENCE_PREFIXES)


def value_for(name):
    n = name.lower()
    if n.endswith("fontstyle"):
        return "bold"
    if n.endswith("fontname"):
        return "Courier"
    if n.endswith("fontsize"):
        return "18"
    if n.endswith("fontcolor"):
        return "#0055AA"
    if n.endswith("headerbackgroundcolor"):
        return "#CCEEFF"
    if n.endswith("backgroundcolor"):
        return "#FFCCAA"
    if n.endswith("bordercolor") or n.endswith("color"):
        return "#AA3300"
    if n.endswith("thickness"):
        return "3"
    if n.endswith("alignment") or n.endswith("align"):
        return "center"
    if n.endswith("padding") or n.endswith("margin"):
        return "20"
    if n in ("maxmessagesize", "wrapwidth"):
        return "60"
    if n == "roundcorner" or n.endswith("roundcorner"):
        return "15"
    if n in ("shadowing", "responsemessagebelowarrow", "hyperlinkunderline", "monochrome"):
        return "true"
    if n == "guillemet":
        return "false"
    if n == "tabsize":
        return "8"
    return None


# Bodies for the `skinparam padding` probes: each kind of event once.
PADDING_BODIES = {
    "messages": """\
participant Alice
participant "Bob\\nthe second" as Bob
participant C
autonumber
Alice -> Bob : hello
Bob --> Alice : a reply\\non two lines
Bob -> Bob : self call
Bob -> C
return done
C -> Alice : back
[-> Alice : found
Alice ->] : lost
""",
    "notes": """\
participant Alice
participant Bob
Alice -> Bob : hello
note left : on the message
note right of Bob : right\\nnote
note over Alice : over one
note over Alice, Bob : across both
hnote over Bob : hexagonal
rnote over Alice : boxed
Bob -> Alice : ok
""",
    "groups": """\
participant Alice
participant Bob
participant Carol
alt first
  Alice -> Bob : one
else second
  Bob -> Carol : two
  loop 3 times
    Carol -> Carol : again
  end
end
group
  Alice -> Carol : plain
end
== Section ==
...
... later ...
|||
||45||
ref over Alice, Bob : a ref\\nof two lines
Alice -> Bob : last
""",
}

# Other settings beside `padding 10`.
PADDING_COMBINATIONS = {
    "participantpadding": "skinparam ParticipantPadding 10\nskinparam BoxPadding 10",
    "maxmessagesize": "skinparam maxMessageSize 60",
    "fontsize": "skinparam defaultFontSize 16",
}


def probe(name, head, body=BODY):
    return name, f"@startuml\n{head}\n{body}@enduml\n"


def probes():
    out = []
    names = sorted(set(filter(relevant, language_names())) | set(UNLISTED), key=str.lower)
    for name in names:
        value = value_for(name)
        if value is None:
            continue
        out.append(probe(f"p_{name.lower()}", f"skinparam {name} {value}"))
        if name.lower() in ITALIC_TOO:
            out.append(probe(f"p_{name.lower()}_italic", f"skinparam {name} italic"))
    special = {
        "base": "",
        "maxmessagesize_40": "skinparam maxMessageSize 40",
        "maxmessagesize_100_long": "skinparam maxMessageSize 100\nAlice -> Bob : a much longer message label that has to wrap over several lines",
        "messagealign_direction": "skinparam sequenceMessageAlign direction",
        "messagealign_right": "skinparam sequenceMessageAlign right",
        "messagealign_reversedirection": "skinparam sequenceMessageAlign reverseDirection",
        "participantpadding_30": "skinparam ParticipantPadding 30",
        "boxpadding_30": "skinparam BoxPadding 30",
        "padding_both": "skinparam ParticipantPadding 20\nskinparam BoxPadding 10",
        "defaultfontname_unknown": "skinparam defaultFontName NoSuchFontAnywhere",
        "defaultfontname_courier": "skinparam defaultFontName Courier",
        "defaultfontsize_15": "skinparam defaultFontSize 15",
        "defaultfontstyle_bold": "skinparam defaultFontStyle bold",
        "defaulttextalignment_center": "skinparam defaultTextAlignment center",
        "defaulttextalignment_right": "skinparam defaultTextAlignment right",
        "diagramborder": "skinparam DiagramBorderColor #AA3300\nskinparam DiagramBorderThickness 2",
        "diagramborder_color_only": "skinparam DiagramBorderColor black",
        "scale_max_300_width": "scale max 300 width",
        "scale_1_5": "scale 1.5",
        "arrowthickness_fontsize": "skinparam ArrowThickness 2\nskinparam ArrowFontSize 15",
        "participant_borderthickness_2": "skinparam ParticipantBorderThickness 2",
        "groupheader_font": "skinparam SequenceGroupHeaderFontSize 16\nskinparam SequenceGroupHeaderFontName Courier",
        "dividerfontsize_16": "skinparam SequenceDividerFontSize 16",
        "dividerfontsize_bare": "skinparam DividerFontSize 16",
        "groupheaderfontsize_bare": "skinparam GroupHeaderFontSize 16",
        "block_sequence": "skinparam sequence {\n  ArrowColor #AA3300\n  ArrowFontStyle bold\n  LifeLineBorderColor #0055AA\n  ParticipantBorderColor #AA3300\n  ParticipantBackgroundColor #FFCCAA\n  ParticipantFontSize 16\n  ParticipantFontStyle bold\n  GroupHeaderFontSize 14\n  DividerFontSize 14\n}",
        "block_participant": "skinparam participant {\n  BackgroundColor #FFCCAA\n  BorderColor #AA3300\n  FontStyle bold\n  FontSize 15\n  BorderThickness 2\n}",
        "block_note": "skinparam note {\n  BackgroundColor #FFCCAA\n  BorderColor #AA3300\n  FontStyle italic\n  FontSize 14\n}",
        "block_arrow": "skinparam arrow {\n  Color #AA3300\n  FontColor #0055AA\n  FontStyle bold\n  Thickness 2\n}",
        "stereotype_background": "skinparam DatabaseBackgroundColor<<Store>> #FFCCAA\nskinparam DatabaseBorderColor<<Store>> #AA3300",
        "stereotype_participant": "skinparam ParticipantBackgroundColor<<Store>> #FFCCAA",
        "stereotype_font": "skinparam ParticipantStereotypeFontColor #0055AA\nskinparam ParticipantStereotypeFontSize 16\nskinparam DatabaseStereotypeFontStyle bold",
        "style_participant_bold": "<style>\nparticipant { FontStyle bold }\n</style>",
        "style_arrow_bold": "<style>\narrow { FontStyle bold ; FontSize 15 }\n</style>",
        "style_group_header": "<style>\ngroupHeader { FontSize 16 ; FontStyle bold }\n</style>",
        "style_note_bold": "<style>\nnote { FontStyle bold }\n</style>",
        "style_divider": "<style>\nseparator { FontSize 16 ; FontStyle bold }\n</style>",
        "style_document_border": "<style>\ndocument { LineColor #AA3300 ; LineThickness 2 }\n</style>",
        "fontstyle_all_bold": "skinparam ParticipantFontStyle bold\nskinparam ArrowFontStyle bold\nskinparam NoteFontStyle bold\nskinparam SequenceGroupFontStyle bold\nskinparam SequenceGroupHeaderFontStyle bold",
        "combination_real": "skinparam shadowing false\nskinparam defaultFontName Arial\nskinparam defaultFontSize 13\nskinparam ArrowColor #AA3300\nskinparam ParticipantFontStyle bold\nskinparam sequenceArrowThickness 2\nskinparam roundcorner 10\nskinparam maxMessageSize 80\nskinparam sequenceParticipant underline",
        "deprecated_sequence_participant_underline": "skinparam sequenceParticipant underline",
        "handwritten_off": "skinparam handwritten false",
        "monochrome_true": "skinparam monochrome true",
        "style_strictuml": "skinparam style strictuml",
        "lifelinestrategy_solid": "skinparam lifelineStrategy solid",
        "footer_page": "footer Page %page% of %lastpage%",
        "responsebelow_arrow": "skinparam responseMessageBelowArrow true",
        # wrapWidth is maxMessageSize plus note { MaximumWidth } at its
        # line, winning over maxMessageSize wherever that is written.
        "wrapwidth_after_maxmessagesize": "skinparam maxMessageSize 200\nskinparam wrapWidth 60",
        "wrapwidth_before_maxmessagesize": "skinparam wrapWidth 60\nskinparam maxMessageSize 200",
        "wrapwidth_then_note_style": "skinparam wrapWidth 60\n<style>\nnote { MaximumWidth 200 }\n</style>",
        "note_style_then_wrapwidth": "<style>\nnote { MaximumWidth 200 }\n</style>\nskinparam wrapWidth 40",
    }
    for name, head in special.items():
        out.append(probe(f"s_{name}", head))
    # `skinparam padding N` adds N around every text block; generated over
    # N and bodies that draw each kind of event, alone and with the other
    # paddings and sizes real files set beside it.
    for n in (0, 5, 10, 20):
        for body_name, body in PADDING_BODIES.items():
            out.append(probe(f"s_padding_{n}_{body_name}", f"skinparam padding {n}", body))
    for name, head in PADDING_COMBINATIONS.items():
        out.append(probe(f"s_padding_10_{name}", f"skinparam padding 10\n{head}"))
    return out


def write():
    DIR.mkdir(parents=True, exist_ok=True)
    for name, text in probes():
        (DIR / f"{name}.puml").write_text(text)


def render():
    files = sorted(str(p) for p in DIR.glob("*.puml"))
    subprocess.run(["java", "-Djava.awt.headless=true", "-jar", str(JAR), "-tsvg", *files], check=False)
    for f in files:
        svg = Path(f).with_suffix(".svg")
        if svg.exists():
            svg.rename(Path(f).with_name(Path(f).stem + ".plantuml.svg"))


def normalised(svg):
    # PlantUML writes the source into a comment at the end; leave it out.
    return re.sub(r"<\?plantuml-src.*?\?>|<!--.*?-->", "", svg, flags=re.S)


def ignored():
    base = normalised((DIR / "s_base.plantuml.svg").read_text())
    for p in sorted(DIR.glob("p_*.plantuml.svg")):
        if normalised(p.read_text()) == base:
            print(p.name.removesuffix(".plantuml.svg")[2:])


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "list"
    if cmd == "write":
        write()
    elif cmd == "render":
        render()
    elif cmd == "ignored":
        ignored()
    else:
        for name, text in probes():
            print(name, text.splitlines()[1])
