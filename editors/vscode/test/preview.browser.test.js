// The preview page in a real browser (Debian's chromium through
// playwright-core): the diagram becomes visible, the Content-Security-Policy
// blocks injected scripts, a long page is windowed (page-sized scroll area,
// the region drawn at its offset, region requests per frame, stale answers
// dropped, zoom), and — when a puml-lsp binary is given in $PUML_LSP — the
// round trip `puml/render` → painted page is measured on a 5,000-line
// diagram, drawn whole (the path short pages take) and windowed (what the
// extension does for it), with a screenshot of the windowed page's middle.
// Set PUML_REQUIRE_BROWSER=1 (CI does) to fail, not skip, when no browser
// is installed.
const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const { spawn } = require("child_process");
const { previewHtml, makeNonce } = require("../out/preview.js");

const BROWSER = process.env.CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
const skip = !BROWSER && process.env.PUML_REQUIRE_BROWSER !== "1" ? "no chromium installed" : false;

const SAMPLE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" viewBox="0 0 200 120">
  <rect x="10" y="10" width="80" height="40" fill="#E2E2F0" stroke="#181818"/>
  <text x="20" y="35" font-size="14" fill="#000">Alice</text>
  <line x1="50" y1="50" x2="50" y2="110" stroke="#181818" stroke-width="2"/>
</svg>`;

async function openPage(extraHead = "", viewport = { width: 400, height: 300 }) {
  const { chromium } = require("playwright-core");
  const browser = await chromium.launch({ executablePath: BROWSER, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport });
  const violations = [];
  page.on("console", (m) => violations.push(m.text()));
  const nonce = makeNonce();
  let html = previewHtml("vscode-webview://test", nonce, "test");
  const head = typeof extraHead === "function" ? extraHead(nonce) : extraHead;
  html = html.replace("</head>", `${head}</head>`);
  await page.setContent(html);
  return { browser, page, violations };
}

/** Bytes darker than light grey in a PNG screenshot's pixel data. */
function darkBytes(png) {
  const { inflateSync } = require("zlib");
  assert.ok(png.length > 200);
  const idat = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    if (type === "IDAT") idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  let dark = 0;
  for (let i = 0; i < raw.length; i++) if (raw[i] < 200) dark++;
  return dark;
}

async function post(page, message) {
  await page.evaluate((m) => window.postMessage(m, "*"), message);
}

test("the diagram is painted and an injected script is blocked", { skip }, async () => {
  const injected = `<script>document.documentElement.dataset.injected = "yes";</script>`;
  const { browser, page, violations } = await openPage(injected);
  try {
    await post(page, { type: "render", svg: SAMPLE_SVG, version: 7, state: { page: 0, pageCount: 2, zoom: 1, theme: "" } });
    await page.waitForSelector("body[data-rendered='7']", { timeout: 5000 });
    assert.strictEqual(await page.evaluate(() => document.documentElement.dataset.injected), undefined);
    assert.ok(violations.some((v) => /Content Security Policy/i.test(v)), violations.join("\n"));
    assert.strictEqual(await page.textContent("#pages"), "1 / 2");
    const box = await page.locator("#diagram svg").boundingBox();
    assert.ok(box && box.width >= 199 && box.height >= 119, JSON.stringify(box));
    const png = await page.screenshot({ clip: { x: box.x, y: box.y, width: 100, height: 60 } });
    // The participant box's fill and border make a visible, non-white area.
    const dark = darkBytes(png);
    assert.ok(dark > 50, `non-white bytes in the diagram area: ${dark}`);
  } finally {
    await browser.close();
  }
});

test("a script inside the SVG never runs", { skip }, async () => {
  const { browser, page } = await openPage();
  try {
    const evil = SAMPLE_SVG.replace("</svg>", `<script>document.documentElement.dataset.pwned = "1"</script><image href="x" onerror="document.documentElement.dataset.pwned='2'"/></svg>`);
    await post(page, { type: "render", svg: evil, version: 1, state: { page: 0, pageCount: 1, zoom: 1, theme: "" } });
    await page.waitForSelector("body[data-rendered='1']", { timeout: 5000 });
    await page.waitForTimeout(200);
    assert.strictEqual(await page.evaluate(() => document.documentElement.dataset.pwned), undefined);
  } finally {
    await browser.close();
  }
});

/** A stand-in for VS Code's webview API that records what the page posts. */
const fakeVsCodeApi = (nonce) =>
  `<script nonce="${nonce}">window.__posted = []; window.acquireVsCodeApi = function () {
    return { postMessage: function (m) { window.__posted.push(m); }, setState: function () {}, getState: function () { return null; } };
  };</script>`;

/** An SVG of `region` of a page with a bar every 100 px, as to_svg_region draws. */
function regionSvg(region) {
  let bars = "";
  for (let y = Math.ceil(region.y / 100) * 100; y < region.y + region.height; y += 100) {
    bars += `<rect x="10" y="${y}" width="300" height="20" fill="#334"/>`;
  }
  const { x, y, width, height } = region;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}px" height="${height}px" viewBox="${x} ${y} ${width} ${height}" style="width:${width}px;height:${height}px;background:#FFFFFF;"><rect x="${x}" y="${y}" width="${width}" height="${height}" fill="#FFFFFF"/>${bars}</svg>`;
}

