"use strict";
// The TextMate grammar over the repository's diagrams: sequence diagrams get
// no activity scope (the activity rules must leave them alone), and every
// statement line of an activity diagram gets a scope, with no action or
// block left open at `@enduml`.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const root = path.join(__dirname, "..", "..", "..");
const grammarPath = path.join(__dirname, "..", "syntaxes", "puml.tmLanguage.json");

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () => vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath),
  });
  return registry.loadGrammar("source.puml");
}

/** Each line of `text` with its tokens' scopes and the rule stack depth after it. */
function tokenizeLines(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split("\n").map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    return { line, scopes: result.tokens.flatMap((t) => t.scopes.slice(1)), depth: stack.depth };
  });
}

function diagrams(dir) {
  const full = path.join(root, "test-data", dir);
  return fs
    .readdirSync(full)
    .filter((f) => f.endsWith(".puml"))
    .map((f) => ({ name: `${dir}/${f}`, text: fs.readFileSync(path.join(full, f), "utf8") }));
}

const ACTIVITY_ONLY =
  /^(keyword\.control\.(flow|conditional|loop|fork)|string\.unquoted\.(action|condition)|punctuation\.definition\.(action|swimlane)|keyword\.other\.container|entity\.name\.(section|tag\.connector))\b/;

test("sequence diagrams get no activity scope", async () => {
  const grammar = await loadGrammar();
  const files = diagrams("render");
  assert.ok(files.length > 100, "test-data/render holds the sequence diagrams");
  for (const { name, text } of files) {
    tokenizeLines(grammar, text).forEach(({ line, scopes }, i) => {
      const hit = scopes.find((s) => ACTIVITY_ONLY.test(s));
      assert.strictEqual(hit, undefined, `${name}:${i + 1}: ${line}`);
    });
  }
});

test("every activity statement gets a scope, and nothing is left open at @enduml", async () => {
  const grammar = await loadGrammar();
  const files = [...diagrams("activity-layout"), ...diagrams("activity-styles"), ...diagrams("activity-themes")];
  assert.ok(files.length > 50);
  for (const { name, text } of files) {
    // Style sheets, skinparam blocks and legend bodies are free text to the
    // grammar, in any diagram: skipped up to their closer.
    let freeTextEnd = null;
    for (const [i, { line, scopes, depth }] of tokenizeLines(grammar, text).entries()) {
      const trimmed = line.trim();
      if (freeTextEnd === null) {
        if (/^<style>/i.test(trimmed)) freeTextEnd = /^<\/style>/i;
        else if (/^legend\b/i.test(trimmed)) freeTextEnd = /^end\s*legend/i;
        else if (/^skinparam\b.*\{$/i.test(trimmed)) freeTextEnd = /^\}$/;
      }
      const skip = freeTextEnd !== null || trimmed === "";
      if (freeTextEnd !== null && freeTextEnd.test(trimmed)) freeTextEnd = null;
      if (!skip) assert.ok(scopes.length > 0, `${name}:${i + 1} has no scope: ${line}`);
      if (/^@enduml/i.test(trimmed)) assert.strictEqual(depth, 1, `${name}:${i + 1}: a region is still open`);
    }
  }
});
