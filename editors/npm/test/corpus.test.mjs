// The WebAssembly build against the native one on the shared corpus: the
// same diagnostics JSON as `puml check --format json`, the SVG byte for
// byte as `puml render -f svg` (determinism across targets), and every
// mutant answered with diagnostics, never a trap.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as puml from "../index.js";
import { pumlBinary, sharedDir, skipUnless } from "./helpers.mjs";

const corpus = join(sharedDir, "corpus");
const mutants = join(sharedDir, "corpus-mutants");
const binary = pumlBinary();
// The corpus's diagrams include files beside them (`!include 086.inc`).
puml.setIncludeResolver((path) => {
  try {
    return readFileSync(join(corpus, path), "utf8");
  } catch {
    return null;
  }
});

/** The wasm build names an included file by its virtual path (`/086.inc`); the CLI by its real one. */
function withRealPaths(diagnostics) {
  return diagnostics.map((d) => (d.file === undefined ? d : { ...d, file: join(corpus, d.file) }));
}

const skip = skipUnless(existsSync(corpus), `the shared corpus (${corpus})`) || skipUnless(binary, "a puml binary ($PUML_BIN)");

const diagrams = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".puml"))
        .sort()
        .map((f) => join(dir, f))
    : [];

test("check answers as puml check --format json on every corpus file", { skip }, () => {
  const files = diagrams(corpus);
  assert.ok(files.length > 50, `${files.length} corpus files`);
  let output;
  try {
    output = execFileSync(binary, ["check", "--format", "json", ...files], { encoding: "utf8", maxBuffer: 1 << 28 });
  } catch (error) {
    output = error.stdout; // exit 1: some files have errors
  }
  const native = JSON.parse(output);
  assert.equal(native.files.length, files.length);
  for (const [index, file] of files.entries()) {
    assert.deepEqual(withRealPaths(puml.check(readFileSync(file, "utf8"))), native.files[index].diagnostics, file);
  }
});

test("render writes the native renderer's SVG byte for byte on every corpus file", { skip }, () => {
  const files = diagrams(corpus);
  const out = mkdtempSync(join(tmpdir(), "puml-wasm-svg-"));
  try {
    try {
      execFileSync(binary, ["render", "-f", "svg", "--out-dir", out, ...files], { stdio: "pipe", maxBuffer: 1 << 28 });
    } catch {
      // exit 1: files with errors are not rendered; the rest are.
    }
    const rendered = new Set(readdirSync(out));
    let compared = 0;
    for (const file of files) {
      const name = file.split("/").pop().replace(/\.puml$/, "");
      const pages = [...rendered].filter((f) => f === `${name}.svg` || f.startsWith(`${name}-`)).sort();
      if (pages.length === 0) {
        assert.throws(() => puml.render(readFileSync(file, "utf8")), puml.PumlError, `${file}: native refused, wasm drew`);
        continue;
      }
      const source = readFileSync(file, "utf8");
      if (pages.length === 1) {
        assert.equal(puml.render(source), readFileSync(join(out, pages[0]), "utf8"), file);
        compared++;
      } else {
        assert.equal(puml.pageCount(source), pages.length, file);
        assert.equal(puml.render(source, { page: 1 }), readFileSync(join(out, pages[0]), "utf8"), file);
        compared++;
      }
    }
    assert.ok(compared > 50, `${compared} SVGs compared`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("every mutant gets diagnostics or a picture, never a trap", { skip: skipUnless(existsSync(mutants), `the mutants (${mutants})`) }, () => {
  const files = diagrams(mutants);
  assert.ok(files.length > 50);
  let refused = 0;
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    const diagnostics = puml.check(source);
    assert.ok(Array.isArray(diagnostics), file);
    try {
      puml.render(source);
    } catch (error) {
      assert.ok(error instanceof puml.PumlError, `${file}: ${error}`);
      refused++;
    }
    puml.format(source);
    puml.fix(source);
    puml.explain(source);
  }
  assert.ok(refused > 0, "some mutants are refused with diagnostics");
});
