#!/usr/bin/env bash
# Builds `puml` and `puml-plantuml` (release) as static executables on
# x86_64 Linux with glibc. Tools that run them once per diagram pay their
# start every time, and a dynamically linked `puml` spent about 40 % of a
# one-diagram `puml check` process in the dynamic loader (mapping libc,
# libm and libgcc_s, resolving ~140 symbols with BIND_NOW); statically
# linked there is no loader (`cargo xtask bench-check` prints the figures).
#
# Cargo has no stable per-binary rustflags, and `crt-static` in RUSTFLAGS
# would also reach the proc-macro crates (which cannot be static), so each
# binary is linked by `cargo rustc`, whose flags after `--` apply to that
# binary alone: the libraries are the ones `cargo build --release` built.
# `relocation-model=static` makes it position-dependent, as `build.rs`
# links the dynamic build (no relocations to apply at start).
#
# `--supported` only answers (exit 0) whether this machine builds them so.
# `--target TRIPLE` is passed on to cargo; naming `puml` or `puml-plantuml`
# builds only the binaries named.
set -euo pipefail
cd "$(dirname "$0")/.."
host="$(rustc -vV | sed -n 's/^host: //p')"
target="$host"
extra=()
bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --supported) [ "$host" = x86_64-unknown-linux-gnu ] && [ -n "$(gcc -print-file-name=libc.a 2>/dev/null | grep /)" ]; exit $? ;;
    --target) target="$2"; extra=(--target "$2"); shift 2 ;;
    puml|puml-plantuml) bins+=("$1"); shift ;;
    *) echo "static-bins.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ "$target" != x86_64-unknown-linux-gnu ]; then
  echo "static-bins.sh: static binaries are built for x86_64-unknown-linux-gnu only (not $target)" >&2
  exit 2
fi
[ ${#bins[@]} -gt 0 ] || bins=(puml puml-plantuml)
for bin in "${bins[@]}"; do
  case "$bin" in
    puml) package=puml-cli ;;
    puml-plantuml) package=puml-compat ;;
  esac
  cargo rustc --release -p "$package" --bin "$bin" ${extra[@]+"${extra[@]}"} -- \
    -C target-feature=+crt-static -C relocation-model=static
done
