#!/usr/bin/env bash
# puml as a drop-in for PlantUML, judged by the clients people use: Sphinx
# (sphinxcontrib-plantuml) and Python-Markdown (plantuml-markdown) running
# `puml-plantuml`; plantuml-markdown's server and Kroki modes, the `plantuml`
# PyPI client and Asciidoctor.js with asciidoctor-kroki against `puml serve`.
# Installs them itself (pip into a venv, npm into a directory of its own).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
target="${CARGO_TARGET_DIR:-target}"
for bin in puml puml-plantuml; do
  [ -x "$target/release/$bin" ] || cargo build --release --bin "$bin"
done
venv="${PUML_DROPIN_VENV:-$target/dropin-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sphinxcontrib.plantuml, plantuml_markdown, plantuml, pytest' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    'sphinx>=7' 'sphinxcontrib-plantuml>=0.30' 'Markdown>=3.5' 'plantuml-markdown>=3.10' 'plantuml>=0.3' pytest
fi
if ! command -v npm >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo"
  $as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends nodejs npm >/dev/null
fi
node_dir="$target/dropin-node"
if [ ! -d "$node_dir/node_modules/asciidoctor-kroki" ]; then
  mkdir -p "$node_dir"
  (cd "$node_dir" && { [ -f package.json ] || npm init -y >/dev/null; } \
    && npm install --silent --no-audit --no-fund '@asciidoctor/core@3' 'asciidoctor-kroki@0.18' >/dev/null)
fi
export PUML_NODE_MODULES="$(cd "$node_dir/node_modules" && pwd)"
PUML_BIN_DIR="$(cd "$target/release" && pwd)" \
  "$venv/bin/python" -m pytest -q -s -p no:cacheprovider scripts/test_plantuml_dropin.py
