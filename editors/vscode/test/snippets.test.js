"use strict";
// Snippets expand (every placeholder at its default) to diagrams puml and
// PlantUML accept: the activity ones open and close their blocks in order.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");

const snippets = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "snippets", "puml.json"), "utf8"));

/** The text a snippet inserts when every placeholder keeps its default. */
function expand(body) {
  return body
    .join("\n")
    .replace(/\$\{\d+\|([^,|]*)[^}]*\|\}/g, "$1")
    .replace(/\$\{\d+:([^}]*)\}/g, "$1")
    .replace(/\$\{\d+\}|\$\d+/g, "")
    .replace(/\t/g, "  ");
}

/** Activity block openers and the closers they need, innermost first. */
const BLOCKS = [
  [/^if \(/, /^endif$/],
  [/^while \(/, /^endwhile\b/],
  [/^repeat$/, /^repeat while \(/],
  [/^fork$/, /^end (fork|merge)$/],
  [/^split$/, /^end split$/],
  [/^switch \(/, /^endswitch$/],
  [/\{$/, /^\}$/],
];

function unbalanced(text) {
  const open = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    const closer = BLOCKS.find(([, close]) => close.test(line));
    if (closer) {
      if (open.pop() !== closer) return `\`${line}\` closes nothing open`;
      continue;
    }
    const opener = BLOCKS.find(([start]) => start.test(line));
    if (opener) open.push(opener);
  }
  return open.length ? `${open.length} block(s) left open` : null;
}

test("every snippet has a unique prefix, a body and a description", () => {
  const prefixes = new Set();
  for (const [name, s] of Object.entries(snippets)) {
    assert.ok(typeof s.prefix === "string" && s.prefix.length > 0, name);
    assert.ok(!prefixes.has(s.prefix), `${name}: prefix ${s.prefix} used twice`);
    prefixes.add(s.prefix);
    assert.ok(Array.isArray(s.body) && s.body.length > 0, name);
    assert.ok(s.description, name);
  }
});

test("expansions keep no placeholder syntax", () => {
  for (const [name, s] of Object.entries(snippets)) {
    assert.doesNotMatch(expand(s.body), /\$\{|\$\d/, name);
  }
});

test("activity snippets close every block they open, in order", () => {
  const activity = ["If", "While", "Repeat", "Fork", "Split", "Switch", "Partition", "Swimlanes", "Activity diagram"];
  for (const name of activity) {
    assert.ok(snippets[name], `missing activity snippet ${name}`);
    assert.strictEqual(unbalanced(expand(snippets[name].body)), null, name);
  }
  assert.match(expand(snippets.If.body), /^if \(condition\?\) then \(yes\)\n  :action;\nelse \(no\)\n  :action;\nendif\n$/);
});

