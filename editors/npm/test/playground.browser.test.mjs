// The static playground in headless Chromium (Debian's, through
// playwright-core), opened from file:// as a reader would open the built
// folder: type → SVG painted; break → the diagnostic on its line; apply the
// fix → clean; a PlantUML-encoded address → that diagram; no CSP violation.
import test from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot, skipUnless } from "./helpers.mjs";

const BROWSER = process.env.CHROMIUM ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const PLAYGROUND = join(repoRoot, "editors/playground/dist/index.html");
const skip =
  skipUnless(BROWSER, "chromium (apt-get install chromium)") ||
  skipUnless(existsSync(PLAYGROUND), "the built playground (cargo xtask wasm)");

export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions", "--no-first-run"];

async function openPlayground(hash = "") {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: BROWSER, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const messages = [];
  page.on("console", (m) => messages.push(m.text()));
  page.on("pageerror", (e) => messages.push(String(e)));
  await page.goto(pathToFileURL(PLAYGROUND).href + hash);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 20000 });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), "true", messages.join("\n"));
  return { browser, page, messages };
}

/** Waits until the diagram shows the current source (painted, not stale); its width. */
async function painted(page) {
  await page.waitForFunction(() => {
    const picture = document.getElementById("diagram");
    const svg = picture.querySelector(":scope > svg");
    return (
      svg !== null &&
      !picture.classList.contains("stale") &&
      window.pumlPlayground.shownText() === document.getElementById("source").value
    );
  });
  return page.evaluate(() => parseFloat(document.querySelector("#diagram > svg").getAttribute("width")));
}

test("the playground paints, reports, fixes and reads PlantUML links", { skip, timeout: 120000 }, async () => {
  const { browser, page, messages } = await openPlayground();
  try {
    // Type a diagram: its SVG is painted.
    await page.fill("#source", "@startuml\nAlice -> Bob : typed here\nBob -> Carol : and here\n@enduml\n");
    assert.ok((await painted(page)) > 100);
    assert.equal(await page.locator("#diagnostics li").count(), 0);
    // The address carries the diagram in PlantUML's encoding (written
    // once typing pauses).
    await page.waitForFunction(() => {
      try {
        return wasm_bindgen.decodeUrl(location.hash.slice(1)) === document.getElementById("source").value;
      } catch {
        return false;
      }
    });

    // An edit patches the picture in place; it is then the very picture a
    // fresh render of the text draws.
    // (The long label sets the spacing, so the short one's edit moves nothing else.)
    const long = "@startuml\nAlice -> Bob : a label long enough to set the spacing\nBob -> Alice : ok\n@enduml\n";
    await page.fill("#source", long);
    await painted(page);
    const changes = () => page.evaluate(() => ({ ...window.pumlPlayground.changes }));
    // One label edit that moves nothing else, one that widens the whole
    // drawing (every element moves: patched attribute by attribute).
    for (const edited of [long.replace(": ok", ": ok!"), long.replace(": ok", `: ok, ${"and wider ".repeat(8)}`)]) {
      const before = await changes();
      await page.fill("#source", edited);
      await painted(page);
      const after = await changes();
      assert.deepEqual([after.patched - before.patched, after.replaced - before.replaced], [1, 0]);
      const same = await page.evaluate(() => {
        const fresh = document.createElement("div");
        fresh.innerHTML = wasm_bindgen
          .renderSvg(document.getElementById("source").value, undefined, 1)
          .replace(/^(<svg\b[^>]*?) style="[^"]*"/, "$1");
        return fresh.innerHTML === document.getElementById("diagram").innerHTML;
      });
      assert.ok(same, "the patched picture is the fresh render's");
    }

    // Break it: the diagnostic is shown on line 3, the picture goes stale.
    await page.fill("#source", "@startuml\nAlice -> Bob : hello\nend\n@enduml\n");
    const item = page.locator("#diagnostics li.error").first();
    await item.waitFor();
    assert.equal(await item.getAttribute("data-line"), "3");
    assert.match(await item.textContent(), /^line 3:1 error\[/);
    await page.waitForFunction(() => document.getElementById("diagram").classList.contains("stale"));

    // Apply its fix: clean again, painted again.
    await item.locator("button.fix").first().click();
    await page.waitForFunction(() => document.querySelectorAll("#diagnostics li.error").length === 0);
    await painted(page);

    // Format and the theme picker keep it painted.
    await page.fill("#source", "@startuml\n   Alice   ->   Bob :  hi\n@enduml\n");
    await page.click("#format");
    assert.equal(await page.inputValue("#source"), "@startuml\nAlice -> Bob : hi\n@enduml\n");
    await page.selectOption("#theme", "cerulean");
    await painted(page);
    assert.equal(messages.filter((m) => /Content Security Policy|Refused/i.test(m)).length, 0, messages.join("\n"));
  } finally {
    await browser.close();
  }
});

test("a PlantUML-encoded address opens its diagram", { skip, timeout: 60000 }, async () => {
  // The tail of PlantUML's own link for "Bob -> Alice : hello", and the whole link.
  for (const hash of ["#SyfFKj2rKt3CoKnELR1Io4ZDoSa70000", "#https://www.plantuml.com/plantuml/uml/SyfFKj2rKt3CoKnELR1Io4ZDoSa70000"]) {
    const { browser, page } = await openPlayground(hash);
    try {
      assert.equal(await page.inputValue("#source"), "@startuml\nBob -> Alice : hello\n@enduml\n");
      assert.ok((await painted(page)) > 50);
    } finally {
      await browser.close();
    }
  }
});
