/**
 * The HTML pages in a DOM without a browser (jsdom): their inline script runs, so the tests can
 * search, expand a text and read what the page shows; and axe-core's WCAG 2.1 AA rules run on
 * them (those that need layout, such as colour contrast, come back "incomplete" here and are
 * decided in the browser test, test-browser/).
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { JSDOM, VirtualConsole } from "jsdom";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** The tags of the rules run: WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Loads a page with its scripts run; resources from elsewhere are never fetched (the pages have none). */
export function loadPage(html: string): JSDOM {
  // The page's console goes to the test's; jsdom's "not implemented" notes (axe-core asks for a canvas) do not.
  const virtualConsole = new VirtualConsole();
  virtualConsole.forwardTo(console, { jsdomErrors: "none" });
  // An http origin (never fetched: jsdom loads no resource unless told to), so that axe-core may use storage.
  return new JSDOM(html, {
    runScripts: "dangerously",
    pretendToBeVisual: true,
    url: "http://localhost/page.html",
    virtualConsole,
  });
}

/** Types into an input as a user does: sets the value and fires `input`. */
export function typeInto(dom: JSDOM, selector: string, value: string): void {
  const input = dom.window.document.querySelector<HTMLInputElement>(selector)!;
  input.value = value;
  input.dispatchEvent(new dom.window.Event("input", { bubbles: true }));
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** The axe-core violations of a loaded page at WCAG 2.1 AA, as `rule: selector` lines (empty when none). */
export async function axeViolations(dom: JSDOM): Promise<string[]> {
  const window = dom.window as unknown as {
    eval(source: string): void;
    axe: { run(context: unknown, options: unknown): Promise<AxeResult> };
  };
  window.eval(axeSource);
  const result = await window.axe.run(dom.window.document, { runOnly: { type: "tag", values: WCAG_TAGS } });
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(" ")}`),
  );
}
