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
  cargo build --release -p puml-cli -p puml-server -p puml-lsp --bins
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
# cargo and rustup keep their own homes when HOME changes.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export HOME="$home" DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1

echo "== claude plugin validate agent-pack --strict ($("$claude" --version))"
"$claude" plugin validate agent-pack --strict
echo "== claude plugin validate . --strict (the marketplace)"
"$claude" plugin validate . --strict

echo "== claude plugin marketplace add + install + details (offline, local marketplace)"
"$claude" plugin marketplace add "$root"
"$claude" plugin install puml-agent-pack@puml
"$claude" plugin details puml-agent-pack@puml | tee "$work/details.txt" | sed -n '/Component inventory/,/^$/p'
for want in 'Skills (4)' 'Agents (2)' 'MCP servers (1)' 'LSP servers (1)'; do
  grep -qF "$want" "$work/details.txt" || { echo "claude: the installed plugin lacks $want"; exit 1; }
done

# Claude Code starts the plugin's MCP server (through bin/puml-mcp, which finds
# the release binary on PATH) and reports its health.
(cd "$work" && PATH="$bins:$PATH" "$claude" mcp list 2>/dev/null) | tee "$work/mcp-list.txt" | grep 'plugin:puml-agent-pack'
grep -q 'plugin:puml-agent-pack:puml: .*Connected' "$work/mcp-list.txt" || { echo "claude: the plugin's MCP server did not connect"; exit 1; }

echo "== codex plugin marketplace add + plugin add ($("$codex" --version 2>/dev/null))"
"$codex" plugin marketplace add "$root"
"$codex" plugin marketplace list | grep -q '^puml ' || { echo "codex: marketplace puml not listed"; exit 1; }
"$codex" plugin add puml-agent-pack@puml
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
# The skills as the model sees them (Codex renders its prompt input offline).
"$codex" debug prompt-input > "$work/prompt-input.json" 2>/dev/null
for skill in puml-sequence-author puml-sequence-reviewer puml-class-author puml-docs-integrator; do
  grep -q "puml-agent-pack:$skill" "$work/prompt-input.json" || { echo "codex: skill $skill not in the model's prompt"; exit 1; }
done
echo "codex debug prompt-input: the four puml-agent-pack skills are offered to the model"
# The release bundles: built from the release binaries above, validated by
# `dist` itself, then by the hosts' CLIs once unpacked.
echo "== cargo xtask dist --skip-build"
cargo xtask dist --skip-build --out "$work/dist" | grep -v '^  ok ' | tail -n 20
(cd "$work/dist" && sha256sum --check --quiet SHA256SUMS)
mkdir -p "$work/unpacked"
for archive in "$work"/dist/puml-agent-pack-*.tar.gz; do tar xzf "$archive" -C "$work/unpacked"; done
claude_bundle=$(ls -d "$work"/unpacked/puml-agent-pack-claude-*)
codex_bundle=$(ls -d "$work"/unpacked/puml-agent-pack-codex-*)
echo "== claude plugin validate (unpacked Claude Code bundle)"
"$claude" plugin validate "$claude_bundle/puml-agent-pack" --strict
"$claude" plugin validate "$claude_bundle" --strict
echo "== codex plugin marketplace add + plugin add (unpacked Codex bundle)"
"$codex" plugin marketplace remove puml
"$codex" plugin marketplace add "$codex_bundle"
"$codex" plugin add puml-agent-pack@puml
installed="$HOME/.codex/plugins/cache/puml/puml-agent-pack"
(cd "$installed"/*/ && ./bin/puml-mcp --version)
echo "== agent pack: all validators passed"
