// markdown-it 15 ships its classes with their fields lowered to Babel's `_defineProperty(this, "name", value)` helper,
// which runs `toPropertyKey`, `toPrimitive`, a `typeof`, an `in` and a keyed store for each field of each object made:
// 8 calls for each Token, and the block parse makes one to three tokens a block. Over the statute book that was 1.2 s of
// the 12.8 s of CPU of `generate` (bench/RESULTS.md, "Markdown"). For an object being constructed, whose class and its
// prototypes define no accessor of that name (markdown-it's define none), the call does exactly what the assignment
// `this.name = value` does: the bundle (scripts/bundle-cli.js) writes that instead, so V8 makes the fields with its fast
// named stores. Nothing else is changed; a call it cannot read as such a statement is left as it is.
// test/inline-class-fields.test.ts holds the transformed markdown-it to the same tokens as the package's own.

/** Where the source's comment, string or template literal that starts at `i` ends (the index after it), or -1. */
function skipOpaque(code, i) {
  const c = code[i];
  if (c === "/" && code[i + 1] === "*") {
    const end = code.indexOf("*/", i + 2);
    return end === -1 ? code.length : end + 2;
  }
  if (c === "/" && code[i + 1] === "/") {
    const end = code.indexOf("\n", i + 2);
    return end === -1 ? code.length : end;
  }
  if (c === '"' || c === "'" || c === "`") {
    for (let j = i + 1; j < code.length; j++) {
      if (code[j] === "\\") j++;
      else if (code[j] === c) return j + 1;
      else if (c === "`" && code[j] === "$" && code[j + 1] === "{") return -1; // a template with a substitution: not read
    }
    return code.length;
  }
  return i;
}

/** The source of each argument of the call whose `(` is at `open`, and the index after its `)`; undefined if unread. */
function readArguments(code, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < code.length; ) {
    const after = skipOpaque(code, i);
    if (after === -1) return undefined;
    if (after !== i) {
      i = after;
      continue;
    }
    const c = code[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) {
        if (c !== ")") return undefined;
        args.push(code.slice(start, i));
        return { args, end: i + 1 };
      }
      depth--;
    } else if (c === "," && depth === 0) {
      args.push(code.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  return undefined;
}

/** The source without its comments, trimmed. */
const bare = (source) => source.replace(/\/\*[\s\S]*?\*\//g, "").trim();

const CALL = "_defineProperty(";

/**
 * `code` with each statement `_defineProperty(this, "name", value);` written `this.name = value;`; `replaced` counts
 * them. The helper's own definition, and any call of another form, are kept.
 */
export function inlineClassFields(code) {
  let out = "";
  let from = 0;
  let replaced = 0;
  for (let at = code.indexOf(CALL); at !== -1; at = code.indexOf(CALL, at + CALL.length)) {
    if (/[\w$.]/.test(code[at - 1] ?? "")) continue; // part of another name, a member, or the helper's definition
    const before = bare(code.slice(Math.max(0, at - 200), at)).at(-1);
    if (before !== undefined && !";{}".includes(before)) continue; // not the start of a statement
    const read = readArguments(code, at + CALL.length - 1);
    if (read === undefined || read.args.length !== 3) continue;
    const [target, key, value] = read.args.map(bare);
    const name = /^["'`]([A-Za-z_$][\w$]*)["'`]$/.exec(key)?.[1];
    if (target !== "this" || name === undefined || value === "") continue;
    if (bare(code.slice(read.end, read.end + 200))[0] !== ";") continue; // its value used: not a statement
    out += `${code.slice(from, at)}this.${name} = ${value}`;
    from = read.end;
    replaced++;
    at = read.end - CALL.length;
  }
  return { code: out + code.slice(from), replaced };
}
