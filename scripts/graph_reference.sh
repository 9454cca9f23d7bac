#!/usr/bin/env bash
# Harvest dot's own layouts as references for crates/puml-graph.
#
# For every diagram of the class, description and state corpora, PlantUML is
# run with -debugsvek in a scratch folder (it writes svek.dot, the exact graph
# it hands to Graphviz, into the current folder, so one JVM per file), and
# `dot -Tplain` lays that graph out. Both are stored under test-data/graph/ as
# NAME.dot and NAME.plain. Generated graphs (test-data/graph/gen-*.dot, written
# by scripts/graph_generated.py) get their .plain the same way.
#
# Needs Java, the PlantUML jar and Graphviz (`dot`, 2.43 as PlantUML uses);
# the tests only read the stored files.
#
# usage: scripts/graph_reference.sh [--generated-only]
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/test-data/graph"
jar="${PLANTUML_JAR:-$HOME/.cache/plantuml-oracle/plantuml.jar}"
shared="${PUML_SHARED:-/work/shared}"
mkdir -p "$out"

if [[ "${1:-}" != "--generated-only" ]]; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    for corpus in corpus-class corpus-description corpus-state; do
        prefix=${corpus#corpus-}
        for puml in "$shared/$corpus"/*.puml; do
            name="$prefix-$(basename "$puml" .puml)"
            rm -f "$scratch"/svek.dot "$scratch"/svek.svg
            (cd "$scratch" && timeout 60 java -Djava.awt.headless=true -jar "$jar" \
                -debugsvek -tsvg -o "$scratch/svg" "$puml" >/dev/null 2>&1) || true
            if [[ -s "$scratch/svek.dot" ]]; then
                cp "$scratch/svek.dot" "$out/$name.dot"
                echo "$name"
            else
                echo "$name: no svek.dot (not a graph diagram)" >&2
            fi
        done
    done
fi

python3 "$repo/scripts/graph_generated.py"

for dotfile in "$out"/*.dot; do
    timeout 60 dot -Tplain "$dotfile" >"${dotfile%.dot}.plain" 2>/dev/null || rm -f "${dotfile%.dot}.plain"
done
