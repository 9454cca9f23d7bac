#!/usr/bin/env python3
"""Renders the real diagrams of test-data/sequence-wild (and, given as DIR,
of test-data/activity-wild) with the oracle: public files outside the
shared corpora (from repositories they do not draw from), kept with their
source in SOURCES.tsv (repository, path, commit), so that puml's fidelity
is measured on diagrams no one tuned the layout to.

usage: scripts/sequence_wild.py render [DIR]   # writes NAME.plantuml.svg beside each DIR/NAME.puml

DIR is test-data/sequence-wild by default; test-data/sequence-probes holds
the small diagrams the rules the wild files showed off were derived from
(self messages and notes in groups, notes over two heads, quoted titles).

PlantUML names its output after `@startuml NAME` when a file gives one, so
files are rendered in batches whose output names differ (one JVM per
batch), each batch into its own folder, and the SVG is renamed after the
source file.

`crates/puml-render/tests/paint_fidelity.rs` (`wild_sequence_diagrams_…`)
renders every file with puml and compares texts and paints with the stored
SVGs, without Java.
"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "test-data" / "sequence-wild"
JAR = Path.home() / ".cache" / "plantuml-oracle" / "plantuml.jar"


def output_stem(source: Path) -> str:
    """The name PlantUML gives the SVG of `source`."""
    for line in source.read_text(encoding="utf-8", errors="replace").splitlines():
        match = re.match(r"\s*@startuml\s+(.+?)\s*$", line)
        if match:
            # PlantUML stops the name at a comma and drops the quotes
            # around a quoted name (both observed).
            return match.group(1).split(",")[0].strip().strip('"')
        if line.strip().startswith("@startuml"):
            break
    return source.stem


def batches(sources):
    """Groups `sources` so that no two in a group share an output name."""
    groups = []
    for source in sources:
        stem = output_stem(source)
        for group in groups:
            if stem not in group:
                group[stem] = source
                break
        else:
            groups.append({stem: source})
    return groups


def render(directory: Path):
    sources = sorted(directory.glob("*.puml"))
    for group in batches(sources):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run(
                ["java", "-Djava.awt.headless=true", "-jar", str(JAR), "-tsvg", "-o", out]
                + [str(s) for s in group.values()],
                check=False,
            )
            for stem, source in group.items():
                produced = Path(out) / f"{stem}.svg"
                if produced.exists():
                    shutil.move(produced, source.with_suffix(".plantuml.svg"))
                else:
                    print(f"no SVG for {source.name}", file=sys.stderr)


def main():
    if sys.argv[1:2] == ["render"] and len(sys.argv) <= 3:
        render(Path(sys.argv[2]) if len(sys.argv) == 3 else DIR)
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
