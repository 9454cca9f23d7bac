import type { PumlMarkdownOptions } from "./markdown-common.js";
export type { PumlMarkdownOptions };
/** markdown-it plugin: `md.use(pumlMarkdownIt, options)`. */
export default function pumlMarkdownIt(
  md: unknown,
  options?: PumlMarkdownOptions & { onWarning?: (message: string) => void },
): void;
