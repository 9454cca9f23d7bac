#!/usr/bin/env bash
# Builds every binary once in release mode; the black-box steps after this
# one drive target/release/* (the binaries users run), never rebuild them.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
cargo build --release --workspace --bins
ls -la "${CARGO_TARGET_DIR:-target}/release/" | grep -E ' puml[a-z-]*$' || true
