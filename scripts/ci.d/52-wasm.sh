#!/usr/bin/env bash
# The WebAssembly build (issue 33): `cargo xtask wasm` builds the npm package
# and the playground, then the package's Node tests (every function, the
# CLI's JSON and SVG byte for byte on the shared corpus, mutants never
# trap), the real markdown-it and unified pipelines, and the playground in
# headless Chromium from file://. Installs the wasm32 target, wasm-bindgen
# (the version Cargo.lock pins, cached in cargo's bin folder), the npm
# packages and Debian's Chromium itself; drives the release `puml` of 05.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
step() { echo "-- $1 ($(( $(date +%s) - started )) s)"; }
started=$(date +%s)

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || rustup target add wasm32-unknown-unknown
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
bindgen="${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen"
if [ "$("$bindgen" --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
  step "cargo install wasm-bindgen-cli $version"
  # --locked when the registry has every pinned version; else the newest
  # compatible ones.
  cargo install wasm-bindgen-cli --version "$version" --locked \
    || cargo install wasm-bindgen-cli --version "$version"
fi
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if ! command -v chromium >/dev/null 2>&1; then
  step "apt-get install chromium"
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo"
  $as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends chromium >/dev/null
fi

step "npm ci"
(cd editors/npm && npm ci --no-audit --no-fund --loglevel=error)

step "cargo xtask wasm"
cargo xtask wasm

puml="${CARGO_TARGET_DIR:-$root/target}/release/puml"
[ -x "$puml" ] || cargo build --release -p puml-cli --bin puml
step "node tests"
(cd editors/npm && PUML_REQUIRE_ALL=1 PUML_BIN="$puml" npm test)
step "done"
