// Unit tests of the extension's pure parts (node:test), run against the
// esbuild output in out/ (npm run build:test).
const test = require("node:test");
const assert = require("node:assert");
const path = require("path");
const { resolveServer, bundledPath, INSTALL_HELP } = require("../out/server.js");
const { previewHtml, contentSecurityPolicy, makeNonce } = require("../out/preview.js");
const { serverSettings, exportTarget } = require("../out/settings.js");

const base = { configured: "", extensionDir: "/ext", platform: "linux", arch: "x64", pathEnv: "/usr/bin:/opt/puml/bin" };

test("the setting wins when it names an executable", () => {
  const found = resolveServer({ ...base, configured: "/my/puml-lsp", isExecutable: (f) => f === "/my/puml-lsp" });
  assert.deepStrictEqual(found, { kind: "found", command: "/my/puml-lsp", source: "setting" });
});

test("a setting that names nothing is reported, not silently ignored", () => {
  const missing = resolveServer({ ...base, configured: "/nope", isExecutable: () => false });
  assert.strictEqual(missing.kind, "missing");
  assert.match(missing.message, /\/nope/);
});

test("the bundled binary comes before PATH", () => {
  const bundled = bundledPath("/ext", "linux", "x64");
  assert.strictEqual(bundled, path.join("/ext", "server", "linux-x64", "puml-lsp"));
  const found = resolveServer({ ...base, isExecutable: (f) => f === bundled || f === "/usr/bin/puml-lsp" });
  assert.strictEqual(found.source, "bundled");
});

test("PATH is searched in order, with .exe on Windows", () => {
  const found = resolveServer({ ...base, isExecutable: (f) => f === path.join("/opt/puml/bin", "puml-lsp") });
  assert.strictEqual(found.source, "path");
  const windows = resolveServer({
    ...base,
    platform: "win32",
    pathEnv: "C:\\tools;C:\\puml",
    isExecutable: (f) => f.endsWith(path.join("C:\\puml", "puml-lsp.exe")),
  });
  assert.strictEqual(windows.kind, "found");
});

test("no binary anywhere explains how to install", () => {
  assert.deepStrictEqual(resolveServer({ ...base, isExecutable: () => false }), { kind: "missing", message: INSTALL_HELP });
});

test("the CSP allows nothing but nonce scripts and webview styles", () => {
  const csp = contentSecurityPolicy("vscode-webview://abc", "N0NCE");
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-N0NCE'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
});

test("the preview page carries the nonce on every script and no external asset", () => {
  const nonce = makeNonce(() => 0.5);
  assert.strictEqual(nonce.length, 32);
  const html = previewHtml("vscode-webview://abc", nonce, 'a "quoted" <title>');
  const scripts = html.match(/<script[^>]*>/g);
  assert.ok(scripts.length >= 1 && scripts.every((s) => s.includes(`nonce="${nonce}"`)));
  assert.doesNotMatch(html, /src="http|href="http/);
  assert.match(html, /<title>a &quot;quoted&quot; &lt;title><\/title>/);
});

test("settings sent to the server are well-typed", () => {
  const values = { includeRoots: ["/a", 3], theme: "plain", lint: false };
  assert.deepStrictEqual(serverSettings((k) => values[k]), { puml: { includeRoots: ["/a"], theme: "plain", lint: false } });
  assert.deepStrictEqual(serverSettings(() => undefined), { puml: { includeRoots: [], theme: "", lint: true } });
});

test("exports sit beside the diagram, numbered when there are pages", () => {
  assert.strictEqual(exportTarget("/d/login.puml", "svg", 0, 1), "/d/login.svg");
  assert.strictEqual(exportTarget("/d/flow.plantuml", "png", 1, 3), "/d/flow-2.png");
});
