// Where the tests find what lies outside the package: the repository, the
// shared corpora (`../shared` beside the checkout, or $PUML_SHARED_DIR, as
// the Rust tests find them) and the native `puml` binary ($PUML_BIN, else
// the release build in the cargo target folder).
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = resolve(packageDir, "../..");
export const sharedDir = process.env.PUML_SHARED_DIR ?? join(repoRoot, "../shared");

export function pumlBinary() {
  const target = process.env.CARGO_TARGET_DIR ?? join(repoRoot, "target");
  const candidates = [process.env.PUML_BIN, join(target, "release/puml"), join(target, "debug/puml")];
  return candidates.find((p) => p && existsSync(p));
}

/** Skip (or, with $PUML_REQUIRE_ALL=1 as CI sets, fail) when a prerequisite is missing. */
export function skipUnless(condition, why) {
  if (condition) return false;
  if (process.env.PUML_REQUIRE_ALL === "1") throw new Error(`required for this test: ${why}`);
  return why;
}
