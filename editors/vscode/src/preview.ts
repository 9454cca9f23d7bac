// The preview webview's HTML. Pure so it can be tested outside VS Code and
// loaded in a browser: the SVG arrives by postMessage (never through the
// HTML), scripts run only with the nonce, and the Content-Security-Policy
// allows nothing else (no network, no inline handlers, no eval).

import manifest from "../package.json";
import { Rect, windowing } from "./window";

export interface PreviewState {
  page: number;
  pageCount: number;
  zoom: number;
  theme: string;
}

/** Messages from the extension to the webview. A render of a long page
 * may draw only `region` of it (diagram coordinates); `pageSize` is the
 * whole page's, and `seq` the region request it answers. */
export type ToWebview =
  | {
      type: "render";
      svg: string;
      state: PreviewState;
      version: number | null;
      pageSize?: { width: number; height: number };
      region?: Rect | null;
      seq?: number;
    }
  | { type: "error"; message: string };

/** Messages from the webview to the extension. `region` asks that later
 * renders draw only that part of the page (null: the whole page); `seq`
 * numbers the requests so that answers to older ones can be dropped. */
export type FromWebview =
  | { type: "page"; page: number }
  | { type: "theme"; theme: string }
  | { type: "region"; region: Rect | null; seq: number }
  | { type: "ready"; region?: Rect | null; seq?: number };

/** The themes the preview offers: the `puml.theme` setting's list (puml's
 * looks, then every theme PlantUML ships), which a Rust test keeps equal to
 * the renderer's catalogue; "" (the diagram's own) is the setting's default. */
export const THEMES: string[] = manifest.contributes.configuration.properties["puml.theme"].enum.filter(
  (theme: string) => theme !== "",
);

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "font-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export function makeNonce(random: () => number = Math.random): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let nonce = "";
  for (let i = 0; i < 32; i++) {
    nonce += alphabet.charAt(Math.floor(random() * alphabet.length));
  }
  return nonce;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The page. `cspSource` is the webview's `cspSource`. */
export function previewHtml(cspSource: string, nonce: string, title: string): string {
  const themeOptions = THEMES.map((t) => `<option value="${t}">${t}</option>`).join("");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeAttribute(title)}</title>
