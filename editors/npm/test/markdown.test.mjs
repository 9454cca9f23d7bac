// Real Markdown pipelines: markdown-it and unified (remark → rehype) turn a
// page with two diagrams into HTML with both SVGs inline; a broken diagram
// fails the build with its line in the Markdown file.
import test from "node:test";
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import rehypeStringify from "rehype-stringify";
import { VFile } from "vfile";
import pumlMarkdownIt from "../markdown-it.js";
import { rehypePuml, remarkPuml } from "../unified.js";

const PAGE = `# Two diagrams

Some text.

\`\`\`plantuml
@startuml
Alice -> Bob : first diagram
@enduml
\`\`\`

More text.

\`\`\`puml
Carol -> Dave : second diagram
\`\`\`

\`\`\`js
console.log("not a diagram");
\`\`\`
`;

// Line 7 of the page is the broken line (`end` closes nothing).
const BROKEN = "# Broken\n\n```plantuml\n@startuml\nAlice -> Bob\n\nend\n@enduml\n```\n";

const BARE = "Text.\n\n@startuml\nEve -> Frank : bare block\n@enduml\n\nAfter.\n";

const svgCount = (html) => (html.match(/<svg[\s>]/g) ?? []).length;

test("markdown-it renders both diagrams inline and leaves other fences alone", () => {
  const html = new MarkdownIt().use(pumlMarkdownIt).render(PAGE);
  assert.equal(svgCount(html), 2);
  assert.match(html, /first diagram/);
  assert.match(html, /second diagram/);
  assert.match(html, /<code class="language-js">/);
  assert.doesNotMatch(html, /<\?xml/);
});

test("markdown-it renders a bare @startuml block", () => {
  const html = new MarkdownIt().use(pumlMarkdownIt).render(BARE);
  assert.equal(svgCount(html), 1);
  assert.match(html, /bare block/);
  assert.match(html, /<p>After.<\/p>/);
});

test("markdown-it: a broken diagram fails the build with its line, or warns when asked", () => {
  const md = new MarkdownIt().use(pumlMarkdownIt);
  assert.throws(() => md.render(BROKEN, { file: "guide.md" }), /^PumlDiagramError: guide\.md:7:1: error\[/);
  const warnings = [];
  const lenient = new MarkdownIt().use(pumlMarkdownIt, { errors: "warn", onWarning: (m) => warnings.push(m) });
  const html = lenient.render(BROKEN);
  assert.match(warnings[0], /^<markdown>:7:1: error\[/);
  assert.match(html, /class="puml puml-error"/);
});

async function unifiedHtml(markdown, plugin, options) {
  const processor = unified().use(remarkParse);
  if (plugin === "remark") processor.use(remarkPuml, options);
  processor.use(remarkRehype, { allowDangerousHtml: true });
  if (plugin === "rehype") processor.use(rehypePuml, options);
  processor.use(rehypeStringify, { allowDangerousHtml: true });
  return processor.process(new VFile({ path: "guide.md", value: markdown }));
}

for (const plugin of ["remark", "rehype"]) {
  test(`unified with the ${plugin} plugin renders both diagrams inline`, async () => {
    const file = await unifiedHtml(PAGE, plugin);
    const html = String(file);
    assert.equal(svgCount(html), 2);
    assert.match(html, /first diagram/);
    assert.match(html, /second diagram/);
    assert.match(html, /language-js/);
  });

  test(`unified with the ${plugin} plugin fails the build on a broken diagram, with its line`, async () => {
    await assert.rejects(unifiedHtml(BROKEN, plugin), (error) => {
      assert.equal(error.line, 7);
      assert.match(String(error.reason ?? error.message), /^guide\.md:7:1: error\[/);
      return true;
    });
    const file = await unifiedHtml(BROKEN, plugin, { errors: "warn" });
    assert.equal(file.messages.length, 1);
    assert.equal(file.messages[0].line, 7);
  });
}

test("unified with the remark plugin renders a bare @startuml block", async () => {
  const html = String(await unifiedHtml(BARE, "remark"));
  assert.equal(svgCount(html), 1);
  assert.match(html, /bare block/);
});
