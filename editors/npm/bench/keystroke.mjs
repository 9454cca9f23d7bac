// `cargo xtask bench-wasm`'s browser half: in the playground (headless
// Chromium, file://), a keystroke in a 500-line diagram until the new SVG
// is in the page and its frame rendered. Prints one JSON line.
// Types what the xtask's native half types (`type_key` in
// xtask/src/bench_wasm.rs) into the diagram it wrote.
// WARMUP keystrokes are typed first, unmeasured (V8 runs the module's
// baseline code until its optimising compiler has caught up).
// Usage: node bench/keystroke.mjs PLAYGROUND_INDEX_HTML DIAGRAM.puml [KEYSTROKES] [WARMUP]
import { pathToFileURL } from "node:url";
import { existsSync, readFileSync } from "node:fs";

const [index, file, countArg, warmupArg] = process.argv.slice(2);
const keystrokes = Number(countArg ?? 40);
const warmup = Number(warmupArg ?? 10);
const executablePath = process.env.CHROMIUM ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const { chromium } = await import("playwright-core");
const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(pathToFileURL(index).href);
  await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30000 });
  const text = readFileSync(file, "utf8");
  await page.evaluate(async (text) => {
    document.getElementById("source").value = text;
    await window.pumlPlayground.update();
  }, text);
  // CPU time of the page's process and main thread (Chromium's own
  // counters): on a shared, loaded machine the wall times below stretch
  // with the competition, the CPU time much less.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () =>
    Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  // Types `count` keystrokes, the first being the `from`-th of the run.
  const type = (count, from) =>
    page.evaluate(
      async ({ count, from }) => {
        const playground = window.pumlPlayground;
        const source = document.getElementById("source");
        let waiting = null;
        playground.onPaint((painted) => {
          if (waiting && painted === waiting.text) waiting.resolve();
        });
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
        // A task queued now runs after the current rendering update (style,
        // layout, paint of the frame the playground drew in).
        const afterRendering = () =>
          new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(0);
          });
        const out = [];
        const paintedBefore = playground.timings.length;
        for (let k = from; k < from + count; k++) {
          // A keystroke as the browser delivers it: the text changes, then
          // an input event; the playground paints on its own schedule.
          const label = `: message ${200 + (k % 5)}`;
          const at = source.value.indexOf(label) + label.length;
          await frame();
          await new Promise((resolve) => setTimeout(resolve, 3));
          const started = performance.now();
          source.value = source.value.slice(0, at) + "x" + source.value.slice(at);
          const shown = new Promise((resolve) => (waiting = { text: source.value, resolve }));
          source.dispatchEvent(new Event("input", { bubbles: true }));
          await shown;
          const inDom = performance.now();
          await afterRendering();
          out.push([inDom - started, performance.now() - started]);
        }
        // The playground's own time per paint: check, page count, render
        // and the patch of the picture (the work in the frame).
        return { out, paints: playground.timings.slice(paintedBefore), changes: playground.changes };
      },
      { count, from },
    );
  await type(warmup, 0);
  const before = await metrics();
  const { out: timings, paints, changes } = await type(keystrokes, warmup);
  const after = await metrics();
  const perKeystroke = (name) => ((after[name] - before[name]) * 1000) / keystrokes;
  const errors = await page.locator("#diagnostics li.error").count();
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  const inDom = timings.map((t) => t[0]);
  const framed = timings.map((t) => t[1]);
  console.log(
    JSON.stringify({
      lines: text.split("\n").length - 1,
      errors,
      keystrokes,
      // Keystrokes whose picture was patched in place, or replaced whole.
      patched: changes.patched,
      replaced: changes.replaced - 1,
      warmup,
      // The paint itself (check, page count, render, patch), in the frame.
      paintMedianMs: quantile(paints, 0.5),
      paintP90Ms: quantile(paints, 0.9),
      // Keystroke → the new SVG checked, rendered and in the page (this
      // includes the wait for the animation frame the playground paints in).
      domMedianMs: quantile(inDom, 0.5),
      domP90Ms: quantile(inDom, 0.9),
      // … and that frame rendered (style, layout, paint).
      frameMedianMs: quantile(framed, 0.5),
      frameP90Ms: quantile(framed, 0.9),
      // Mean CPU per keystroke: the page's main thread, its whole process
      // (raster threads too), and the main thread's script, style and
      // layout (task durations).
      threadCpuMs: perKeystroke("ThreadTime"),
      processCpuMs: perKeystroke("ProcessTime"),
      scriptMs: perKeystroke("ScriptDuration"),
      styleMs: perKeystroke("RecalcStyleDuration"),
      layoutMs: perKeystroke("LayoutDuration"),
    }),
  );
} finally {
  await browser.close();
}
