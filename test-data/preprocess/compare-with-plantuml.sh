#!/usr/bin/env bash
# Compares puml's preprocessor snapshots with PlantUML's own expansion.
#
#   test-data/preprocess/compare-with-plantuml.sh [CASE…]
#
# For each case directory (main.puml + main.expected), runs the PlantUML jar
# from ../shared/tools/plantuml-oracle with -preproc and prints SAME or the
# diff between PlantUML's output and the `--- text` section of main.expected
# (comments and blank lines removed on both sides: PlantUML drops comments,
# puml keeps them), then PlantUML's verdict and puml's first error.
# PlantUML stops at its first error, puml goes on: differences after an
# error line are expected. Needs java; read-only (works on a copy).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
oracle="${PLANTUML_ORACLE:-$here/../../../shared/tools/plantuml-oracle}"
jar="$("$oracle" jar)" || exit 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here"/. "$work"/

strip() { # drop comments and blank lines, as PlantUML's -preproc does
  awk '
    inblock { if (index($0, "\047/")) inblock = 0; next }
    { t = $0; sub(/^[ \t]+/, "", t) }
    substr(t, 1, 2) == "/\047" { if (!index(substr(t, 3), "\047/")) inblock = 1; next }
    substr(t, 1, 1) == "\047" { next }
    t == "" { next }
    { sub(/[ \t\r]+$/, ""); print }'
}

cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(cd "$work" && ls -d */ | tr -d /))
for case in "${cases[@]}"; do
  dir="$work/$case"
  [ -f "$dir/main.puml" ] || continue
  (cd "$dir" && timeout 30 java -Djava.awt.headless=true -jar "$jar" -preproc main.puml </dev/null >/dev/null 2>&1)
  produced="$(ls "$dir"/*.preproc 2>/dev/null | head -1)"
  expected="$(sed -n '/^--- text$/,/^--- lines$/p' "$dir/main.expected" | sed '1d;$d')"
  verdict="$("$oracle" check "$dir/main.puml" </dev/null 2>&1 | cut -c1-70)"
  ours="$(grep -m1 -E '^[^ ]+ error\[' "$dir/main.expected" | cut -c1-70)"
  if [ -n "$produced" ] && diff -q <(strip <"$produced") <(printf '%s\n' "$expected" | strip) >/dev/null; then
    echo "SAME  $case | PlantUML: $verdict | puml: ${ours:-no error}"
  else
    echo "DIFF  $case | PlantUML: $verdict | puml: ${ours:-no error}"
    diff <(strip <"${produced:-/dev/null}") <(printf '%s\n' "$expected" | strip) | sed 's/^/      /' | head -12
  fi
done
