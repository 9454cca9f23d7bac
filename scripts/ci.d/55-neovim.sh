#!/usr/bin/env bash
# Neovim (Debian's package) drives the release puml-lsp headless: a broken
# diagram must get puml's E0103 diagnostic through a real editor's client.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
if ! command -v nvim >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo"
  $as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends neovim >/dev/null
fi
lsp="${CARGO_TARGET_DIR:-$root/target}/release/puml-lsp"
[ -x "$lsp" ] || cargo build --release -p puml-lsp --bin puml-lsp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '@startuml\nparticipant A\nA -> B hello\n@enduml\n' >"$work/broken.puml"
cd "$work"
nvim --version | head -1
PUML_LSP="$lsp" PUML_FILE="$work/broken.puml" timeout 60 \
  nvim --headless -u NONE -c "luafile $root/scripts/editors/neovim-smoke.lua"
