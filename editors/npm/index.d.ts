// Types of the puml-wasm package (index.js).

/** One edit of a fix; lines and columns are 1-based, columns count Unicode code points. */
export interface TextEdit {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  new_text: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
}

/** A diagnostic, in the shape of `puml check --format json`'s `files[].diagnostics[]`. */
export interface Diagnostic {
  severity: "error" | "warning" | "info" | "hint";
  code: string;
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  fixes: Fix[];
  /** Set when the diagnostic lies in an included file (its path). */
  file?: string;
}

export interface RenderOptions {
  /** Default "svg". (No PDF in the WebAssembly build: `puml render -f pdf` natively.) */
  format?: "svg" | "png" | "txt" | "utxt";
  /** Overrides the diagram's `!theme`; one of `themes`. */
  theme?: string;
  /** 1-based page over all diagrams of the source; default 1. */
  page?: number;
  /** PNG scale factor; default 1. */
  scale?: number;
}

/** A refused request: a bad option, or the diagnostics that refuse a render. */
export class PumlError extends Error {
  readonly diagnostics: Diagnostic[];
}

/** The puml version this build was made from. */
export const version: string;
/** Theme names `render` accepts. */
export const themes: readonly string[];

export function check(source: string): Diagnostic[];
export function render(source: string, options?: RenderOptions & { format?: "svg" | "txt" | "utxt" }): string;
export function render(source: string, options: RenderOptions & { format: "png" }): Uint8Array;
/**
 * What a live preview shows after each edit, in one call sharing one parse:
 * the diagnostics, the page count, and the SVG of `page` (null when errors
 * refuse it; `page` answered is the one drawn, the last when past the end).
 */
export function preview(
  source: string,
  options?: { theme?: string; page?: number },
): { diagnostics: Diagnostic[]; pages: number; page: number; svg: string | null };
export function pageCount(source: string): number;
export function format(source: string): string;
export function fix(source: string): string;
export function fixWithCount(source: string): { source: string; applied: number };
/** `puml explain --format json`'s object; null when the text holds no diagram. */
export function explain(source: string): Record<string, unknown> | null;
export function encodeUrl(source: string): string;
export function decodeUrl(encoded: string): string;
/** Lets `!include` read files: return the text of `path` (relative, `/`-separated) or null. */
export function setIncludeResolver(resolver: ((path: string) => string | null | undefined) | null): void;
