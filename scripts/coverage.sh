#!/usr/bin/env bash
# Line coverage of the puml-mcp and puml-server crates (libs, the puml-mcp bin, their tests), measured with
# cargo-llvm-cov; fails when it drops under 90 %. Other crates' files are
# left out of the figure: they are covered by their own tests.
#   scripts/coverage.sh            # summary, fail under 90 %
#   scripts/coverage.sh --html     # extra args go to cargo llvm-cov
set -euo pipefail
cd "$(dirname "$0")/.."
ignore='(crates/puml-(syntax|sema|db|layout|render|fmt|ide|cli|compat)/|\.cargo/registry)'
if rustup component add llvm-tools-preview >/dev/null 2>&1; then
  command -v cargo-llvm-cov >/dev/null 2>&1 || cargo install cargo-llvm-cov --locked
  exec cargo llvm-cov -p puml-mcp -p puml-server --ignore-filename-regex "$ignore" \
    --fail-under-lines 90 --summary-only "$@"
fi
# Without the LLVM tools: the same figure from tarpaulin (ptrace-based).
echo "coverage: llvm-tools-preview unavailable, falling back to cargo tarpaulin" >&2
command -v cargo-tarpaulin >/dev/null 2>&1 || cargo install cargo-tarpaulin --locked
exec cargo tarpaulin -p puml-mcp -p puml-server --exclude-files 'crates/puml-syntax/*' 'crates/puml-sema/*' \
  'crates/puml-db/*' 'crates/puml-layout/*' 'crates/puml-render/*' 'crates/puml-fmt/*' \
  'crates/puml-ide/*' 'crates/puml-cli/*' 'crates/puml-compat/*' --fail-under 90 "$@"
