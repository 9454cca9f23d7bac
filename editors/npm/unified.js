// unified plugins: `remarkPuml` (mdast: ```plantuml / ```puml code and
// bare `@startuml … @enduml` paragraphs become raw HTML with the SVG) and
// `rehypePuml` (hast: <pre><code class="language-plantuml|puml"> becomes
// the SVG), rendered by puml's WebAssembly build at build time.
// Diagnostics are vfile messages (warnings) or a failed file (errors),
// located in the Markdown file. Raw HTML must be allowed downstream:
// `remark-rehype` and `rehype-stringify` with `allowDangerousHtml: true`.
import { isDiagramInfo, isStartumlBlock, renderDiagram, resolveOptions } from "./markdown-common.js";

function reporterFor(file) {
  return (message, { line, column, fatal }) => {
    const place = { line, column };
    if (fatal) {
      file.fail(message, place, "puml");
    } else {
      file.message(message, place, "puml");
    }
  };
}

/** Visits every node with its parent and index, without recursion. */
function eachNode(tree, visit) {
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!Array.isArray(node.children)) continue;
    for (let index = node.children.length - 1; index >= 0; index--) {
      if (visit(node.children[index], node, index) !== false) stack.push(node.children[index]);
    }
  }
}

export function remarkPuml(userOptions = {}) {
  const options = resolveOptions(userOptions);
  return (tree, file) => {
    const report = reporterFor(file);
    const located = { ...options, file: options.file ?? file.path };
    eachNode(tree, (node, parent, index) => {
      let source;
      let firstLine;
      if (node.type === "code" && isDiagramInfo(node.lang, options)) {
        source = node.value;
        firstLine = (node.position?.start.line ?? 0) + 1;
      } else if (options.startuml && node.type === "paragraph" && node.position && typeof file.value === "string") {
        const text = String(file.value).slice(node.position.start.offset, node.position.end.offset);
        if (!isStartumlBlock(text)) return true;
        source = text;
        firstLine = node.position.start.line;
      } else {
        return true;
      }
      parent.children[index] = { type: "html", value: renderDiagram(source, firstLine, located, report), position: node.position };
      return false;
    });
  };
}

function textOf(node) {
  if (node.type === "text") return node.value;
  return (node.children ?? []).map(textOf).join("");
}

export function rehypePuml(userOptions = {}) {
  const options = resolveOptions(userOptions);
  return (tree, file) => {
    const report = reporterFor(file);
    const located = { ...options, file: options.file ?? file.path };
    eachNode(tree, (node, parent, index) => {
      if (node.type !== "element" || node.tagName !== "pre") return true;
      const code = node.children?.find((c) => c.type === "element" && c.tagName === "code");
      const classes = code?.properties?.className ?? [];
      const language = classes.map(String).find((c) => c.startsWith("language-"))?.slice("language-".length);
      if (!code || !isDiagramInfo(language, options)) return true;
      const firstLine = (node.position?.start.line ?? 0) + 1;
      const html = renderDiagram(textOf(code), firstLine, located, report);
      parent.children[index] = { type: "raw", value: html, position: node.position };
      return false;
    });
  };
}

export default remarkPuml;
