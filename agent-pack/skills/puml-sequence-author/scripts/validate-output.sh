#!/bin/sh
# Checks PlantUML sequence diagrams with the puml compiler when a shell is
# available but the puml MCP server is not. Usage:
#
#   validate-output.sh FILE.puml [MORE.puml | DIR]...
#   validate-output.sh -            # the diagram on stdin
#
# Exit status: 0 every diagram is valid (warnings allowed), 1 at least one
# has errors, 2 usage or I/O problem, 127 the puml compiler is not installed.
# Never downloads anything; it only runs `puml check`.
set -u

if [ "$#" -eq 0 ]; then
  echo "usage: validate-output.sh FILE.puml... | -" >&2
  exit 2
fi

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
puml=""
# 1. a plugin install: <pack>/skills/puml-sequence-author/scripts -> <pack>/bin/puml
if [ -x "$here/../../../bin/puml" ]; then
  puml="$here/../../../bin/puml"
# 2. PUML_BIN, then PATH
elif [ -n "${PUML_BIN:-}" ] && [ -x "${PUML_BIN}" ]; then
  puml="$PUML_BIN"
elif command -v puml >/dev/null 2>&1; then
  puml=$(command -v puml)
fi

if [ -z "$puml" ]; then
  echo "validate-output.sh: the puml compiler was not found; this diagram could not be validated." >&2
  echo "Install it from a puml release archive (puml-<version>-<os>-<arch>.tar.gz) or build it from a checkout (cargo build --release -p puml-cli), then put puml on PATH or set PUML_BIN." >&2
  exit 127
fi

exec "$puml" check "$@"
