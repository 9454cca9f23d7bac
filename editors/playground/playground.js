// The playground: editor left, live SVG right, diagnostics with their
// fixes, format, theme and page pickers, SVG/PNG export, and the diagram
// in the URL (`#` + PlantUML's text encoding, so the tail of a PlantUML
// server link, or the whole link, opens here). Classic script over
// wasm-bindgen's `no-modules` glue: it works from file:// too.
"use strict";

(async function main() {
  const SAMPLE = "@startuml\nAlice -> Bob : hello\nBob --> Alice : hi!\n@enduml\n";
  const $ = (id) => document.getElementById(id);
  const source = $("source");
  const diagnosticsList = $("diagnostics");
  const picture = $("diagram");
  const themePicker = $("theme");
  const pagePicker = $("page");
  const status = $("status");

  const bytes = Uint8Array.from(atob(globalThis.PUML_WASM_BASE64), (c) => c.charCodeAt(0));
  await wasm_bindgen({ module_or_path: bytes });
  const puml = wasm_bindgen;
  $("version").textContent = `puml ${puml.pumlVersion()}`;
  for (const name of puml.themeNames()) {
    themePicker.add(new Option(name, name));
  }

  /** A thrown JSON error ({message, diagnostics}) as an object. */
  function failure(thrown) {
    try {
      return JSON.parse(thrown);
    } catch {
      return { message: String(thrown), diagnostics: [] };
    }
  }

  /** UTF-16 offset of a 1-based line and column (columns count code points). */
  function offsetOf(text, line, column) {
    let offset = 0;
    for (let l = 1; l < line; l++) {
      const next = text.indexOf("\n", offset);
      if (next < 0) return text.length;
      offset = next + 1;
    }
    for (let c = 1; c < column && offset < text.length && text[offset] !== "\n"; c++) {
      offset += text.codePointAt(offset) > 0xffff ? 2 : 1;
    }
    return offset;
  }

  function applyFix(fix) {
    let text = source.value;
    const edits = fix.edits
      .map((e) => ({ start: offsetOf(text, e.line, e.column), end: offsetOf(text, e.end_line, e.end_column), text: e.new_text }))
      .sort((a, b) => b.start - a.start);
    for (const edit of edits) {
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    source.value = text;
    update();
  }

  function selectLine(line) {
    const start = offsetOf(source.value, line, 1);
    const end = source.value.indexOf("\n", start);
    source.focus();
    source.setSelectionRange(start, end < 0 ? source.value.length : end);
  }

  /** The diagnostics list; rebuilt only when the diagnostics changed. */
  let shownDiagnostics = null;
  /** How many of the shown diagnostics are not errors. */
  let warningCount = 0;
  function showDiagnostics(json) {
    if (json === shownDiagnostics) return;
    shownDiagnostics = json;
    const diagnostics = JSON.parse(json);
    warningCount = diagnostics.filter((d) => d.severity !== "error").length;
    diagnosticsList.replaceChildren();
    for (const d of diagnostics) {
      const item = document.createElement("li");
      item.className = d.severity;
      item.dataset.line = String(d.line);
      item.dataset.code = d.code;
      item.textContent = `line ${d.line}:${d.column} ${d.severity}[${d.code}]: ${d.message}`;
      item.addEventListener("click", () => selectLine(d.line));
      for (const fix of d.fixes) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "fix";
        button.textContent = fix.title;
        button.addEventListener("click", (event) => {
          event.stopPropagation();
          applyFix(fix);
        });
        item.append(button);
      }
      diagnosticsList.append(item);
    }
  }

  /** The page picker offers `pages` pages, `page` chosen. */
  function syncPages(pages, page) {
    if (pagePicker.options.length !== pages) {
      pagePicker.replaceChildren(...Array.from({ length: pages }, (_, i) => new Option(String(i + 1), String(i + 1))));
    }
    pagePicker.value = String(page);
  }

  // The address follows the text, but not on every keystroke: encoding
  // costs a deflate of the whole text, and browsers throttle
  // `history.replaceState` (Chromium refuses past a few hundred calls in
  // ten seconds). It is written once typing pauses.
  const ADDRESS_DELAY_MS = 300;
  let addressTimer = 0;
  function syncAddressSoon() {
    clearTimeout(addressTimer);
    addressTimer = setTimeout(syncAddress, ADDRESS_DELAY_MS);
  }
  function syncAddress() {
    clearTimeout(addressTimer);
    history.replaceState(null, "", `#${puml.encodeUrl(source.value)}`);
  }

  /** The text the shown picture (or its diagnostics) was made from. */
  let shownText = null;
  const timings = [];
  /** Called, with the text it painted, after each paint (for tests and the benchmark). */
  const paintListeners = new Set();
  function painted(text) {
    shownText = text;
    for (const listener of paintListeners) listener(text);
  }

  /**
   * Checks, renders and shows the source: one call into the module (the
   * text crosses once) answers the diagnostics, the page count and the
   * chosen page's SVG.
   */
  function paint(text) {
    const started = performance.now();
    let answer;
    try {
      answer = puml.preview(text, themePicker.value || undefined, Number(pagePicker.value) || 1);
    } catch (thrown) {
      picture.classList.add("stale");
      status.textContent = failure(thrown).message;
      return;
    }
    showDiagnostics(answer.diagnostics);
    syncPages(answer.pages, answer.page);
    const warnings = warningCount;
    if (answer.errors > 0) {
      picture.classList.add("stale");
      status.textContent = `${answer.errors} error(s), ${warnings} warning(s)`;
      return;
    }
    if (answer.svg === null) {
      picture.classList.add("stale");
      status.textContent = failure(answer.failure).message;
      return;
    }
    showSvg(answer.svg);
    picture.classList.remove("stale");
    const elapsed = performance.now() - started;
    timings.push(elapsed);
    status.textContent = `${warnings ? `${warnings} warning(s), ` : ""}${elapsed.toFixed(1)} ms`;
  }

  // The picture is the SVG itself in the page, not an <img> of it: an
  // image of a long diagram is rasterised whole on every change (a
  // 500-line sequence diagram is 14,000 px tall), while inline SVG paints
  // only what is on screen, and an edit replaces only the elements that
  // changed. Nothing in it runs: the page's Content-Security-Policy allows
  // no inline script, event handler or `javascript:` link, and an SVG
  // carrying any such markup (puml writes none) is shown as an <img>.
  const SVG_NS = "http://www.w3.org/2000/svg";
  const UNSAFE_MARKUP = /<script|<foreignObject|<iframe|<object|<embed|\son[a-z]+\s*=|javascript:/i;
  /** The shown SVG cut into its parts (see `svgParts`), or null. */
  let shown = null;
  /** How the picture changed so far: patched in place, or replaced whole. */
  const changes = { patched: 0, replaced: 0 };

  /** The end of the tag that starts at `lt` (a `>` inside a double-quoted value skipped: puml quotes so), or -1. */
  function tagEnd(svg, lt) {
    let gt = svg.indexOf(">", lt);
    // Almost always no quote between: then `gt` ends the tag.
    while (gt >= 0) {
      let quotes = 0;
      for (let q = svg.indexOf('"', lt); q >= 0 && q < gt; q = svg.indexOf('"', q + 1)) quotes++;
      if (quotes % 2 === 0) return gt;
      gt = svg.indexOf(">", gt + 1);
    }
    return -1;
  }

  /**
   * The elements of `svg` from `at` on, one string each, up to the end tag
   * of their parent: `{elements, end}` (`end` where that end tag starts),
   * or null.
   */
  function elementsFrom(svg, at) {
    const elements = [];
    let depth = 0;
    let start = at;
    while (at < svg.length) {
      const lt = svg.indexOf("<", at);
      if (lt < 0) return null;
      const gt = tagEnd(svg, lt);
      if (gt < 0) return null;
      if (svg[lt + 1] === "/") {
        if (depth === 0) return { elements, end: lt };
        depth--;
      } else if (svg[gt - 1] !== "/") {
        depth++;
      }
      at = gt + 1;
      if (depth === 0) {
        elements.push(svg.slice(start, at));
        start = at;
      }
    }
    return null;
  }

  /**
   * An SVG cut where puml writes its drawing: the root's start tag, the
   * elements before the drawing's group (`<g font-family=…>`), that
   * group's start tag, its children (one string each) and the rest. Null
   * when it is not of that shape.
   */
  function svgParts(svg) {
    const rootEnd = svg.startsWith("<svg") ? tagEnd(svg, 0) : -1;
    const open = svg.indexOf("<g font-family=");
    if (rootEnd < 0 || open < rootEnd) return null;
    const pre = elementsFrom(svg.slice(0, open) + "</svg>", rootEnd + 1);
    const groupEnd = tagEnd(svg, open);
    const drawing = groupEnd < 0 ? null : elementsFrom(svg, groupEnd + 1);
    if (!pre || !drawing) return null;
    return {
      root: svg.slice(0, rootEnd + 1),
      pre: pre.elements,
      group: svg.slice(open, groupEnd + 1),
      children: drawing.elements,
      tail: svg.slice(drawing.end),
    };
  }

  /** A start tag's (or leaf element's) name, attributes and text; null if not simple. */
  const LEAF = /^<([a-zA-Z]+)((?:\s+[^\s=<>"]+="[^"&<]*")*)\s*(?:\/>|>([^<&]*)<\/\1>|>)$/;
  const ATTRIBUTE = /\s([^\s=<>"]+)="([^"]*)"/g;
  function leaf(markup) {
    const match = LEAF.exec(markup);
    if (!match) return null;
    const attributes = new Map();
    for (const [, name, value] of match[2].matchAll(ATTRIBUTE)) attributes.set(name, value);
    return { name: match[1], attributes, text: match[3] ?? null };
  }

  /**
   * Turns `node`, drawn from `before`, into what `after` draws by setting
   * the attributes that differ, when both are the same simple element
   * (same name and text; no entities). False when it cannot.
   */
  function patchAttributes(node, before, after) {
    const old = leaf(before);
    const fresh = leaf(after);
    if (!old || !fresh || old.name !== fresh.name || old.text !== fresh.text || node.localName !== fresh.name) {
      return false;
    }
    for (const [name, value] of fresh.attributes) {
      if (old.attributes.get(name) !== value) {
        if (name.includes(":")) return false;
        node.setAttribute(name, value);
      }
    }
    for (const name of old.attributes.keys()) {
      if (!fresh.attributes.has(name)) {
        if (name.includes(":")) return false;
        node.removeAttribute(name);
      }
    }
    return true;
  }

  /**
   * Makes the children of `parent` (drawn from `old` markup) draw `fresh`:
   * the common first and last ones are kept; between them, elements of the
   * same shape get their changed attributes, the others are replaced.
   */
  function patchChildren(parent, old, fresh) {
    let prefix = 0;
    while (prefix < old.length && prefix < fresh.length && old[prefix] === fresh[prefix]) prefix++;
    let suffix = 0;
    while (
      suffix < old.length - prefix &&
      suffix < fresh.length - prefix &&
      old[old.length - 1 - suffix] === fresh[fresh.length - 1 - suffix]
    ) {
      suffix++;
    }
    const nodes = parent.childNodes;
    if (old.length === fresh.length) {
      // Moved, not restructured (an edit that shifts the drawing): patch
      // each element in place.
      for (let i = prefix; i < fresh.length - suffix; i++) {
        if (old[i] !== fresh[i] && !patchAttributes(nodes[i], old[i], fresh[i])) {
          nodes[i].replaceWith(...svgNodes(fresh[i]));
        }
      }
      return;
    }
    const before = nodes[old.length - suffix] ?? null;
    for (let i = old.length - suffix - 1; i >= prefix; i--) nodes[i].remove();
    for (const node of svgNodes(fresh.slice(prefix, fresh.length - suffix).join(""))) {
      parent.insertBefore(node, before);
    }
  }

  /** SVG elements parsed from markup, in the SVG namespace. */
  function svgNodes(markup) {
    const holder = document.createElementNS(SVG_NS, "g");
    holder.innerHTML = markup;
    return Array.from(holder.childNodes);
  }

  function showSvg(svg) {
    // The root's `style` (its size and background, which its attributes and
    // first rect also give) is an inline style the page's policy refuses.
    svg = svg.replace(/^(<svg\b[^>]*?) style="[^"]*"/, "$1");
    if (UNSAFE_MARKUP.test(svg)) {
      // Not puml's usual drawing: shown where nothing in it can run.
      shown = null;
      const image = new Image();
      image.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
      image.onload = () => URL.revokeObjectURL(image.src);
      image.alt = "The rendered diagram";
      picture.replaceChildren(image);
      return;
    }
    const parts = svgParts(svg);
    const root = picture.firstElementChild;
    if (
      parts &&
      shown &&
      root &&
      root.localName === "svg" &&
      parts.group === shown.group &&
      parts.tail === shown.tail &&
      parts.pre.length === shown.pre.length &&
      (parts.root === shown.root || patchAttributes(root, shown.root, parts.root))
    ) {
      // Same frame: change only what differs.
      patchChildren(root, shown.pre, parts.pre);
      patchChildren(shown.drawing, shown.children, parts.children);
      shown = { ...parts, drawing: shown.drawing };
      changes.patched++;
      return;
    }
    changes.replaced++;
    picture.innerHTML = svg;
    const drawing = picture.querySelector("svg > g[font-family]");
    const fits =
      parts &&
      drawing &&
      drawing.childNodes.length === parts.children.length &&
      drawing.parentNode.childNodes.length === parts.pre.length + 1;
    shown = fits ? { ...parts, drawing } : null;
  }

  // At most one paint per frame, of the newest text, and the first change
  // after a frame painted at once: its picture is in the page before the
  // browser draws the next frame (waiting for an animation frame to paint
  // in cost up to a frame of latency, and the paint then delayed that
  // frame). Changes that arrive after it, before the next frame, wait for
  // that frame and make one paint of the newest text.
  // (One change may fire several input events: only a change of the text,
  // theme or page paints again.)
  let painting = false;
  let changedSincePaint = false;
  /** The text, theme and page of the last paint. */
  let lastPaint = null;
  function schedule() {
    syncAddressSoon();
    if (painting) {
      changedSincePaint = true;
      return;
    }
    paintNowThenThrottle();
  }
  function paintNowThenThrottle() {
    changedSincePaint = false;
    painting = true;
    run();
    requestAnimationFrame(() => {
      painting = false;
      const paint = lastPaint;
      if (
        changedSincePaint &&
        (paint.text !== source.value || paint.theme !== themePicker.value || paint.page !== pagePicker.value)
      ) {
        paintNowThenThrottle();
      }
    });
  }
  function run() {
    const text = source.value;
    paint(text);
    lastPaint = { text, theme: themePicker.value, page: pagePicker.value };
    painted(text);
  }

  /** Paints the current text now. */
  async function update() {
    syncAddress();
    run();
  }

  function download(name, blob) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  function exportAs(format) {
    const page = Number(pagePicker.value) || 1;
    const theme = themePicker.value || undefined;
    try {
      if (format === "svg") {
        download("diagram.svg", new Blob([puml.renderSvg(source.value, theme, page)], { type: "image/svg+xml" }));
      } else {
        download("diagram.png", new Blob([puml.renderBytes(source.value, "png", theme, page, 0)], { type: "image/png" }));
      }
    } catch (thrown) {
      status.textContent = failure(thrown).message;
    }
  }

  /** The diagram named by the address: `#ENCODED`, or a whole PlantUML link after `#`. */
  function fromAddress() {
    const hash = decodeURIComponent(location.hash.slice(1)).trim();
    if (!hash) return null;
    const encoded = hash.split(/[/=]/).filter(Boolean).pop();
    try {
      const text = puml.decodeUrl(encoded);
      // PlantUML's server reads a text without `@start` as one diagram.
      return /^\s*@start/.test(text) ? text : `@startuml\n${text}\n@enduml\n`;
    } catch (thrown) {
      status.textContent = `cannot read the address: ${failure(thrown).message}`;
      return null;
    }
  }

  source.addEventListener("input", schedule);
  themePicker.addEventListener("change", schedule);
  pagePicker.addEventListener("change", schedule);
  window.addEventListener("hashchange", () => {
    const text = fromAddress();
    if (text !== null && text !== source.value) {
      source.value = text;
      update();
    }
  });
  $("format").addEventListener("click", () => {
    try {
      source.value = puml.formatSource(source.value);
      update();
    } catch (thrown) {
      status.textContent = failure(thrown).message;
    }
  });
  $("fix-all").addEventListener("click", () => {
    source.value = JSON.parse(puml.fixJson(source.value)).source;
    update();
  });
  $("export-svg").addEventListener("click", () => exportAs("svg"));
  $("export-png").addEventListener("click", () => exportAs("png"));

  source.value = fromAddress() ?? SAMPLE;
  await update();
  // For tests and the keystroke benchmark (cargo xtask bench-wasm):
  // `onPaint(listener)` calls `listener(text)` after each paint.
  window.pumlPlayground = {
    update,
    timings,
    changes,
    onPaint: (listener) => paintListeners.add(listener),
    shownText: () => shownText,
    ready: true,
  };
  document.body.dataset.ready = "true";
})().catch((error) => {
  document.getElementById("status").textContent = `puml failed to start: ${error}`;
  document.body.dataset.ready = "error";
});
