#!/usr/bin/env bash
# Black-box test of the language server with a real LSP client (pytest-lsp on
# pygls, its own venv) against the release binary built by 05: sync with
# non-ASCII edits, diagnostics, fixes, formatting, navigation, puml/render,
# bad requests, precise edits (a rename is one UTF-16 edit per occurrence,
# each quick fix and formatting send only the changed spans), completion
# (participants at a line start, arrows after one), and a 10,000-edit soak
# that prints the server's RSS.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
bin="${CARGO_TARGET_DIR:-target}/release/puml-lsp"
[ -x "$bin" ] || cargo build --release -p puml-lsp --bin puml-lsp
venv="${PUML_LSP_VENV:-target/lsp-blackbox-venv}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pytest_lsp' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'pytest-lsp>=1,<2' pytest
fi
PUML_LSP="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" \
  "$venv/bin/python" -m pytest -q -s -p no:cacheprovider \
  -o asyncio_mode=auto -o asyncio_default_fixture_loop_scope=function \
  scripts/test_lsp_blackbox.py
