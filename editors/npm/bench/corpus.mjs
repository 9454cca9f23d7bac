// `cargo xtask bench-wasm`'s WebAssembly half: the package's start-up, then
// per-diagram check and SVG render over a corpus in Node's WebAssembly,
// printed as one JSON line. Usage: node bench/corpus.mjs DIR ROUNDS
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const started = performance.now();
const puml = await import("../index.js");
const startupMs = performance.now() - started;
puml.setIncludeResolver((path) => {
  try {
    return readFileSync(join(dir, path), "utf8");
  } catch {
    return null;
  }
});
const sources = readdirSync(dir)
  .filter((f) => f.endsWith(".puml"))
  .sort()
  .map((f) => readFileSync(join(dir, f), "utf8"));
const drawable = sources.filter((s) => {
  try {
    puml.render(s);
    return true;
  } catch {
    return false;
  }
});
// The best round of each measure (the least disturbed by other processes).
function best(list, f) {
  let bestMs = Infinity;
  for (let round = 0; round < rounds; round++) {
    const t = performance.now();
    for (const source of list) f(source);
    bestMs = Math.min(bestMs, performance.now() - t);
  }
  return bestMs;
}
const checkMs = best(sources, (s) => puml.check(s));
const renderMs = best(drawable, (s) => puml.render(s));
console.log(JSON.stringify({ startupMs, files: sources.length, drawn: drawable.length, checkMs, renderMs }));
