/** The README's sections, as the tests that run them read them. */

/**
 * The text of the README section under `## heading`, up to the next `## ` heading outside a code block (a heading in
 * a law's markdown, inside a heredoc, is not one), or the end; undefined when there is no such section.
 */
export function readmeSection(readme: string, heading: string): string | undefined {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) return undefined;
  const lines = readme.slice(start + 1).split("\n");
  let fenced = false;
  for (let i = 1; i < lines.length; i++) {
    if (/^```/.test(lines[i]!)) fenced = !fenced;
    else if (!fenced && lines[i]!.startsWith("## ")) return lines.slice(0, i).join("\n");
  }
  return lines.join("\n");
}
