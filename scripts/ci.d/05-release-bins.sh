#!/usr/bin/env bash
# Builds every binary once in release mode; the black-box steps after this
# one drive target/release/* (the binaries users run), never rebuild them.
# On x86_64 Linux the two commands run once per diagram (`puml`, and
# `puml-plantuml`, the drop-in `plantuml`) are linked statically
# (scripts/static-bins.sh: no dynamic loader at start-up).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
if scripts/static-bins.sh --supported; then
  cargo build --release --workspace --bins --exclude puml-cli --exclude puml-compat
  scripts/static-bins.sh
else
  cargo build --release --workspace --bins
fi
ls -la "${CARGO_TARGET_DIR:-target}/release/" | grep -E ' puml[a-z-]*$' || true
