// A markdown-it plugin: ```plantuml / ```puml fences and bare
// `@startuml … @enduml` blocks become inline SVG, rendered by puml's
// WebAssembly build at build time (no Java, no server, no network).
//
//   import MarkdownIt from "markdown-it";
//   import pumlPlugin from "puml-wasm/markdown-it";
//   const md = new MarkdownIt().use(pumlPlugin, { errors: "throw", warnings: "warn" });
//   md.render(text, { file: "docs/guide.md" });
import { isDiagramInfo, renderDiagram, resolveOptions } from "./markdown-common.js";

export default function pumlMarkdownIt(md, userOptions = {}) {
  const options = resolveOptions(userOptions);
  const warn = userOptions.onWarning ?? ((message) => console.warn(message));

  const reporter = (env) => (message, { fatal }) => {
    if (fatal) {
      const error = new Error(message);
      error.name = "PumlDiagramError";
      throw error;
    }
    warn(message);
  };
  const optionsFor = (env) => ({ ...options, file: env?.file ?? options.file });

  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, index, mdOptions, env, self) => {
    const token = tokens[index];
    if (!isDiagramInfo(token.info, options)) {
      return fence ? fence(tokens, index, mdOptions, env, self) : self.renderToken(tokens, index, mdOptions);
    }
    // token.map[0] is the fence line (0-based); the source starts below it.
    const firstLine = (token.map?.[0] ?? 0) + 2;
    return renderDiagram(token.content, firstLine, optionsFor(env), reporter(env));
  };

  if (options.startuml) {
    md.block.ruler.before("paragraph", "puml_startuml", (state, startLine, endLine, silent) => {
      const lineText = (line) => state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
      if (state.sCount[startLine] - state.blkIndent >= 4 || !/^@startuml\b/.test(lineText(startLine))) {
        return false;
      }
      let last = startLine + 1;
      while (last < endLine && !/^@enduml\b/.test(lineText(last))) last++;
      if (last >= endLine) return false;
      if (silent) return true;
      const token = state.push("puml_startuml", "", 0);
      token.block = true;
      token.map = [startLine, last + 1];
      token.content = state.getLines(startLine, last + 1, state.blkIndent, false);
      state.line = last + 1;
      return true;
    });
    md.renderer.rules.puml_startuml = (tokens, index, _mdOptions, env) => {
      const token = tokens[index];
      return renderDiagram(token.content, token.map[0] + 1, optionsFor(env), reporter(env));
    };
  }
}
