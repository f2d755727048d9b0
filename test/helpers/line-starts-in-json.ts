/**
 * lineStartsInJson, as generate read a heading's leaves off its JSON text before it wrote that text from the bytes
 * (src/core/records/generate.ts, lineStartsInBytes): kept here as the oracle the tests hold lineStartsInBytes to.
 */
/**
 * Where lines of a text start, by their number from its first (ascending, repeats allowed), in `json`, the text's
 * `JSON.stringify` made on its bytes read as Latin-1 (SourceBytes): `json` is the offset in it (after the opening
 * quote), `bytes` the offset in the text's bytes. Read off the escapes alone (`indexOf`, no pass over every byte): a
 * line ends at `\n`, at `\r\n` and at a `\r` alone, as CommonMark's lines do, and every character of the JSON text
 * that is not part of an escape is one byte. Undefined when the text has fewer lines than asked for.
 */
export function lineStartsInJson(
  json: string,
  lines: readonly number[],
): { json: number[]; bytes: number[] } | undefined {
  const jsonAt: number[] = [];
  const byteAt: number[] = [];
  /** The characters the JSON text has more than the bytes up to here: the opening quote, and what escapes add. */
  let extra = 1;
  let line = 0;
  let backslash = json.indexOf("\\", 1);
  for (let k = 0; k < lines.length; k++) {
    const want = lines[k]!;
    while (line < want) {
      if (backslash === -1) return undefined;
      const c = json.charCodeAt(backslash + 1);
      const length = c === 0x75 ? 6 : 2; // \u0001, or \n, \r, \", \\, \t …
      extra += length - 1;
      const after = backslash + length;
      // A line ends at \n, and at a \r not followed by \n (\r\n ends at its \n).
      if (c === 0x6e || (c === 0x72 && !(json.charCodeAt(after) === 0x5c && json.charCodeAt(after + 1) === 0x6e)))
        if (++line === want) {
          jsonAt.push(after);
          byteAt.push(after - extra);
        }
      backslash = json.indexOf("\\", after);
    }
    if (want === 0) {
      jsonAt.push(1);
      byteAt.push(0);
    } else if (jsonAt.length === k) {
      // A repeat of the line before.
      jsonAt.push(jsonAt[k - 1]!);
      byteAt.push(byteAt[k - 1]!);
    }
  }
  return { json: jsonAt, bytes: byteAt };
}
