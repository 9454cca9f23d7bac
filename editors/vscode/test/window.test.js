// Unit tests of the windowed preview's arithmetic (out/window.js), which the
// webview inlines: regions, when to ask again, stale answers, coalescing.
const test = require("node:test");
const assert = require("node:assert");
const { windowing } = require("../out/window.js");
const { previewHtml } = require("../out/preview.js");

const W = windowing();
const viewport = { width: 800, height: 600 };
const longPage = { width: 1500, height: 150000 };

test("pages up to a few screens are drawn whole, longer ones windowed", () => {
  assert.strictEqual(W.isLarge({ width: 700, height: 1700 }, viewport, 1), false);
  assert.strictEqual(W.isLarge({ width: 700, height: 1900 }, viewport, 1), true);
  assert.strictEqual(W.isLarge({ width: 2500, height: 500 }, viewport, 1), true);
  // Zooming in makes a page long; zooming out makes it short again.
  assert.strictEqual(W.isLarge({ width: 700, height: 1000 }, viewport, 2), true);
  assert.strictEqual(W.isLarge(longPage, viewport, 0.01), false);
});

test("the visible part is the scroll offset and viewport over the zoom", () => {
  assert.deepStrictEqual(W.visibleRect(0, 0, viewport, 1), { x: 0, y: 0, width: 800, height: 600 });
  assert.deepStrictEqual(W.visibleRect(100, 5000, viewport, 2), { x: 50, y: 2500, width: 400, height: 300 });
  // A zoom that is not a number reads as 1 rather than making NaN regions.
  assert.deepStrictEqual(W.visibleRect(0, 60, viewport, 0), { x: 0, y: 60, width: 800, height: 600 });
});

test("the region is the view plus one screen each way, on the page, in whole pixels", () => {
  const middle = W.regionFor({ x: 0, y: 75000.4, width: 800, height: 600 }, longPage, 1);
  assert.deepStrictEqual(middle, { x: 0, y: 74400, width: 1500, height: 1801 });
  // At the top: nothing above the page.
  assert.deepStrictEqual(W.regionFor({ x: 0, y: 0, width: 800, height: 600 }, longPage, 1), {
    x: 0,
    y: 0,
    width: 1500,
    height: 1200,
  });
  // At the end: nothing below the page.
  const end = W.regionFor({ x: 0, y: 149400, width: 800, height: 600 }, longPage, 1);
  assert.deepStrictEqual(end, { x: 0, y: 148800, width: 1500, height: 1200 });
  // Page not known yet (the first request): only the top-left edge applies.
  assert.deepStrictEqual(W.regionFor({ x: 0, y: 0, width: 800, height: 600 }, null, 1), {
    x: 0,
    y: 0,
    width: 1600,
    height: 1200,
  });
  // Scrolled past the end of a page that shrank: the last screens.
  const shrunk = W.regionFor({ x: 0, y: 9000, width: 800, height: 600 }, { width: 1500, height: 5000 }, 1);
  assert.deepStrictEqual(shrunk, { x: 0, y: 3200, width: 1500, height: 1800 });
});

test("a new region is asked for only when the last one no longer reaches past the view", () => {
  const asked = W.regionFor({ x: 0, y: 75000, width: 800, height: 600 }, longPage, 1);
  const view = (y) => ({ x: 0, y, width: 800, height: 600 });
  assert.strictEqual(W.needsRegion(null, view(0), longPage, 1), true);
  assert.strictEqual(W.needsRegion(asked, view(75000), longPage, 1), false);
  // Scrolling within half a margin of the edge: still covered.
  assert.strictEqual(W.needsRegion(asked, view(75250), longPage, 1), false);
  assert.strictEqual(W.needsRegion(asked, view(74750), longPage, 1), false);
  // Past it: ask before blank space shows.
  assert.strictEqual(W.needsRegion(asked, view(75400), longPage, 1), true);
  assert.strictEqual(W.needsRegion(asked, view(74500), longPage, 1), true);
  // Zooming out shows more of the page than was asked for.
  assert.strictEqual(W.needsRegion(asked, { x: 0, y: 75000, width: 1600, height: 1200 }, longPage, 1), true);
  // At the end of the page the margin below is the page's end.
  const end = W.regionFor(view(149400), longPage, 1);
  assert.strictEqual(W.needsRegion(end, view(149400), longPage, 1), false);
  // Nothing of the page in view (scrolled into the padding): nothing to ask.
  assert.strictEqual(W.needsRegion(end, view(200000), longPage, 1), false);
});

test("a region covering the page is the whole page", () => {
  assert.strictEqual(W.isFullPage({ x: 0, y: 0, width: 300, height: 200 }, { width: 299.6, height: 200 }), true);
  assert.strictEqual(W.isFullPage({ x: 0, y: 10, width: 300, height: 190 }, { width: 300, height: 200 }), false);
});

test("answers to older versions or older region requests are stale", () => {
  assert.strictEqual(W.isStale(null, { version: 1, seq: 0 }), false);
  assert.strictEqual(W.isStale({ version: 5, seq: 3 }, { version: 4, seq: 9 }), true);
  assert.strictEqual(W.isStale({ version: 5, seq: 3 }, { version: 5, seq: 2 }), true);
  assert.strictEqual(W.isStale({ version: 5, seq: 3 }, { version: 5, seq: 3 }), false);
  assert.strictEqual(W.isStale({ version: 5, seq: 3 }, { version: 6, seq: 1 }), false);
});

test("requests are coalesced to one per frame", () => {
  const frames = [];
  let runs = 0;
  const request = W.coalescer((run) => frames.push(run), () => runs++);
  for (let i = 0; i < 50; i++) request();
  assert.strictEqual(frames.length, 1);
  assert.strictEqual(runs, 0);
  frames.shift()();
  assert.strictEqual(runs, 1);
  request();
  request();
  assert.strictEqual(frames.length, 1);
  frames.shift()();
  assert.strictEqual(runs, 2);
});

test("the webview inlines the same arithmetic, self-contained", () => {
  const html = previewHtml("vscode-webview://abc", "N0NCE", "t");
  assert.ok(html.includes(windowing.toString()));
  // Evaluated alone (no module scope), the inlined source still works.
  const inlined = new Function(`return (${windowing.toString()})();`)();
  assert.deepStrictEqual(inlined.regionFor({ x: 0, y: 0, width: 10, height: 10 }, null, 1), {
    x: 0,
    y: 0,
    width: 20,
    height: 20,
  });
});
