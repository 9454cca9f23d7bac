// `cargo xtask bench-wasm`'s keystroke measure in Node's WebAssembly: what
// the playground calls on a keystroke (diagnostics, page count, address,
// SVG), step by step, without a browser. Types what the xtask's native
// half types (`type_key` in xtask/src/bench_wasm.rs). Prints one JSON line
// of medians. Usage: node bench/keystroke-node.mjs DIAGRAM.puml [KEYSTROKES]
import { readFileSync } from "node:fs";
import * as wasm from "../dist/puml_wasm.js";

const [file, countArg] = process.argv.slice(2);
const keystrokes = Number(countArg ?? 40);
wasm.initSync({ module: readFileSync(new URL("../dist/puml_wasm_bg.wasm", import.meta.url)) });
let text = readFileSync(file, "utf8");
wasm.checkJson(text);
wasm.renderSvg(text, undefined, 1);

const steps = [[], [], [], [], []];
for (let k = 0; k < keystrokes; k++) {
  const label = `: message ${200 + (k % 5)}`;
  const at = text.indexOf(label) + label.length;
  text = text.slice(0, at) + "x" + text.slice(at);
  const t0 = performance.now();
  JSON.parse(wasm.checkJson(text));
  const t1 = performance.now();
  wasm.pageCount(text);
  const t2 = performance.now();
  wasm.encodeUrl(text);
  const t3 = performance.now();
  wasm.renderSvg(text, undefined, 1);
  const t4 = performance.now();
  [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0].forEach((ms, step) => steps[step].push(ms));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const [checkMs, pagesMs, encodeMs, renderMs, totalMs] = steps.map(median);
console.log(JSON.stringify({ keystrokes, checkMs, pagesMs, encodeMs, renderMs, totalMs }));
