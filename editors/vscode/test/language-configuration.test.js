"use strict";
// The editor rules of language-configuration.json: every pattern compiles as
// the JavaScript RegExp VS Code makes of it, and Enter indents inside
// sequence groups and activity blocks alike.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");

const config = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "language-configuration.json"), "utf8"));

/** A pattern as VS Code reads it: a string, or `{ pattern, flags }`. */
function regex(value) {
  return typeof value === "string" ? new RegExp(value) : new RegExp(value.pattern, value.flags);
}

test("every pattern is a valid JavaScript regular expression", () => {
  const { indentationRules, folding } = config;
  for (const value of [
    indentationRules.increaseIndentPattern,
    indentationRules.decreaseIndentPattern,
    folding.markers.start,
    folding.markers.end,
    config.wordPattern,
  ]) {
    assert.doesNotThrow(() => regex(value), JSON.stringify(value));
  }
});

test("block openers indent the next line, closers and branches outdent their own", () => {
  const increase = regex(config.indentationRules.increaseIndentPattern);
  const decrease = regex(config.indentationRules.decreaseIndentPattern);
  const openers = [
    "alt success", "loop", "Group retry", "note left of A",
    "if (ok?) then (yes)", "ElseIf (b?) then (yes)", "else (no)", "while (more?) is (yes)",
    "repeat", "repeat :first;", "fork", "fork again", "split again", "switch (x)", "case (a)",
    "partition Work {", "group G {",
  ];
  for (const line of openers) assert.match(line, increase);
  for (const line of ["A -> B : hi", ":action;", "start", "endif", "repeat while (again?)", "end fork", "}"]) {
    assert.doesNotMatch(line, increase);
  }
  const closers = ["end", "else", "end note", "endif", "ENDIF", "elseif (b?)", "endwhile (no)", "end while",
    "repeat while (again?) is (yes)", "fork again", "end fork", "end merge", "split again", "end split",
    "case (b)", "endswitch", "}"];
  for (const line of closers) assert.match(line, decrease);
  for (const line of ["endless -> B", ":end of it;", "if (x) then", "casey -> B"]) assert.doesNotMatch(line, decrease);
});

test("activity blocks fold without the server", () => {
  const start = regex(config.folding.markers.start);
  const end = regex(config.folding.markers.end);
  for (const line of ["if (x) then", "while (x)", "repeat", "fork", "split", "switch (x)", "partition P {", "alt x"]) {
    assert.match(line, start);
  }
  for (const line of ["endif", "endwhile", "repeat while (x)", "end fork", "end split", "endswitch", "}", "end"]) {
    assert.match(line, end);
  }
});
