#!/usr/bin/env python3
"""The state-diagram probes of test-data/state-probes: each construct alone,
after a neighbour (three states before it), nested in one composite and in
two, plus whole files for what has no construct form; PlantUML's SVG beside
each (`NAME.puml.svg`), the answers `crates/puml-ide/tests/graph_fidelity_state.rs`
measures puml's layout against.

    scripts/state_probes.py            # write every .puml, SVGs for new ones
    scripts/state_probes.py --all      # and redraw every SVG with PlantUML

One JVM draws the batch (PlantUML 1.2026.8, ~/.cache/plantuml-oracle).
Rerunning writes the same files: a probe's text never changes once its SVG
is stored (add new constructs instead).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "test-data", "state-probes")
JAR = os.path.expanduser("~/.cache/plantuml-oracle/plantuml.jar")

# (construct, forms, body): the body's lines as written at the top level.
FAMILIES = [
    ('choice', ['alone', 'after', 'nested', 'nested2'],
     'state c <<choice>>\nA --> c\nc --> B : [x > 0]\nc --> C : [x <= 0]'),
    ('colors', ['alone', 'after', 'nested', 'nested2'],
     'state A #pink\nstate B ##[dashed]blue\nA -[#red]-> B\nB -[dashed]-> C'),
    ('cycle', ['after', 'nested', 'nested2'],
     'A --> B\nB --> C\nC --> A\nC --> D'),
    ('desc', ['alone', 'after', 'nested', 'nested2'],
     'state A : first line\nA : second line\nA --> B : go'),
    ('dirs', ['after', 'nested', 'nested2'],
     'A -up-> B\nA -left-> C\nA -right-> D\nA -down-> E'),
    ('endstereo', ['alone', 'after', 'nested', 'nested2'],
     'state e <<end>>\nA --> e'),
    ('fan', ['alone', 'after', 'nested', 'nested2'],
     '[*] --> A\nA --> B\nA --> C\nA --> D\nB --> E\nC --> E\nD --> E\nE --> [*]'),
    ('fork', ['alone', 'after', 'nested', 'nested2'],
     'state f <<fork>>\nstate j <<join>>\n[*] --> f\nf --> A\nf --> B\nA --> j\nB --> j\nj --> [*]'),
    ('history', ['after', 'nested', 'nested2'],
     'A --> [H]\nA --> [H*]'),
    ('labels', ['after', 'nested', 'nested2'],
     'A --> B : one\nB --> C : two\\nlines\nC --> A : back'),
    ('lefthead', ['after', 'nested', 'nested2'],
     'A <- B\nB <-- C\nC --> D'),
    ('lengths', ['after', 'nested', 'nested2'],
     'A -> B\nB --> C\nC ---> D'),
    ('long', ['alone', 'after', 'nested', 'nested2'],
     'state "Long display name" as L\nL --> M'),
    ('note_block', ['alone', 'after', 'nested', 'nested2'],
     'state A\nnote bottom of A\n  block note\n  second line\nend note\nA --> B'),
    ('note_left', ['alone', 'after', 'nested', 'nested2'],
     'state A\nnote left of A : a note\\nwith two lines\nA --> B'),
    ('note_right', ['alone', 'after', 'nested', 'nested2'],
     'state A\nnote right of A : a note\nA --> B'),
    ('plain', ['alone', 'after', 'nested', 'nested2'],
     'state A\nA --> B'),
    ('selfloop', ['after', 'nested', 'nested2'],
     'A --> A : again\nA --> B'),
    ('start_end', ['alone', 'after', 'nested', 'nested2'],
     '[*] --> A\nA --> [*]'),
    # Composites a transition crosses (PlantUML draws them as clusters of the
    # graph around them, not as one node laid out alone).
    ('crossing', ['alone', 'after', 'nested'],
     'state X {\n  A --> B\n}\nC --> A\nB --> D'),
    ('crossing_out', ['alone', 'after', 'nested'],
     'state X {\n  [*] --> A\n  A --> B\n}\nB --> C\nC --> X'),
    ('entry_exit', ['alone', 'after', 'nested'],
     'state X {\n  state in1 <<entryPoint>>\n  state out1 <<exitPoint>>\n  in1 --> A\n  A --> out1\n}\n[*] --> in1\nout1 --> D'),
    # Composites laid out alone: starts and ends inside, sizes of contents.
    ('composite_start', ['alone', 'after', 'nested'],
     '[*] --> X\nstate X {\n  [*] --> A\n  A --> [*]\n}\nX --> [*]'),
    ('composite_desc', ['alone', 'after', 'nested'],
     'state X {\n  state A : does a\n  A --> B : go\n}\nX --> Y'),
    ('composite_wide', ['alone', 'after', 'nested'],
     'state X {\n  A --> B\n  A --> C\n  A --> D\n}\nX --> Y'),
    ('regions_side', ['alone', 'after', 'nested'],
     'state X {\n  [*] --> A\n  A --> B\n  ||\n  [*] --> C\n}\nX --> Y'),
    ('regions_stack', ['alone', 'after', 'nested'],
     'state X {\n  [*] --> A\n  --\n  [*] --> B\n  B --> C\n  --\n  D --> E\n}\nX --> Y'),
    ('hide_empty', ['alone', 'after', 'nested'],
     'hide empty description\nstate A\nstate B : text\nA --> B\nB --> C'),
    ('note_top', ['alone', 'after', 'nested'],
     'state A\nnote top of A : above\nA --> B'),
    ('note_link', ['alone', 'after'],
     'state A\nA --> B : go\nnote on link : about it'),
    ('note_floating', ['alone', 'after'],
     'state A\nnote "floating" as N\nA --> B'),
    ('stereo', ['alone', 'after', 'nested'],
     'state A <<service>>\nA --> B'),
    ('multiline', ['alone', 'after', 'nested'],
     'state A : one\nA : two\nA : three\nA --> B : a long label here'),
]

# Whole files.
SINGLES = {
    'composite-links': '@startuml\n[*] --> X\nstate X {\n  [*] --> A\n  A --> B\n  B --> [*]\n}\nX --> Y : done\nY --> [*]\n@enduml\n',
    'composite-siblings': '@startuml\nstate X {\n  A --> B\n}\nstate Y {\n  C --> D\n}\nX --> Y\nY --> X : back\n@enduml\n',
    'hide-empty': '@startuml\nhide empty description\n[*] --> A\nA --> B\nstate B : has text\n@enduml\n',
    'lr-nested': '@startuml\nleft to right direction\nstate X {\n  [*] --> A\n  A --> B\n}\nX --> Y\n@enduml\n',
    'lr-plain': '@startuml\nleft to right direction\n[*] --> A\nA --> B : go\nB --> C\nC --> [*]\n@enduml\n',
    'regions-h': '@startuml\nstate X {\n  [*] --> A\n  --\n  [*] --> B\n  B --> C\n}\n@enduml\n',
    'regions-v': '@startuml\nstate X {\n  [*] --> A\n  ||\n  [*] --> B\n  B --> C\n}\n@enduml\n',
    'skin': '@startuml\nskinparam stateBackgroundColor #E3F2FD\nskinparam stateBorderColor #1565C0\n[*] --> A\nA --> B\n@enduml\n',
    'title': '@startuml\ntitle State title\n[*] --> A\nA --> [*]\n@enduml\n',
    'lr-note': '@startuml\nleft to right direction\nstate A\nnote right of A : beside\nA --> B\nB --> C\n@enduml\n',
    'lr-note-left': '@startuml\nleft to right direction\nstate A\nnote left of A : before\nA --> B\n@enduml\n',
    'lr-crossing': '@startuml\nleft to right direction\nstate X {\n  A --> B\n}\nC --> A\n@enduml\n',
    'lr-regions': '@startuml\nleft to right direction\nstate X {\n  A --> B\n  --\n  C --> D\n}\n[*] --> X\n@enduml\n',
    'deep-composite': '@startuml\nstate A {\n  state B {\n    state C {\n      [*] --> D\n    }\n  }\n}\n[*] --> A\nA --> E\n@enduml\n',
    'two-starts': '@startuml\n[*] --> A\nstate X {\n  [*] --> B\n  B --> [*]\n}\nA --> X\nstate Y {\n  [*] --> C\n}\nX --> Y\nY --> [*]\n@enduml\n',
    'stereo-skin': '@startuml\nskinparam state {\n  BackgroundColor<<hot>> #FFAAAA\n  BorderColor<<hot>> #AA0000\n  FontColor<<hot>> white\n}\nstate A <<hot>>\nA --> B\n@enduml\n',
    'hide-empty-composite': '@startuml\nhide empty description\nstate X {\n  A --> B\n}\n[*] --> X\nX --> C\n@enduml\n',
}

AFTER = "state Before\nBefore --> X1\nX1 --> X2\n"


def indent(body, by):
    return "".join(by + line + "\n" for line in body.split("\n"))


def form(body, which):
    if which == "alone":
        return "@startuml\n" + body + "\n@enduml\n"
    if which == "after":
        return "@startuml\n" + AFTER + body + "\n@enduml\n"
    # `hide empty description` is a diagram-wide command: it stays on top.
    head, rest = "", body
    if body.startswith("hide empty description\n"):
        head, rest = "hide empty description\n", body[len(head):]
    if which == "nested":
        return "@startuml\n" + head + "state Outer {\n" + indent(rest, "  ") + "}\n@enduml\n"
    if which == "nested2":
        return ("@startuml\n" + head + "state Outer {\n  state Mid {\n" + indent(rest, "    ")
                + "  }\n}\n@enduml\n")
    raise ValueError(which)


def probes():
    out = {}
    for name, forms, body in FAMILIES:
        for which in forms:
            out[f"{name}-{which}"] = form(body, which)
    out.update(SINGLES)
    return out


def main():
    redraw_all = "--all" in sys.argv[1:]
    os.makedirs(OUT, exist_ok=True)
    todo = []
    for name, text in sorted(probes().items()):
        path = os.path.join(OUT, name + ".puml")
        with open(path, "w") as f:
            f.write(text)
        if redraw_all or not os.path.exists(path + ".svg"):
            todo.append(path)
    if todo:
        subprocess.run(["java", "-Djava.awt.headless=true", "-jar", JAR, "-tsvg", "-o", os.path.abspath(OUT)]
                       + todo, check=False)
        # PlantUML names its output NAME.svg: store it as NAME.puml.svg.
        for path in todo:
            drawn = path[: -len(".puml")] + ".svg"
            if os.path.exists(drawn):
                os.replace(drawn, path + ".svg")
    print(f"{len(probes())} probes, {len(todo)} drawn by PlantUML")


if __name__ == "__main__":
    main()
