// The preview webview's HTML. Pure so it can be tested outside VS Code and
// loaded in a browser: the SVG arrives by postMessage (never through the
// HTML), scripts run only with the nonce, and the Content-Security-Policy
// allows nothing else (no network, no inline handlers, no eval).

export interface PreviewState {
  page: number;
  pageCount: number;
  zoom: number;
  theme: string;
}

/** Messages from the extension to the webview. */
export type ToWebview =
  | { type: "render"; svg: string; state: PreviewState; version: number | null }
  | { type: "error"; message: string };

/** Messages from the webview to the extension. */
export type FromWebview =
  | { type: "page"; page: number }
  | { type: "theme"; theme: string }
  | { type: "ready" };

export const THEMES = ["default", "plain", "minimal", "docs", "dark", "sand", "blueprint"];

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
  header { position: sticky; top: 0; display: flex; gap: 8px; align-items: center; padding: 4px 8px;
           background: var(--vscode-editor-background, #fff); border-bottom: 1px solid var(--vscode-panel-border, #ccc); }
  #status { margin-left: auto; opacity: 0.8; }
  #error { display: none; padding: 8px; color: var(--vscode-errorForeground, #b00); white-space: pre-wrap; }
  #diagram { padding: 12px; transform-origin: 0 0; }
  #diagram svg { background: #fff; }
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
  const diagram = document.getElementById("diagram");
  const error = document.getElementById("error");
  let state = vscode.getState() || { page: 0, pageCount: 1, zoom: 1, theme: "" };
  function show() {
    document.getElementById("pages").textContent = (state.page + 1) + " / " + state.pageCount;
    document.getElementById("zoom").textContent = Math.round(state.zoom * 100) + "%";
    document.getElementById("theme").value = state.theme || "";
    diagram.style.transform = "scale(" + state.zoom + ")";
    vscode.setState(state);
  }
  window.addEventListener("message", function (event) {
    const message = event.data;
    if (!message || typeof message !== "object") { return; }
    if (message.type === "render") {
      // Parse as SVG (never as HTML) and keep only the <svg> element; the
      // CSP stops any script or handler it might carry.
      const parsed = new DOMParser().parseFromString(message.svg, "image/svg+xml");
      const svg = parsed.documentElement;
      if (svg && svg.nodeName === "svg") {
        diagram.replaceChildren(document.importNode(svg, true));
        error.style.display = "none";
        state.page = message.state.page;
        state.pageCount = message.state.pageCount;
        state.theme = message.state.theme;
        document.getElementById("status").textContent = message.version === null ? "" : "v" + message.version;
        show();
        document.body.dataset.rendered = String(message.version);
      }
    } else if (message.type === "error") {
      error.textContent = message.message;
      error.style.display = "block";
    }
  });
  document.getElementById("prev").addEventListener("click", function () {
    if (state.page > 0) { vscode.postMessage({ type: "page", page: state.page - 1 }); }
  });
  document.getElementById("next").addEventListener("click", function () {
    if (state.page + 1 < state.pageCount) { vscode.postMessage({ type: "page", page: state.page + 1 }); }
  });
  document.getElementById("zoom-in").addEventListener("click", function () { state.zoom = Math.min(4, state.zoom * 1.25); show(); });
  document.getElementById("zoom-out").addEventListener("click", function () { state.zoom = Math.max(0.25, state.zoom / 1.25); show(); });
  document.getElementById("theme").addEventListener("change", function (event) {
    vscode.postMessage({ type: "theme", theme: event.target.value });
  });
  show();
  vscode.postMessage({ type: "ready" });
})();
</script>
</body>
</html>`;
}
