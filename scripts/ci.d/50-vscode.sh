#!/usr/bin/env bash
# The VS Code extension: typecheck, unit tests, TextMate grammar tests, the
# preview page in headless Chromium (visibility, CSP, and the render → paint
# round trip against the release puml-lsp built by 05), then the platform
# package with that puml-lsp inside (`cargo xtask dist --only-vsix`),
# installed into a clean extensions folder as VS Code installs it and started
# through the extension's own lookup with an empty PATH, which must find the
# bundled server and get diagnostics. Installs Chromium (Debian) and the npm
# packages itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ ! -c /dev/null ]; then : >/dev/null || true; fi
if ! command -v chromium >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" = 0 ] || as_root="sudo"
  $as_root apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q --no-install-recommends chromium >/dev/null
fi
lsp="${CARGO_TARGET_DIR:-$root/target}/release/puml-lsp"
[ -x "$lsp" ] || cargo build --release -p puml-lsp --bin puml-lsp
cd editors/vscode
npm ci --no-audit --no-fund --loglevel=error
PUML_REQUIRE_BROWSER=1 PUML_LSP="$lsp" npm test
cd "$root"
dist=$(mktemp -d)
cargo xtask dist --skip-build --only-vsix --out "$dist"
vsix=$(ls "$dist"/puml-vscode-*.vsix)
ls -la "$vsix"
# VS Code unpacks a .vsix's `extension/` into
# EXTENSIONS/PUBLISHER.NAME-VERSION-TARGET, keeping the files' modes.
extensions=$(mktemp -d)
installed=$(python3 - "$vsix" "$extensions" <<'PY'
import json, os, sys, zipfile
vsix, extensions = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(vsix) as z:
    manifest = json.loads(z.read("extension/package.json"))
    target = os.path.basename(vsix)[len("puml-vscode-"):-len(".vsix")]
    folder = os.path.join(extensions, f"{manifest['publisher']}.{manifest['name']}-{manifest['version']}-{target}")
    for info in z.infolist():
        if not info.filename.startswith("extension/") or info.is_dir():
            continue
        path = os.path.join(folder, info.filename[len("extension/"):])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(z.read(info))
        mode = info.external_attr >> 16
        if mode:
            os.chmod(path, mode & 0o777)
print(folder)
PY
)
node editors/vscode/scripts/installed-server.js "$installed"
rm -rf "$dist" "$extensions"
