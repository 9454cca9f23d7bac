#!/bin/sh
# Asks PlantUML (../shared/tools/plantuml-oracle) for its verdict on every
# exported workflow diagram under test-data/workflow/ and writes
# test-data/workflow/oracle.tsv: path, FNV-1a 64 hash of the text, verdict.
# `cargo test -p puml-ide --test workflow` fails when an exported diagram
# has no VALID verdict for its current text. Needs Java; CI does not run it.
set -eu
cd "$(dirname "$0")/.."
oracle=${PLANTUML_ORACLE:-../shared/tools/plantuml-oracle}
out=test-data/workflow/oracle.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$out.tmp"
find test-data/workflow -name '*.exported.puml' | sort | while read -r f; do
  # The oracle writes an SVG beside what it checks: judge a copy.
  cp "$f" "$tmp/diagram.puml"
  verdict=$("$oracle" check "$tmp/diagram.puml" | head -n 1)
  hash=$(python3 -c 'import sys
h=0xcbf29ce484222325
for b in open(sys.argv[1],"rb").read():
    h^=b; h=(h*0x100000001b3)&0xffffffffffffffff
print("%016x"%h)' "$f")
  printf '%s\t%s\t%s\n' "${f#test-data/workflow/}" "$hash" "$verdict" >> "$out.tmp"
done
mv "$out.tmp" "$out"
grep -vc '	VALID$' "$out" >/dev/null && { echo "some exported diagrams are not VALID:"; grep -v '	VALID$' "$out"; exit 1; }
echo "$(wc -l < "$out") exported diagrams, all VALID"
