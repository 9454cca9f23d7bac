// `cargo xtask bench-wasm`'s browser half: in the playground (headless
// Chromium, file://), a keystroke in a 500-line diagram until the new SVG
// is decoded and a frame has passed. Prints one JSON line.
// Usage: node bench/keystroke.mjs PLAYGROUND_INDEX_HTML [KEYSTROKES]
import { pathToFileURL } from "node:url";
import { existsSync } from "node:fs";

const [index, countArg] = process.argv.slice(2);
const keystrokes = Number(countArg ?? 40);
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
  // 500 lines: 10 participants, groups of 20 messages.
  const lines = ["@startuml"];
  for (let p = 0; p < 10; p++) lines.push(`participant P${p}`);
  for (let i = 0; lines.length < 498; ) {
    lines.push(`group step ${i}`);
    for (let k = 0; k < 20 && lines.length < 497; k++, i++) lines.push(`P${i % 10} -> P${(i * 3 + 1) % 10} : message ${i}`);
    lines.push("end");
  }
  while (lines.length < 499) lines.push("' padding");
  lines.push("@enduml");
  const text = lines.join("\n") + "\n";
  const timings = await page.evaluate(
    async ({ text, keystrokes }) => {
      const source = document.getElementById("source");
      source.value = text;
      await window.pumlPlayground.update();
      const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
      const out = [];
      for (let k = 0; k < keystrokes; k++) {
        // Type one character into a message label near the middle.
        const label = `: message ${200 + (k % 5)}`;
        const at = source.value.indexOf(label) + label.length;
        const started = performance.now();
        source.value = source.value.slice(0, at) + "x" + source.value.slice(at);
        await window.pumlPlayground.update();
        const decoded = performance.now();
        await frame();
        out.push([decoded - started, performance.now() - started]);
      }
      return out;
    },
    { text, keystrokes },
  );
  const errors = await page.locator("#diagnostics li.error").count();
  const quantile = (values, q) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  const decoded = timings.map((t) => t[0]);
  const framed = timings.map((t) => t[1]);
  console.log(
    JSON.stringify({
      lines: text.split("\n").length - 1,
      errors,
      keystrokes,
      // Edit → new SVG checked, rendered and decoded in the <img>.
      decodedMedianMs: quantile(decoded, 0.5),
      decodedP90Ms: quantile(decoded, 0.9),
      // … and the next animation frame (when it is on screen).
      frameMedianMs: quantile(framed, 0.5),
      frameP90Ms: quantile(framed, 0.9),
    }),
  );
} finally {
  await browser.close();
}