test("a long page is windowed: true scrollbars, the region at its offset, zoom and stale answers", { skip }, async () => {
  const { browser, page, violations } = await openPage(fakeVsCodeApi, { width: 400, height: 300 });
  try {
    const posted = () => page.evaluate(() => window.__posted.slice());
    const ready = (await posted()).find((m) => m.type === "ready");
    assert.deepStrictEqual(ready.region, { x: 0, y: 0, width: 800, height: 600 });
    const pageSize = { width: 400, height: 100000 };
    const state = { page: 0, pageCount: 1, zoom: 1, theme: "" };
    const region = { x: 0, y: 0, width: 400, height: 600 };
    await post(page, { type: "render", svg: regionSvg(region), version: 3, seq: ready.seq, pageSize, region, state });
    await page.waitForSelector("body[data-rendered='3'][data-windowed='yes']");
    const sizer = await page.locator("#sizer").boundingBox();
    assert.strictEqual(Math.round(sizer.height), 100000);
    assert.ok((await page.evaluate(() => document.documentElement.scrollHeight)) >= 100000);
    // No CSP violation from the answer (its root style attribute is dropped).
    assert.deepStrictEqual(violations.filter((v) => /inline style/i.test(v)), []);

    // Scrolling far down asks for the region there, once per frame.
    await page.evaluate(() => window.scrollTo(0, 50000));
    await page.waitForFunction(() => window.__posted.some((m) => m.type === "region"));
    await page.waitForTimeout(100);
    const asks = (await posted()).filter((m) => m.type === "region");
    assert.strictEqual(asks.length, 1, JSON.stringify(asks));
    const ask = asks[0];
    assert.ok(ask.region.y <= 50000 - 300 && ask.region.y + ask.region.height >= 50300, JSON.stringify(ask.region));
    await post(page, { type: "render", svg: regionSvg(ask.region), version: 3, seq: ask.seq, pageSize, region: ask.region, state });
    await page.waitForSelector(`body[data-seq='${ask.seq}']`);
    const svgBox = await page.locator("#sizer svg").boundingBox();
    const sizerBox = await page.locator("#sizer").boundingBox();
    assert.strictEqual(Math.round(svgBox.y - sizerBox.y), ask.region.y);
    // The bars drawn there are on screen.
    const png = await page.screenshot({ clip: { x: 0, y: 40, width: 400, height: 260 } });
    assert.ok(darkBytes(png) > 1000, "the region is painted where the view is");

    // An answer to an older request is dropped.
    await post(page, { type: "render", svg: regionSvg(region), version: 3, seq: ready.seq, pageSize, region, state });
    await page.waitForTimeout(100);
    assert.strictEqual(await page.evaluate(() => document.body.dataset.seq), String(ask.seq));

    // Zooming scales the sizer and asks for the region the view now needs.
    // (One step out still fits in the margin asked for; three do not.)
    const before = (await posted()).length;
    await page.click("#zoom-out");
    await page.click("#zoom-out");
    await page.click("#zoom-out");
    await page.waitForFunction((n) => window.__posted.length > n, before);
    const zoomed = await page.locator("#sizer").boundingBox();
    assert.strictEqual(Math.round(zoomed.height), 51200);
    assert.strictEqual(await page.textContent("#zoom"), "51%");
    const zoomAsk = (await posted()).pop();
    assert.strictEqual(zoomAsk.type, "region");
    assert.ok(zoomAsk.region.height > ask.region.height, "a zoomed-out view needs a taller region");
    // The view stayed on the same part of the diagram.
    assert.ok(zoomAsk.region.y < 50000 && zoomAsk.region.y + zoomAsk.region.height > 50600, JSON.stringify(zoomAsk.region));

    // A short page is drawn whole, and later renders ask for the whole page.
    const small = { width: 200, height: 120 };
    await post(page, {
      type: "render",
      svg: SAMPLE_SVG,
      version: 4,
      seq: zoomAsk.seq,
      pageSize: small,
      region: { x: 0, y: 0, width: 200, height: 120 },
      state,
    });
    await page.waitForSelector("body[data-rendered='4'][data-windowed='no']");
    await page.waitForFunction(() => window.__posted[window.__posted.length - 1].region === null);
    assert.strictEqual(await page.locator("#sizer").count(), 0);
  } finally {
    await browser.close();
  }
});

