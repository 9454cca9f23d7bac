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
  const image = $("diagram");
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

  function showDiagnostics(diagnostics) {
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

  function syncPages(text) {
    let pages = 1;
    try {
      pages = Math.max(1, puml.pageCount(text));
    } catch {}
    if (pagePicker.options.length !== pages) {
      const chosen = Math.min(Number(pagePicker.value) || 1, pages);
      pagePicker.replaceChildren(...Array.from({ length: pages }, (_, i) => new Option(String(i + 1), String(i + 1))));
      pagePicker.value = String(chosen);
    }
  }

  let shownUrl = null;
  const timings = [];
  /** Checks, renders and paints the source; resolves once the image is decoded. */
  async function update() {
    const started = performance.now();
    const text = source.value;
    const diagnostics = JSON.parse(puml.checkJson(text));
    showDiagnostics(diagnostics);
    syncPages(text);
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    const warnings = diagnostics.length - errors;
    history.replaceState(null, "", `#${puml.encodeUrl(text)}`);
    if (errors > 0) {
      image.classList.add("stale");
      status.textContent = `${errors} error(s), ${warnings} warning(s)`;
      return;
    }
    let svg;
    try {
      svg = puml.renderSvg(text, themePicker.value || undefined, Number(pagePicker.value) || 1);
    } catch (thrown) {
      image.classList.add("stale");
      status.textContent = failure(thrown).message;
      return;
    }
    const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    image.src = url;
    try {
      await image.decode();
    } catch {}
    if (shownUrl) URL.revokeObjectURL(shownUrl);
    shownUrl = url;
    image.classList.remove("stale");
    const elapsed = performance.now() - started;
    timings.push(elapsed);
    status.textContent = `${warnings ? `${warnings} warning(s), ` : ""}${elapsed.toFixed(1)} ms`;
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

  source.addEventListener("input", () => update());
  themePicker.addEventListener("change", () => update());
  pagePicker.addEventListener("change", () => update());
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
  // For tests and the keystroke benchmark (cargo xtask bench-wasm).
  window.pumlPlayground = { update, timings, ready: true };
  document.body.dataset.ready = "true";
})().catch((error) => {
  document.getElementById("status").textContent = `puml failed to start: ${error}`;
  document.body.dataset.ready = "error";
});
