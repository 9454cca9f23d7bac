#!/usr/bin/env bash
# Black-box test of the MCP server with the official Python SDK (its own venv).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
cargo build -p puml-mcp
PUML_MCP_BIN="${CARGO_TARGET_DIR:-target}/debug/puml-mcp" scripts/mcp-blackbox.sh
