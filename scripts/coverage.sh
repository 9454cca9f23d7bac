#!/usr/bin/env bash
# Line coverage of the puml-mcp crate (lib, bin and its tests), measured with
# cargo-llvm-cov; fails when it drops under 90 %. Other crates' files are
# left out of the figure: they are covered by their own tests.
#   scripts/coverage.sh            # summary, fail under 90 %
#   scripts/coverage.sh --html     # extra args go to cargo llvm-cov
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo-llvm-cov >/dev/null 2>&1; then
  rustup component add llvm-tools-preview
  cargo install cargo-llvm-cov --locked
fi
exec cargo llvm-cov -p puml-mcp \
  --ignore-filename-regex '(crates/puml-(syntax|sema|db|layout|render|fmt|ide|cli)/|\.cargo/registry)' \
  --fail-under-lines 90 --summary-only "$@"
