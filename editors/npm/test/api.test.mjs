// Every function of the package, through the real .wasm.
import test from "node:test";
import assert from "node:assert/strict";
import * as puml from "../index.js";

const VALID = "@startuml\nAlice -> Bob : hello\n@enduml\n";
const BROKEN = "@startuml\nAlice -> Bob : hello\nend\n@enduml\n";

test("version and themes", () => {
  assert.match(puml.version, /^\d+\.\d+\.\d+/);
  assert.ok(puml.themes.includes("plain") && puml.themes.length > 10);
});

test("check: no diagnostics for a valid diagram, located ones for a broken one", () => {
  assert.deepEqual(puml.check(VALID), []);
  const diagnostics = puml.check(BROKEN);
  assert.ok(diagnostics.length > 0);
  const [first] = diagnostics;
  assert.equal(first.severity, "error");
  assert.equal(first.line, 3);
  assert.deepEqual(Object.keys(first).sort(), ["code", "column", "end_column", "end_line", "fixes", "line", "message", "severity"]);
  assert.ok(first.fixes.length > 0 && first.fixes[0].edits.length > 0);
});

test("render: svg text, png bytes, theme, pages, refusals as PumlError", () => {
  const svg = puml.render(VALID);
  assert.match(svg, /<svg[\s\S]*Alice[\s\S]*<\/svg>/);
  assert.equal(puml.render(VALID, { format: "svg" }), svg);
  const themed = puml.render(VALID, { theme: "cerulean" });
  assert.notEqual(themed, svg);
  const png = puml.render(VALID, { format: "png" });
  assert.ok(png instanceof Uint8Array);
  assert.deepEqual([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const twoPages = "@startuml\nA -> B : one\nnewpage\nB -> A : two\n@enduml\n";
  assert.equal(puml.pageCount(twoPages), 2);
  assert.match(puml.render(twoPages, { page: 2 }), /two/);
  assert.throws(() => puml.render(twoPages, { page: 3 }), puml.PumlError);
  assert.throws(() => puml.render(VALID, { theme: "no-such-theme" }), /unknown theme/);
  assert.throws(() => puml.render(VALID, { format: "gif" }), /unknown format/);
  // PDF is left out of the WebAssembly build (its size): refused, not a trap.
  assert.throws(() => puml.render(VALID, { format: "pdf" }), (e) => e instanceof puml.PumlError && /not in the WebAssembly build/.test(e.message));
  try {
    puml.render(BROKEN);
    assert.fail("a broken diagram rendered");
  } catch (error) {
    assert.ok(error instanceof puml.PumlError);
    assert.equal(error.diagnostics[0].line, 3);
  }
  assert.throws(() => puml.render(42), TypeError);
});

test("preview: the check, the pages and the SVG of one call agree with the separate calls", () => {
  const twoPages = "@startuml\nA -> B : one\nnewpage\nB -> A : two\n@enduml\n";
  assert.deepEqual(puml.preview(twoPages, { page: 2 }), {
    diagnostics: puml.check(twoPages),
    pages: 2,
    page: 2,
    svg: puml.render(twoPages, { page: 2 }),
  });
  // Past the end: the last page; the first by default; a theme applies.
  assert.equal(puml.preview(twoPages, { page: 9 }).page, 2);
  assert.equal(puml.preview(VALID).svg, puml.render(VALID));
  assert.equal(puml.preview(VALID, { theme: "cerulean" }).svg, puml.render(VALID, { theme: "cerulean" }));
  const broken = puml.preview(BROKEN);
  assert.equal(broken.svg, null);
  assert.deepEqual(broken.diagnostics, puml.check(BROKEN));
  assert.throws(() => puml.preview(VALID, { theme: "no-such-theme" }), (e) => e instanceof puml.PumlError && /unknown theme/.test(e.message));
  assert.throws(() => puml.preview(VALID, { page: -1 }), TypeError);
});

test("format, fix, explain", () => {
  assert.equal(puml.format("@startuml\n   Alice   ->   Bob :  hi\n@enduml\n"), "@startuml\nAlice -> Bob : hi\n@enduml\n");
  const fixed = puml.fix(BROKEN);
  assert.deepEqual(puml.check(fixed), []);
  assert.ok(puml.fixWithCount(BROKEN).applied > 0);
  assert.equal(puml.fix(VALID), VALID);
  const explained = puml.explain(VALID);
  assert.deepEqual(explained.participants.map((p) => p.name), ["Alice", "Bob"]);
  assert.equal(explained.flow[0].label, "hello");
  assert.equal(puml.explain("").diagram_count, 0);
});

test("the URL encoding reads PlantUML's links", () => {
  assert.equal(puml.decodeUrl(puml.encodeUrl(VALID)), VALID);
  assert.equal(puml.decodeUrl("SyfFKj2rKt3CoKnELR1Io4ZDoSa70000"), "Bob -> Alice : hello");
  assert.throws(() => puml.decodeUrl("!!!"), puml.PumlError);
});

test("!include goes through the resolver, bounded", () => {
  const source = "@startuml\n!include parts/people.iuml\nAlice -> Bob\n@enduml\n";
  puml.setIncludeResolver(null);
  assert.ok(puml.check(source).some((d) => d.severity === "error"));
  const asked = [];
  puml.setIncludeResolver((path) => {
    asked.push(path);
    return path === "parts/people.iuml" ? "participant Alice\nparticipant Bob\n" : null;
  });
  assert.deepEqual(puml.check(source), []);
  assert.ok(asked.includes("parts/people.iuml"));
  // A file that includes itself ends at the depth bound, a huge one at the size cap.
  puml.setIncludeResolver((path) => (path === "loop.iuml" ? "!include loop.iuml\n" : "x".repeat(5 * 1024 * 1024)));
  assert.ok(puml.check("@startuml\n!include loop.iuml\nA -> B\n@enduml\n").some((d) => d.severity === "error"));
  const huge = puml.check("@startuml\n!include huge.iuml\nA -> B\n@enduml\n");
  assert.ok(huge.some((d) => d.severity === "error" && /limited to/.test(d.message)), JSON.stringify(huge));
  // A resolver that throws, or calls puml back, answers "no such file".
  puml.setIncludeResolver(() => {
    throw new Error("boom");
  });
  assert.ok(puml.check(source.replace("people", "others")).some((d) => d.severity === "error"));
  puml.setIncludeResolver(() => puml.check(VALID) && "participant Alice\n");
  assert.ok(Array.isArray(puml.check(source)));
  puml.setIncludeResolver(null);
  assert.throws(() => puml.setIncludeResolver(42), TypeError);
});

test("one host across calls: an edit re-renders what changed", () => {
  const first = puml.render(VALID);
  const edited = puml.render(VALID.replace("hello", "goodbye"));
  assert.match(edited, /goodbye/);
  assert.equal(puml.render(VALID), first);
});
