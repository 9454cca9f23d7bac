#!/usr/bin/env bash
# Black-box test of the MCP server with the official Python SDK (its own venv),
# over stdio and streamable HTTP, against the release binary built by 05.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
bin="${CARGO_TARGET_DIR:-target}/release/puml-mcp"
[ -x "$bin" ] || cargo build --release -p puml-server --bin puml-mcp
PUML_MCP_BIN="$bin" scripts/mcp-blackbox.sh
