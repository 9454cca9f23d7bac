// puml in JavaScript: the WebAssembly build of puml (check, render,
// format, fix, explain) for Node >= 18 and browsers, as an ES module.
// `cargo xtask wasm` writes `dist/` (wasm-bindgen's `web` glue and the
// `.wasm`); this module loads it once, at import, and wraps its answers.
import * as wasm from "./dist/puml_wasm.js";

const isNode = typeof process === "object" && process !== null && !!process.versions?.node;

async function load() {
  const url = new URL("./dist/puml_wasm_bg.wasm", import.meta.url);
  if (isNode) {
    // Node's fetch cannot read file: URLs; read the bytes instead.
    const { readFile } = await import("node:fs/promises");
    wasm.initSync({ module: await readFile(url) });
  } else {
    await wasm.default({ module_or_path: url });
  }
}

await load();

/** An answer puml could not give: a bad option, or diagnostics that refuse a render. */
export class PumlError extends Error {
  constructor(message, diagnostics = []) {
    super(message);
    this.name = "PumlError";
    /** The diagnostics behind the refusal (the shape `check` returns). */
    this.diagnostics = diagnostics;
  }
}

/** The PumlError of a refusal the module answers as JSON text (`{message, diagnostics}`). */
function refusal(json) {
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch {
    return new PumlError(json);
  }
  return new PumlError(parsed.message, parsed.diagnostics ?? []);
}

function call(f) {
  try {
    return f();
  } catch (thrown) {
    throw typeof thrown === "string" ? refusal(thrown) : thrown;
  }
}

function text(source) {
  if (typeof source !== "string") {
    throw new TypeError("puml: the source must be a string");
  }
  return source;
}

/** The puml version this build was made from. */
export const version = wasm.pumlVersion();

/** Theme names `render` accepts. */
export const themes = Object.freeze(wasm.themeNames());

/** Diagnostics in the shape of `puml check --format json` (`files[].diagnostics`). */
export function check(source) {
  return JSON.parse(call(() => wasm.checkJson(text(source))));
}

/**
 * One page of the diagram: a string for svg/txt/utxt, a Uint8Array for png
 * (PDF is not in the WebAssembly build: a PumlError).
 * Throws a PumlError (with `diagnostics`) when errors refuse the render.
 */
export function render(source, options = {}) {
  const format = options.format ?? "svg";
  const theme = options.theme ?? undefined;
  const page = options.page ?? 0;
  if (!Number.isInteger(page) || page < 0) {
    throw new TypeError("puml: page must be a positive integer");
  }
  if (format === "svg") {
    return call(() => wasm.renderSvg(text(source), theme, page));
  }
  const bytes = call(() => wasm.renderBytes(text(source), format, theme, page, options.scale ?? 0));
  return format === "png" ? bytes : new TextDecoder().decode(bytes);
}

/**
 * What a live preview shows after each edit, from one call (the source
 * crosses into the module once; the three answers share one parse and
 * analysis): `{diagnostics, pages, page, svg}`. `svg` is null when errors
 * refuse the render; `page` is the page drawn (the one asked for, the last
 * when past the end). A failed render throws a PumlError.
 */
export function preview(source, options = {}) {
  const page = options.page ?? 0;
  if (!Number.isInteger(page) || page < 0) {
    throw new TypeError("puml: page must be a positive integer");
  }
  const answer = call(() => wasm.preview(text(source), options.theme ?? undefined, page));
  if (answer.failure !== null) throw refusal(answer.failure);
  return { diagnostics: JSON.parse(answer.diagnostics), pages: answer.pages, page: answer.page, svg: answer.svg };
}

/** Pages over all diagrams of the source. */
export function pageCount(source) {
  return call(() => wasm.pageCount(text(source)));
}

/** The source as `puml fmt` writes it. */
export function format(source) {
  return call(() => wasm.formatSource(text(source)));
}

/** The source repaired by every machine-applicable fix (`puml check --fix`). */
export function fix(source) {
  return JSON.parse(call(() => wasm.fixJson(text(source)))).source;
}

/** `fix`, with the number of fixes applied: `{source, applied}`. */
export function fixWithCount(source) {
  return JSON.parse(call(() => wasm.fixJson(text(source))));
}

/** What the diagram says, as `puml explain --format json` prints it (null without a diagram). */
export function explain(source) {
  return JSON.parse(call(() => wasm.explainJson(text(source))));
}

/** PlantUML's URL text encoding (deflate + its base64 alphabet), as its server's links carry it. */
export function encodeUrl(source) {
  return wasm.encodeUrl(text(source));
}

/** The text behind a PlantUML (or Kroki) encoded string. */
export function decodeUrl(encoded) {
  return call(() => wasm.decodeUrl(text(encoded)));
}

/**
 * Lets `!include` read files: `resolver(path)` returns the text of `path`
 * (relative, `/`-separated) or null. Without one, includes are refused with
 * a diagnostic. At most 256 files of 4 MiB per call; the preprocessor's own
 * bounds (depth, output size) apply too. The resolver must not call puml.
 */
export function setIncludeResolver(resolver) {
  if (resolver != null && typeof resolver !== "function") {
    throw new TypeError("puml: the include resolver must be a function or null");
  }
  wasm.setIncludeResolver(resolver ?? undefined);
}
