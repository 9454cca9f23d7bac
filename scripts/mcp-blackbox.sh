#!/usr/bin/env bash
# Drives the puml-mcp binary with the official MCP Python SDK (a client no
# one here wrote): every tool, resource and prompt over stdio.
#   scripts/mcp-blackbox.sh                 conformance over stdio, then streamable HTTP + REST
#                                           (prints "N passed, M failed"; --no-http: stdio only)
#   scripts/mcp-blackbox.sh --load 10000    10,000 mixed calls on one session, RSS start/end
#   scripts/mcp-blackbox.sh --bench 2000    median/p99 latency of puml_check and puml_render_svg
# PUML_MCP_BIN=path uses an existing binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${PUML_MCP_VENV:-target/mcp-blackbox-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mcp, jsonschema' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check mcp jsonschema
fi
bin="${PUML_MCP_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet -p puml-server --bin puml-mcp
  bin="${CARGO_TARGET_DIR:-target}/release/puml-mcp"
fi
exec "$venv/bin/python" scripts/mcp-blackbox.py "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$@"
