#!/usr/bin/env bash
# Where does puml-graph's crossing reduction part from dot's? For every
# reference in test-data/graph/, `dot -v` prints its mincross progress
# ("mincross: pass P iter I trying T cur_cross C best_cross B", one line per
# sweep, for each component, each cluster and the final pass); the engine
# prints the same lines when built with the `trace` feature and run with
# PUML_GRAPH_TRACE set. This script runs both and lists, per graph that
# differs, the first line where they part (earliest first), and how many
# graphs agree line for line. Equal lines do not prove equal orders (equal
# counts may hide different orders), but the first differing line points at
# the stage to read (pass 0/1 iter 0: the initial order; later: a sweep).
#
# Needs Graphviz (`dot`, 2.43 as PlantUML uses) and python3.
# usage: scripts/graph_trace.sh [NAME]   (NAME: one reference, shows both traces)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir="$repo/test-data/graph"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for dotfile in "$dir"/*.dot; do
    name=$(basename "$dotfile" .dot)
    [[ -f "$dir/$name.plain" ]] || continue
    [[ -n "${1:-}" && "$1" != "$name" ]] && continue
    echo "=== $name"
    dot -v -Tplain "$dotfile" 2>&1 >/dev/null | grep '^mincross: pass' || true
done >"$work/dot.txt"

(cd "$repo" && env PUML_GRAPH_TRACE=1 ${1:+PUML_GRAPH_ONLY=$1} cargo test -q -p puml-graph --features trace \
    --test dot_reference -- --nocapture 2>"$work/ours.txt" >/dev/null) || true

python3 - "$work/dot.txt" "$work/ours.txt" "${1:-}" <<'PY'
import sys

def load(path):
    traces, current = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("=== "):
            current = line[4:]
            traces[current] = []
        elif current and line.startswith("mincross: pass"):
            traces[current].append(line)
    return traces

dot, ours = load(sys.argv[1]), load(sys.argv[2])
if sys.argv[3]:
    name = sys.argv[3]
    for a, b in zip(dot.get(name, []) + [""] * 999, ours.get(name, []) + [""] * 999):
        if not a and not b:
            break
        print(("  " if a == b else "! ") + f"{a:<70} | {b}")
    sys.exit(0)
same, parted = 0, []
for name in sorted(dot):
    a, b = dot[name], ours.get(name, [])
    if a == b:
        same += 1
        continue
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    parted.append((i, name, a[i] if i < len(a) else "(no more lines)", b[i] if i < len(b) else "(no more lines)"))
print(f"traces equal to dot's: {same} of {len(dot)}")
for i, name, a, b in sorted(parted):
    print(f"{name}: line {i}\n  dot:  {a}\n  ours: {b}")
PY