/** A minimal LSP client over stdio (Content-Length framing). */
function lspClient(command) {
  const child = spawn(command, [], { stdio: ["pipe", "pipe", "inherit"] });
  let buffer = Buffer.alloc(0);
  let next = 0;
  const pending = new Map();
  child.stdout.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.toString("ascii", 0, end))[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.toString("utf8", end + 4, end + 4 + length));
      buffer = buffer.subarray(end + 4 + length);
      if (message.id !== undefined && pending.has(message.id)) {
        pending.get(message.id)(message);
        pending.delete(message.id);
      }
    }
  });
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  return {
    request: (method, params) =>
      new Promise((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        send({ id, method, params });
      }),
    notify: (method, params) => send({ method, params }),
    close: () => child.kill(),
  };
}

function bigDiagram(messages) {
  const lines = ["@startuml"];
  for (let p = 0; p < 10; p++) lines.push(`participant P${p}`);
  for (let i = 0; i < messages; i++) {
    const from = i % 10;
    let to = (i * 7 + 3) % 10;
    if (to === from) to = (to + 1) % 10;
    lines.push(`P${from} -> P${to} : message ${i}`);
  }
  lines.push("@enduml", "");
  return lines.join("\n");
}

const server = process.env.PUML_LSP;
const noServer = !server || !fs.existsSync(server) ? "PUML_LSP is not set to a puml-lsp binary" : false;

test("round trip puml/render → painted preview on a 5,000-line diagram", { skip: skip || noServer }, async () => {
  const client = lspClient(server);
  const { browser, page } = await openPage();
  try {
    await client.request("initialize", { capabilities: {}, processId: null, rootUri: null });
    client.notify("initialized", {});
    const uri = "file:///tmp/bench.puml";
    let text = bigDiagram(4988);
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "puml", version: 1, text } });
    const roundTrips = [];
    const paints = [];
    for (let version = 2; version <= 21; version++) {
      text = text.replace(/message \d+\n@enduml/, `message ${version}\n@enduml`);
      client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
      const start = performance.now();
      const response = await client.request("puml/render", { textDocument: { uri }, format: "svg" });
      assert.ok(response.result, JSON.stringify(response.error));
      const received = performance.now();
      await page.evaluate(
        (m) =>
          new Promise((resolve) => {
            window.postMessage(m, "*");
            const wait = () =>
              document.body.dataset.rendered === String(m.version) ? requestAnimationFrame(() => resolve()) : setTimeout(wait, 0);
            wait();
          }),
        { type: "render", svg: response.result.data, version, state: { page: 0, pageCount: 1, zoom: 1, theme: "" } },
      );
      const painted = performance.now();
      roundTrips.push(painted - start);
      paints.push(painted - received);
    }
    const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `preview: 5,000-line diagram, render request → painted: median ${median(roundTrips).toFixed(1)} ms; ` +
        `server answer → painted: median ${median(paints).toFixed(1)} ms (${roundTrips.length} edits)`,
    );
  } finally {
    client.close();
    await browser.close();
  }
});

