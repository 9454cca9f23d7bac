// `cargo xtask bench-wasm`'s keystroke measure in Node's WebAssembly: what
// the playground calls on a keystroke (diagnostics, page count, address,
// SVG), step by step, without a browser. Types what the xtask's native
// half types (`type_key` in xtask/src/bench_wasm.rs): WARMUP keystrokes
// unmeasured (V8 runs its baseline code, Liftoff, until TurboFan has
// recompiled the hot functions), then KEYSTROKES measured. Prints one JSON
// line of medians, wall time and CPU time (this process's user + system
// time), and the first keystroke's wall time (cold).
// Usage: node bench/keystroke-node.mjs DIAGRAM.puml [KEYSTROKES] [WARMUP]
import { readFileSync } from "node:fs";
import * as wasm from "../dist/puml_wasm.js";

const [file, countArg, warmupArg] = process.argv.slice(2);
const keystrokes = Number(countArg ?? 40);
const warmup = Number(warmupArg ?? 10);
wasm.initSync({ module: readFileSync(new URL("../dist/puml_wasm_bg.wasm", import.meta.url)) });
let text = readFileSync(file, "utf8");
wasm.checkJson(text);
wasm.renderSvg(text, undefined, 1);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const wall = [[], [], [], [], []];
const cpu = [[], [], [], [], []];
let firstMs = NaN;
for (let k = 0; k < warmup + keystrokes; k++) {
  const label = `: message ${200 + (k % 5)}`;
  const at = text.indexOf(label) + label.length;
  text = text.slice(0, at) + "x" + text.slice(at);
  const laps = [[performance.now(), cpuMs()]];
  const lap = () => laps.push([performance.now(), cpuMs()]);
  JSON.parse(wasm.checkJson(text));
  lap();
  wasm.pageCount(text);
  lap();
  wasm.encodeUrl(text);
  lap();
  wasm.renderSvg(text, undefined, 1);
  lap();
  if (k === 0) firstMs = laps[4][0] - laps[0][0];
  if (k < warmup) continue;
  for (let step = 0; step < 4; step++) {
    wall[step].push(laps[step + 1][0] - laps[step][0]);
    cpu[step].push(laps[step + 1][1] - laps[step][1]);
  }
  wall[4].push(laps[4][0] - laps[0][0]);
  cpu[4].push(laps[4][1] - laps[0][1]);
}
// The playground's own path since it asks in one call (`preview`: the
// diagnostics, the page count and the SVG from one pass over the text),
// typing on (the module's one host; the keystrokes go on from the text
// above, and the warm-up keystrokes again go unmeasured).
wasm.preview(text, undefined, 1);
const previewWall = [];
const previewCpu = [];
for (let k = 0; k < warmup + keystrokes; k++) {
  const label = `: message ${200 + (k % 5)}`;
  const at = text.indexOf(label) + label.length;
  text = text.slice(0, at) + "x" + text.slice(at);
  const wallAt = performance.now();
  const cpuAt = cpuMs();
  const answer = wasm.preview(text, undefined, 1);
  if (answer.svg === null) throw new Error("the benchmark diagram did not draw");
  if (k < warmup) continue;
  previewWall.push(performance.now() - wallAt);
  previewCpu.push(cpuMs() - cpuAt);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [checkMs, pagesMs, encodeMs, renderMs, totalMs] = wall.map(median);
const [checkCpuMs, pagesCpuMs, encodeCpuMs, renderCpuMs, totalCpuMs] = cpu.map(median);
console.log(
  JSON.stringify({
    keystrokes,
    warmup,
    firstMs,
    checkMs,
    pagesMs,
    encodeMs,
    renderMs,
    totalMs,
    checkCpuMs,
    pagesCpuMs,
    encodeCpuMs,
    renderCpuMs,
    totalCpuMs,
    previewMs: median(previewWall),
    previewCpuMs: median(previewCpu),
  }),
);
