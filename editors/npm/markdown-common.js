// What the Markdown plugins share: which blocks are diagrams, how one is
// rendered, and what becomes of its diagnostics (located in the Markdown
// file: the block's first line plus the diagnostic's line).
import { check, render } from "./index.js";

export const DEFAULT_LANGUAGES = ["plantuml", "puml"];

/** The options every plugin reads, with their defaults. */
export function resolveOptions(options = {}) {
  const levels = ["throw", "warn", "ignore"];
  const errors = options.errors ?? "throw";
  const warnings = options.warnings ?? "warn";
  if (!levels.includes(errors) || !levels.includes(warnings)) {
    throw new TypeError(`puml: errors and warnings are one of ${levels.join(", ")}`);
  }
  return {
    languages: (options.languages ?? DEFAULT_LANGUAGES).map((l) => l.toLowerCase()),
    startuml: options.startuml ?? true,
    errors,
    warnings,
    theme: options.theme,
    className: options.className ?? "puml",
    file: options.file,
  };
}

/** Whether a fence's info string names a diagram language. */
export function isDiagramInfo(info, options) {
  const language = (info ?? "").trim().split(/\s+/)[0].toLowerCase();
  return options.languages.includes(language);
}

/** A text that is one `@startuml … @enduml` block (leading blanks allowed). */
export function isStartumlBlock(text) {
  const trimmed = text.trim();
  return /^@startuml\b/.test(trimmed) && /\n@enduml\b[^\n]*$/.test(trimmed);
}

export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** `file:line:column: severity[CODE]: message`, located in the Markdown file. */
export function describe(diagnostic, firstLine, file) {
  const line = firstLine + diagnostic.line - 1;
  return `${file ?? "<markdown>"}:${line}:${diagnostic.column}: ${diagnostic.severity}[${diagnostic.code}]: ${diagnostic.message}`;
}

/**
 * Renders one diagram whose first source line is line `firstLine` of the
 * Markdown file. `report(message, {line, column, fatal})` receives every
 * diagnostic the options do not ignore; a fatal one ends the build (the
 * caller throws). Returns the HTML to insert.
 */
export function renderDiagram(source, firstLine, options, report) {
  const text = /^\s*@start/.test(source) ? source : `@startuml\n${source}\n@enduml\n`;
  // A fence without @startuml gets one line in front of it.
  const shift = text === source ? 0 : 1;
  const diagnostics = check(text);
  let hasError = false;
  for (const diagnostic of diagnostics) {
    const isError = diagnostic.severity === "error";
    hasError ||= isError;
    const level = isError ? options.errors : options.warnings;
    if (level === "ignore") continue;
    const located = { ...diagnostic, line: diagnostic.line - shift };
    report(describe(located, firstLine, options.file), {
      line: firstLine + located.line - 1,
      column: diagnostic.column,
      fatal: level === "throw",
    });
  }
  if (hasError) {
    return `<pre class="${escapeHtml(options.className)} ${escapeHtml(options.className)}-error">${escapeHtml(source)}</pre>\n`;
  }
  try {
    const svg = render(text, { format: "svg", theme: options.theme });
    return `<div class="${escapeHtml(options.className)}">${svg.replace(/^<\?xml[^>]*>\s*/, "")}</div>\n`;
  } catch (error) {
    // A refusal without an error diagnostic (another diagram kind, a size limit).
    const message = `${options.file ?? "<markdown>"}:${firstLine}:1: error: ${error.message}`;
    if (options.errors !== "ignore") report(message, { line: firstLine, column: 1, fatal: options.errors === "throw" });
    return `<pre class="${escapeHtml(options.className)} ${escapeHtml(options.className)}-error">${escapeHtml(source)}</pre>\n`;
  }
}
