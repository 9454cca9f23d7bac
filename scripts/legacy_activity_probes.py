#!/usr/bin/env python3
"""Writes the legacy activity probes of test-data/legacy-activity-probes/
(each construct alone, after a neighbour, nested; NAME.puml) and renders
them with PlantUML in one JVM (NAME.puml.svg beside each), for the
ratchet `crates/puml-ide/tests/graph_fidelity_legacy_activity.rs`.

    python3 scripts/legacy_activity_probes.py [--jar PATH]
"""
import argparse
import os
import subprocess
import sys
import tempfile

OUT = os.path.join(os.path.dirname(__file__), "..", "test-data", "legacy-activity-probes")

# Each construct on its own: the body between @startuml and @enduml.
CONSTRUCTS = {
    "start-end": '(*) --> "First"\n"First" --> (*)',
    "chain": '(*) --> "First"\n"First" --> "Second"\n"Second" --> "Third"\n"Third" --> (*)',
    "implicit-source": '(*) --> "First"\n--> "Second"\n--> (*)',
    "short-arrow": '(*) -> "A"\n"A" -> "B"\n"B" --> (*)',
    "long-arrow": '(*) ---> "A"\n"A" --> "B"\n"B" --> (*)',
    "dotted": '(*) ..> "A"\n"A" ..> (*)',
    "label": '(*) --> "A"\n"A" -->[yes] "B"\n"B" -->[done] (*)',
    "alias": '(*) --> "Long activity text" as L\nL --> "Other" as O\nO --> (*)',
    "plain-names": "(*) --> A\nA --> B\nB --> (*)",
    "colour": '(*) --> "A" #pink\n"A" --> "B" #lightblue\n"B" --> (*)',
    "arrow-colour": '(*) -[#red]-> "A"\n"A" -[#blue]->[x] "B"\n"B" --> (*)',
    "right": '(*) --> "A"\n"A" -right-> "B"\n"B" --> (*)',
    "left": '(*) --> "A"\n"A" -left-> "B"\n"B" --> (*)',
    "up": '(*) --> "A"\n"A" --> "B"\n"B" -up-> "C"',
    "directions": '(*) -right-> "A"\n-down-> "B"\n-left-> "C"\n-up-> "D"',
    "if-else": '(*) --> "X"\nif "c" then\n  -->[true] "A"\nelse\n  -->[false] "B"\nendif\n"A" --> (*)\n"B" --> (*)',
    "if-no-else": '(*) --> "X"\nif "c" then\n  -->[yes] "A"\nendif\n"A" --> (*)',
    "if-right": '(*) --> "X"\nif "cond" then\n  --> "A"\nelse\n  -right-> "B"\nendif\n"A" --> (*)\n"B" --> (*)',
    "if-nested": '(*) --> "X"\nif "a" then\n  --> "A"\n  if "b" then\n    --> "B1"\n  else\n    --> "B2"\n  endif\nelse\n  --> "C"\nendif\n"C" --> (*)\n"B1" --> (*)\n"B2" --> (*)',
    "if-unquoted": '(*) --> "X"\nif ready then\n  --> "Go"\nelse\n  --> "Wait"\nendif',
    "bars": '(*) --> ===B1===\n===B1=== --> "A"\n===B1=== --> "B"\n"A" --> ===B2===\n"B" --> ===B2===\n===B2=== --> (*)',
    "bars-three": '(*) --> ===F===\n===F=== --> "A"\n===F=== --> "B"\n===F=== --> "C"\n"A" --> ===J===\n"B" --> ===J===\n"C" --> ===J===\n===J=== --> (*)',
    "note-right": '(*) --> "A"\nnote right: a note\n"A" --> (*)',
    "note-left": '(*) --> "A"\nnote left: a note\n"A" --> (*)',
    "note-top": '(*) --> "A"\n"A" --> "B"\nnote top: above\n"B" --> (*)',
    "note-bottom": '(*) --> "A"\nnote bottom: below\n"A" --> "B"\n"B" --> (*)',
    "note-block": '(*) --> "A"\nnote right\n  first line\n  second line\nend note\n"A" --> (*)',
    "notes-all": '(*) --> "A"\nnote right: r\n"A" --> "B"\nnote left: l\n"B" --> "C"\nnote top: t\n"C" --> "D"\nnote bottom: b',
    "partition": 'partition P {\n(*) --> "A"\n"A" --> "B"\n}\n"B" --> (*)',
    "partition-two": 'partition One {\n(*) --> "A"\n}\npartition Two {\n"A" --> "B"\n}\n"B" --> (*)',
    "multiline-text": '(*) --> "first line\\nsecond line"\n--> (*)',
    "title": 'title Legacy\n(*) --> "A"\n"A" --> (*)',
    "skinparam": 'skinparam activityBackgroundColor #EEEEFF\n(*) --> "A"\n"A" --> (*)',
    "left-to-right": 'left to right direction\n(*) --> "A"\n"A" --> "B"\n"B" --> (*)',
    "loop-back": '(*) --> "A"\n"A" --> "B"\n"B" --> "A"\n"B" --> (*)',
    "two-ends": '(*) --> "A"\n(*) --> "B"\n"A" --> (*)\n"B" --> (*)',
    "self-loop": '(*) --> "A"\n"A" --> "A"\n"A" --> (*)',
    "comment": "' a comment\n(*) --> \"A\"\n' another\n\"A\" --> (*)",
}

# Neighbours: a construct after a plain chain.
NEIGHBOUR = '(*) --> "Before"\n"Before" --> "Middle"\n'
AFTER = {
    "after-if": 'if "ok" then\n  --> "Yes"\nelse\n  --> "No"\nendif\n"Yes" --> (*)',
    "after-bars": '"Middle" --> ===S===\n===S=== --> "P"\n===S=== --> "Q"\n"P" --> ===E===\n"Q" --> ===E===\n===E=== --> (*)',
    "after-note": 'note left: beside\n"Middle" --> (*)',
    "after-label": '"Middle" -->[go on] "Next"\n"Next" -->[stop] (*)',
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jar", default=os.path.expanduser("~/.cache/plantuml-oracle/plantuml.jar"))
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    cases = dict(CONSTRUCTS)
    cases.update({name: NEIGHBOUR + body for name, body in AFTER.items()})
    paths = []
    for name, body in sorted(cases.items()):
        path = os.path.join(OUT, name + ".puml")
        with open(path, "w") as f:
            f.write("@startuml\n" + body + "\n@enduml\n")
        paths.append(path)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["java", "-Djava.awt.headless=true", "-jar", args.jar, "-tsvg", "-o", tmp] + paths,
            check=False,
        )
        for path in paths:
            name = os.path.basename(path)[: -len(".puml")]
            svg = os.path.join(tmp, name + ".svg")
            if os.path.exists(svg):
                os.replace(svg, path + ".svg")
            else:
                print(f"no SVG for {name}", file=sys.stderr)
    print(f"{len(paths)} probes in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
