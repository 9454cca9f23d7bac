import type { PumlMarkdownOptions } from "./markdown-common.js";
export type { PumlMarkdownOptions };
/** remark (mdast) plugin: diagrams become raw HTML (allow it in remark-rehype and rehype-stringify). */
export function remarkPuml(options?: PumlMarkdownOptions): (tree: unknown, file: unknown) => void;
/** rehype (hast) plugin: `<pre><code class="language-plantuml">` becomes the SVG. */
export function rehypePuml(options?: PumlMarkdownOptions): (tree: unknown, file: unknown) => void;
export default remarkPuml;
