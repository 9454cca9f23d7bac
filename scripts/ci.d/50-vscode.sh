#!/usr/bin/env bash
# The VS Code extension: typecheck, unit tests, TextMate grammar tests, the
# preview page in headless Chromium (visibility, CSP, and the render → paint
# round trip against the release puml-lsp built by 05), then an offline
# `vsce package`. Installs Chromium (Debian) and the npm packages itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
if ! command -v chromium >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo"
  $as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends chromium >/dev/null
fi
lsp="${CARGO_TARGET_DIR:-$root/target}/release/puml-lsp"
[ -x "$lsp" ] || cargo build --release -p puml-lsp --bin puml-lsp
cd editors/vscode
npm ci --no-audit --no-fund --loglevel=error
PUML_REQUIRE_BROWSER=1 PUML_LSP="$lsp" npm test
npm run -s package
ls -la puml-vscode.vsix