// The windowed preview as the extension drives it: the webview's region
// requests (captured from a stand-in `acquireVsCodeApi`) go to puml-lsp's
// `puml/render`, and the answers come back to the page. The viewport shows
// the end of the 5,000-line diagram while its last line is edited, as
// someone typing there sees it.
test("windowed preview: round trip on a 5,000-line diagram, and its middle painted", { skip: skip || noServer }, async () => {
  const client = lspClient(server);
  const { browser, page } = await openPage(fakeVsCodeApi, { width: 800, height: 600 });
  const lastRequest = () =>
    page.evaluate(() => {
      const asks = window.__posted.filter((m) => m.type === "region" || m.type === "ready");
      return asks[asks.length - 1];
    });
  const waitForRequestAfter = async (seq) => {
    await page.waitForFunction(
      (after) => window.__posted.some((m) => m.type === "region" && m.seq > after),
      seq,
      { timeout: 5000 },
    );
    return lastRequest();
  };
  const uri = "file:///tmp/bench-windowed.puml";
  /** One render as the extension does it, timed: request → answer → painted. */
  const renderAndPaint = async (version) => {
    const ask = await lastRequest();
    const start = performance.now();
    const response = await client.request("puml/render", { textDocument: { uri }, format: "svg", region: ask.region ?? undefined });
    assert.ok(response.result, JSON.stringify(response.error));
    const received = performance.now();
    const result = response.result;
    // Listening after the preview's own listener: when it runs, the new
    // picture is in the DOM; it is painted in the next frame.
    const inPage = await page.evaluate(
      (m) =>
        new Promise((resolve) => {
          const posted = performance.now();
          const after = () => {
            if (document.body.dataset.rendered !== String(m.version) || document.body.dataset.seq !== String(m.seq)) {
              return;
            }
            window.removeEventListener("message", after);
            const updated = performance.now();
            // The frame's style, layout and paint run after its animation
            // frame callbacks; a task posted from one runs once they are done.
            requestAnimationFrame(() => {
              const frame = performance.now();
              const channel = new MessageChannel();
              channel.port1.onmessage = () =>
                resolve({ update: updated - posted, frame: frame - posted, painted: performance.now() - posted });
              channel.port2.postMessage(0);
            });
          };
          window.addEventListener("message", after);
          window.postMessage(m, "*");
        }),
      {
        type: "render",
        svg: result.data,
        version,
        seq: ask.seq,
        pageSize: { width: result.width, height: result.height },
        region: result.region ?? null,
        state: { page: 0, pageCount: result.pageCount, zoom: 1, theme: "" },
      },
    );
    const painted = performance.now();
    return { result, request: painted - start, answer: painted - received, ...inPage };
  };
  try {
    await client.request("initialize", { capabilities: {}, processId: null, rootUri: null });
    client.notify("initialized", {});
    let text = bigDiagram(4988);
    client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "puml", version: 1, text } });
    await page.waitForFunction(() => window.__posted.some((m) => m.type === "ready"));

    // The first answer: the top screens of a page 150,000 px tall.
    const first = await renderAndPaint(1);
    assert.ok(first.result.height > 100000, `page height ${first.result.height}`);
    assert.ok(first.result.region && first.result.region.height < 5000, JSON.stringify(first.result.region));
    assert.ok(first.result.data.length < 200000, `region SVG of ${first.result.data.length} bytes`);
    assert.strictEqual(await page.evaluate(() => document.body.dataset.windowed), "yes");
    // The scrollbars are the whole page's.
    const scrollHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(scrollHeight >= first.result.height, `scroll height ${scrollHeight}`);

    // To the end, where the typing happens.
    let seq = (await lastRequest()).seq;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    seq = (await waitForRequestAfter(seq)).seq;
    await renderAndPaint(1);

    const requests = [];
    const answers = [];
    const updates = [];
    const frames = [];
    const inPagePainted = [];
    for (let version = 2; version <= 21; version++) {
      text = text.replace(/message \d+\n@enduml/, `message ${version}\n@enduml`);
      client.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
      const timed = await renderAndPaint(version);
      assert.ok(timed.result.data.includes(`>message ${version}<`), "the edit is in the region drawn");
      requests.push(timed.request);
      answers.push(timed.answer);
      updates.push(timed.update);
      frames.push(timed.frame);
      inPagePainted.push(timed.painted);
    }
    const visibleText = await page.evaluate(() => {
      const svg = document.querySelector("#sizer svg");
      return svg ? svg.textContent : "";
    });
    assert.ok(visibleText.includes("message 21"), "the last edit is on screen");
    const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `preview (windowed): 5,000-line diagram, viewport at the end, render request → painted: median ${median(requests).toFixed(1)} ms; ` +
        `server answer → painted: median ${median(answers).toFixed(1)} ms (${requests.length} edits); in the page: ` +
        `message → DOM updated ${median(updates).toFixed(1)} ms, → next frame ${median(frames).toFixed(1)} ms, ` +
        `→ painted ${median(inPagePainted).toFixed(1)} ms`,
    );
    // Generous bounds (shared CI machines); the figures above are the measure.
    assert.ok(median(answers) < 100, `answer → painted median ${median(answers)} ms`);
    assert.ok(median(requests) < 1000, `request → painted median ${median(requests)} ms`);

    // The middle of the page: scrolling there asks for its region, and the
    // picture painted there is the diagram's, not blank space.
    seq = (await lastRequest()).seq;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    const middleAsk = await waitForRequestAfter(seq);
    assert.ok(middleAsk.region.y > 60000 && middleAsk.region.y < 90000, JSON.stringify(middleAsk.region));
    await renderAndPaint(21);
    const png = await page.screenshot({ clip: { x: 0, y: 40, width: 800, height: 560 } });
    const shot = require("path").join(require("os").tmpdir(), "puml-preview-windowed-middle.png");
    fs.writeFileSync(shot, png);
    const dark = darkBytes(png);
    assert.ok(dark > 2000, `non-white bytes in the middle of the page: ${dark}`);
    const middleText = await page.evaluate(() => document.querySelector("#sizer svg").textContent);
    assert.match(middleText, /message 2\d\d\d/);
    console.log(`preview (windowed): screenshot of the middle of the page: ${shot}`);
  } finally {
    client.close();
    await browser.close();
  }
});
