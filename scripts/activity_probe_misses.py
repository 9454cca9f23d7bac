#!/usr/bin/env python3
"""The activity probes' misses grouped by construct, most first: for each
probe of test-data/activity-probes, PlantUML's texts that puml's SVG
snapshot (NAME.svg, written by `UPDATE_EXPECT=1 cargo test -p puml-render
--test paint_fidelity activity_generated`) does not place within 2 px,
with puml's offset (dx, dy). The same matching as the paint-fidelity test:
each of PlantUML's texts, in order, takes the nearest unused text of the
same string.

usage: scripts/activity_probe_misses.py [DIR] [-v]
"""

import collections
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent


def texts(path):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError):
        return []
    out = []
    for node in root.iter():
        if node.tag.endswith("}text") or node.tag == "text":
            text = "".join(node.itertext()).replace("\xa0", " ").strip()
            try:
                x, y = float(node.get("x")), float(node.get("y"))
            except (TypeError, ValueError):
                continue
            if text:
                out.append((text, x, y))
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv[1:]
    folder = pathlib.Path(args[0]) if args else ROOT / "test-data/activity-probes"
    groups = collections.defaultdict(lambda: [0, 0, []])
    placed_all = total_all = 0
    for probe in sorted(folder.glob("*.puml")):
        theirs_path = probe.with_suffix(".plantuml.svg")
        ours_path = probe.with_suffix(".svg")
        if not theirs_path.exists() or not ours_path.exists():
            continue
        theirs, ours = texts(theirs_path), texts(ours_path)
        placed, misses = 0, []
        for text, x, y in theirs:
            candidates = [
                (max(abs(ox - x), abs(oy - y)), i, ox - x, oy - y)
                for i, (t, ox, oy) in enumerate(ours)
                if t == text
            ]
            if not candidates:
                misses.append((text, None, None))
                continue
            distance, i, dx, dy = min(candidates)
            ours.pop(i)
            if distance <= 2.0:
                placed += 1
            else:
                misses.append((text, dx, dy))
        match = re.match(r"(.*?)_(short|mid|long)_", probe.stem)
        key = match.group(1) if match else probe.stem
        group = groups[key]
        group[0] += placed
        group[1] += len(theirs)
        if misses:
            group[2].append((probe.stem, placed, len(theirs), misses))
        placed_all += placed
        total_all += len(theirs)
    print("texts within 2 px: %d/%d" % (placed_all, total_all))
    for key, (placed, total, probes) in sorted(groups.items(), key=lambda kv: kv[1][0] - kv[1][1]):
        if placed == total:
            continue
        print("%s: %d missed of %d" % (key, total - placed, total))
        if verbose:
            for name, ok, n, misses in probes:
                shown = "; ".join(
                    "%s (%s)" % (t[:24], "missing" if dx is None else "%+.1f, %+.1f" % (dx, dy))
                    for t, dx, dy in misses
                )
                print("    %s %d/%d: %s" % (name, ok, n, shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