<style nonce="${nonce}">
  body { margin: 0; font-family: var(--vscode-font-family, sans-serif); color: var(--vscode-foreground, #222); }
  header { position: sticky; top: 0; z-index: 1; display: flex; gap: 8px; align-items: center; padding: 4px 8px;
           background: var(--vscode-editor-background, #fff); border-bottom: 1px solid var(--vscode-panel-border, #ccc); }
  #status { margin-left: auto; opacity: 0.8; }
  #error { display: none; padding: 8px; color: var(--vscode-errorForeground, #b00); white-space: pre-wrap; }
  #diagram { padding: 12px; transform-origin: 0 0; }
  #diagram svg { background: #fff; }
  #sizer { position: relative; overflow: hidden; contain: strict; }
  #sizer svg { position: absolute; display: block; }
</style>
</head>
<body>
<header>
  <button id="prev" title="Previous page">◀</button>
  <span id="pages">1 / 1</span>
  <button id="next" title="Next page">▶</button>
  <button id="zoom-out" title="Zoom out">−</button>
  <span id="zoom">100%</span>
  <button id="zoom-in" title="Zoom in">+</button>
  <select id="theme" title="Theme"><option value="">diagram's theme</option>${themeOptions}</select>
  <span id="status"></span>
</header>
<div id="error" role="alert"></div>
<div id="diagram" aria-label="diagram"></div>
<script nonce="${nonce}">
(function () {
  const vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : { postMessage: function () {}, setState: function () {}, getState: function () { return null; } };
  const W = (${windowing.toString()})();
  const diagram = document.getElementById("diagram");
  const error = document.getElementById("error");
  let state = vscode.getState() || { page: 0, pageCount: 1, zoom: 1, theme: "" };
  // The windowed view of a long page: a sizer as large as the page (× zoom)
  // keeps the scrollbars true, and the SVG of the region drawn sits on it
  // at the region's offset. Small pages are drawn whole, scaled.
  let pageSize = null;   // the whole page's size, once an answer said it
  let shownRegion = null; // the region on screen (null: the whole page)
  let shownSvg = null;
  let shown = null;       // { version, seq } of the answer on screen
  let asked = null;       // the region last asked for (null: the whole page)
  let seq = 0;
  function viewport() { return { width: window.innerWidth, height: window.innerHeight }; }
  function visible() {
    const origin = diagram.firstElementChild && diagram.firstElementChild.id === "sizer"
      ? diagram.firstElementChild.getBoundingClientRect()
      : diagram.getBoundingClientRect();
    return W.visibleRect(-origin.left, -origin.top, viewport(), state.zoom);
  }
  function ask(region) {
    asked = region;
    seq += 1;
    vscode.postMessage({ type: "region", region: region, seq: seq });
  }
  function place() {
    if (!shownSvg) { return; }
    if (shownRegion) {
      const z = state.zoom;
      const sizer = diagram.firstElementChild;
      diagram.style.transform = "none";
      sizer.style.width = pageSize.width * z + "px";
      sizer.style.height = pageSize.height * z + "px";
      shownSvg.style.left = shownRegion.x * z + "px";
      shownSvg.style.top = shownRegion.y * z + "px";
      shownSvg.style.width = shownRegion.width * z + "px";
      shownSvg.style.height = shownRegion.height * z + "px";
    } else {
      diagram.style.transform = "scale(" + state.zoom + ")";
    }
  }
  // Which region the view needs now; asks only when the one asked last
  // no longer reaches past what is visible.
  function check() {
    if (!pageSize) { return; }
    if (!W.isLarge(pageSize, viewport(), state.zoom)) {
      if (asked !== null) { ask(null); }
      return;
    }
    const view = visible();
    if (W.needsRegion(asked, view, pageSize, W.MARGIN_SCREENS)) {
      ask(W.regionFor(view, pageSize, W.MARGIN_SCREENS));
    }
  }
  const checkSoon = W.coalescer(function (run) { requestAnimationFrame(run); }, check);
  function show() {
    document.getElementById("pages").textContent = (state.page + 1) + " / " + state.pageCount;
    document.getElementById("zoom").textContent = Math.round(state.zoom * 100) + "%";
    document.getElementById("theme").value = state.theme || "";
    place();
    vscode.setState(state);
  }
  window.addEventListener("message", function (event) {
    const message = event.data;
    if (!message || typeof message !== "object") { return; }
    if (message.type === "render") {
      const stamp = { version: typeof message.version === "number" ? message.version : -1, seq: typeof message.seq === "number" ? message.seq : 0 };
      if (W.isStale(shown, stamp)) {
        // The latest request was answered with older content: ask again.
        if (stamp.seq === seq && asked !== null) { ask(asked); }
        return;
      }
      // Parse as SVG (never as HTML) and keep only the <svg> element; the
      // CSP stops any script or handler it might carry. The root's style
      // attribute only repeats its size, and the CSP would refuse it while
      // parsing, reporting a violation on every render: it is dropped, and
      // sizes are set through the CSSOM.
      const source = String(message.svg).replace(/^(\\s*<svg\\b[^>]*?)\\sstyle="[^"]*"/, "$1");
      const parsed = new DOMParser().parseFromString(source, "image/svg+xml");
      const svg = parsed.documentElement;
      if (svg && svg.nodeName === "svg") {
        const size = message.pageSize;
        pageSize = size && size.width > 0 && size.height > 0 ? { width: size.width, height: size.height } : null;
        const region = message.region && pageSize && !W.isFullPage(message.region, pageSize) ? message.region : null;
        const node = document.importNode(svg, true);
        if (region) {
          let sizer = diagram.firstElementChild;
          if (!sizer || sizer.id !== "sizer") {
            sizer = document.createElement("div");
            sizer.id = "sizer";
            diagram.replaceChildren(sizer);
          }
          sizer.replaceChildren(node);
        } else {
          diagram.replaceChildren(node);
        }
        shownSvg = node;
        shownRegion = region;
        shown = stamp;
        error.style.display = "none";
        state.page = message.state.page;
        state.pageCount = message.state.pageCount;
        state.theme = message.state.theme;
        document.getElementById("status").textContent = message.version === null ? "" : "v" + message.version;
        show();
        document.body.dataset.rendered = String(message.version);
        document.body.dataset.seq = String(stamp.seq);
        document.body.dataset.windowed = region ? "yes" : "no";
        checkSoon();
      }
    } else if (message.type === "error") {
      error.textContent = message.message;
      error.style.display = "block";
    }
  });
  window.addEventListener("scroll", checkSoon, { passive: true });
  window.addEventListener("resize", checkSoon);
  function zoomTo(zoom) {
    // Keep the point at the top-left of the view in place.
    const before = pageSize ? visible() : null;
    state.zoom = zoom;
    show();
    if (before && shownRegion) {
      const origin = diagram.firstElementChild.getBoundingClientRect();
      window.scrollBy(origin.left + before.x * zoom, origin.top + before.y * zoom);
    }
    checkSoon();
  }
  document.getElementById("prev").addEventListener("click", function () {
    if (state.page > 0) { window.scrollTo(0, 0); vscode.postMessage({ type: "page", page: state.page - 1 }); }
  });
  document.getElementById("next").addEventListener("click", function () {
    if (state.page + 1 < state.pageCount) { window.scrollTo(0, 0); vscode.postMessage({ type: "page", page: state.page + 1 }); }
  });
  document.getElementById("zoom-in").addEventListener("click", function () { zoomTo(Math.min(4, state.zoom * 1.25)); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoomTo(Math.max(0.25, state.zoom / 1.25)); });
  document.getElementById("theme").addEventListener("change", function (event) {
    vscode.postMessage({ type: "theme", theme: event.target.value });
  });
  show();
  // The first render asks for the top screens: a long page then never
  // travels whole, and a short one fits in them anyway.
  asked = W.regionFor(W.visibleRect(0, 0, viewport(), state.zoom), null, W.MARGIN_SCREENS);
  vscode.postMessage({ type: "ready", region: asked, seq: seq });
})();
</script>
</body>
</html>`;
}
