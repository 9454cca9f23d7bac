// `cargo xtask bench-wasm`'s WebAssembly half: the package's start-up, then
// per-diagram check and SVG render over a corpus in Node's WebAssembly,
// printed as one JSON line. Usage: node bench/corpus.mjs DIR ROUNDS [WARMUP]
//
// Each measure runs once cold (the first calls run V8's baseline code,
// Liftoff, while its optimising compiler, TurboFan, recompiles the hot
// functions in the background), then WARMUP rounds unmeasured, then ROUNDS
// measured rounds: the best wall time and the best CPU time (this
// process's user + system time, compiler and GC threads included) of a
// round. On the shared, loaded machine the wall time stretches with the
// competition for the cores; the CPU time much less.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, roundsArg, warmupArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const warmup = Number(warmupArg ?? 15);
const started = performance.now();
const puml = await import("../index.js");
const startupMs = performance.now() - started;
// The included files are read once and then answered from memory (as the
// native half does): the figures are puml's, not the file system's (reading
// them on every call was about 6 % of a render pass in Node's profile).
const included = new Map();
puml.setIncludeResolver((path) => {
  if (!included.has(path)) {
    let text = null;
    try {
      text = readFileSync(join(dir, path), "utf8");
    } catch {
      // no such file: null, remembered too
    }
    included.set(path, text);
  }
  return included.get(path);
});
const sources = readdirSync(dir)
  .filter((f) => f.endsWith(".puml"))
  .sort()
  .map((f) => readFileSync(join(dir, f), "utf8"));
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
// One pass: wall and CPU milliseconds.
function pass(list, f) {
  const wall = performance.now();
  const cpu = cpuMs();
  for (const source of list) f(source);
  return [performance.now() - wall, cpuMs() - cpu];
}
// The best of ROUNDS measured passes, after WARMUP unmeasured ones.
function best(list, f) {
  for (let round = 0; round < warmup; round++) pass(list, f);
  let bestMs = Infinity;
  let bestCpuMs = Infinity;
  for (let round = 0; round < rounds; round++) {
    const [wall, cpu] = pass(list, f);
    bestMs = Math.min(bestMs, wall);
    bestCpuMs = Math.min(bestCpuMs, cpu);
  }
  return [bestMs, bestCpuMs];
}
const [checkColdMs] = pass(sources, (s) => puml.check(s));
const [checkMs, checkCpuMs] = best(sources, (s) => puml.check(s));
// The first render of each file, timed as the cold render pass, also
// tells which files draw (the rest are refused with diagnostics).
const drawable = [];
const [renderColdMs] = pass(sources, (s) => {
  try {
    puml.render(s);
    drawable.push(s);
  } catch {
    // refused: not measured
  }
});
const [renderMs, renderCpuMs] = best(drawable, (s) => puml.render(s));
console.log(
  JSON.stringify({
    startupMs,
    files: sources.length,
    drawn: drawable.length,
    checkColdMs,
    checkMs,
    checkCpuMs,
    renderColdMs,
    renderMs,
    renderCpuMs,
  }),
);
