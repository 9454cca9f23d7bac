#!/usr/bin/env bash
# The agent pack (agent-pack/), judged by its hosts: our own validator
# (`cargo xtask validate-agent-pack`: manifests, paths, front matter,
# marketplaces, the release puml-mcp and puml-lsp started through the pack's
# launchers), Claude Code's `claude plugin validate --strict` on the plugin
# and on the repository's marketplace, and Codex's `codex plugin marketplace
# add` + `codex plugin add` with a temporary HOME (offline: a local
# marketplace). Installs both CLIs with npm into a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ ! -c /dev/null ]; then : >/dev/null || true; fi

target="${CARGO_TARGET_DIR:-$root/target}"
bins="$target/release"
if [ ! -x "$bins/puml-mcp" ] || [ ! -x "$bins/puml-lsp" ] || [ ! -x "$bins/puml" ]; then
  cargo build --release -p puml-cli -p puml-mcp -p puml-lsp --bins
fi

echo "== cargo xtask sync-agent-pack --check"
cargo xtask sync-agent-pack --check

echo "== cargo xtask validate-agent-pack"
cargo xtask validate-agent-pack --bin-dir "$bins" | tail -n 25

# Host CLIs, pinned to the major versions this pack was validated with.
work=$(mktemp -d "${TMPDIR:-/tmp}/puml-agent-pack-ci.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! command -v npm >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo"
  $as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends nodejs npm >/dev/null
fi
(
  cd "$work"
  npm init -y >/dev/null
  npm i --no-audit --no-fund --loglevel=error '@anthropic-ai/claude-code@^2' '@openai/codex@>=0.160' >/dev/null
)
claude="$work/node_modules/.bin/claude"
codex="$work/node_modules/.bin/codex"
# A fresh HOME outside /tmp (Codex refuses to set up helpers under a temp dir).
home="$target/agent-pack-ci-home"
rm -rf "$home"
mkdir -p "$home"
export HOME="$home" CODEX_HOME="$home/.codex" DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1

echo "== claude plugin validate agent-pack --strict ($("$claude" --version))"
"$claude" plugin validate agent-pack --strict
echo "== claude plugin validate . --strict (the marketplace)"
"$claude" plugin validate . --strict

echo "== codex plugin marketplace add + plugin add ($("$codex" --version 2>/dev/null))"
"$codex" plugin marketplace add "$root" 2>&1 | grep -v 'could not create PATH aliases' || true
"$codex" plugin marketplace list 2>&1 | grep -q '^puml ' || { echo "codex: marketplace puml not listed"; exit 1; }
"$codex" plugin add puml-agent-pack@puml 2>&1 | grep -v 'could not create PATH aliases'
"$codex" plugin list 2>&1 | grep -E '^puml-agent-pack@puml +installed, enabled' \
  || { echo "codex: puml-agent-pack is not installed and enabled"; "$codex" plugin list; exit 1; }
"$codex" mcp list --json 2>/dev/null > "$work/mcp.json"
python3 - "$work/mcp.json" agent-pack/.codex-plugin/plugin.json <<'PY'
import json, sys
servers = {s["name"]: s for s in json.load(open(sys.argv[1]))}
version = json.load(open(sys.argv[2]))["version"]
puml = servers.get("puml")
assert puml, f"codex mcp list has no puml server: {list(servers)}"
t = puml["transport"]
assert t["command"] == "./bin/puml-mcp" and t["cwd"].rstrip("/.").endswith(f"puml-agent-pack/{version}"), t
print(f"codex mcp list: puml -> {t['command']} (cwd {t['cwd']})")
PY
echo "== agent pack: all validators passed"
