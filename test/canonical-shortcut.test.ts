/**
 * The canonical-form shortcut (isCanonicalText, issue #8) against the full check it stands in for,
 * `canonicalize(JSON.parse(text)) === text`. On every JSON text tried: the shortcut never calls a
 * text canonical that the full check refuses; where it claims to decide (member names without
 * escapes, no lone surrogate, nesting up to 100) it calls canonical every text the full check
 * accepts; and the verdict the rules see (analyseCanonical) is the full path's, kind, column and
 * all. The texts: every JSON line the other test files write (their string literals), the committed
 * record files, and fast-check records written out canonically and with every kind of departure
 * (white space, escapes, number forms, member order, duplicate members, lone surrogates, depth).
 * The last tests show that these inputs catch a shortcut that is wrong in any of those ways: each
 * runs them against a copy of the shortcut's source with one deliberate mistake.
 */
import canonicalize from "canonicalize";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { analyseCanonical, analyseCanonicalFully, isCanonicalText } from "../src/core/json/canonical.js";
import { isWellFormed } from "../src/core/text.js";
import { repoRoot } from "./helpers/records.js";

type Shortcut = (text: string, wellFormed?: boolean) => boolean;

/** The full check: the text is the RFC 8785 serialisation of the value it parses to. */
function fullCheck(text: string): boolean {
  try {
    return canonicalize(JSON.parse(text)) === text;
  } catch {
    return false;
  }
}

/**
 * Whether the shortcut has to decide the value's texts itself: no member name JSON escapes, no lone surrogate, nesting
 * up to 100.
 */
function decidable(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isWellFormed(value);
  if (value === null || typeof value !== "object") return true;
  if (depth >= 100) return false;
  if (Array.isArray(value)) return value.every((item) => decidable(item, depth + 1));
  return Object.entries(value).every(
    ([key, item]) => JSON.stringify(key) === `"${key}"` && isWellFormed(key) && decidable(item, depth + 1),
  );
}

/** The first way `shortcut` goes wrong on `text` (a JSON text), or undefined. */
function disagreement(text: string, shortcut: Shortcut = isCanonicalText): string | undefined {
  const value: unknown = JSON.parse(text);
  const full = fullCheck(text);
  const claimed = shortcut(text);
  if (claimed && !full) return "called canonical, but the full check refuses it";
  if (!claimed && full && decidable(value))
    return "not called canonical, though the full check accepts it and the shortcut decides such texts";
  if (isWellFormed(text) && shortcut(text, true) !== claimed)
    return "a different answer when told the text is well formed";
  return undefined;
}

function expectAgreement(text: string) {
  expect(disagreement(text), text.length > 300 ? `${text.slice(0, 300)}…` : text).toBeUndefined();
  const value: unknown = JSON.parse(text);
  expect(analyseCanonical(text, value)).toEqual(analyseCanonicalFully(text, value));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JavaScript string literal's value (quotes or a template without `${`), or undefined when it uses an escape JSON
 * lacks.
 */
function literalValue(literal: string): string | undefined {
  const body = literal.slice(1, -1).replace(/\\([\s\S])|["\n\r\t]/g, (whole, escaped: string | undefined) => {
    if (escaped === undefined) return JSON.stringify(whole).slice(1, -1);
    return escaped === "'" || escaped === "`" || escaped === "$" ? escaped : whole;
  });
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

/** A string literal of each kind (a template only without `${`), matched from a given quote. */
const LITERALS = [/"(?:[^"\\\n]|\\.)*"/y, /'(?:[^'\\\n]|\\.)*'/y, /`(?:[^`\\$]|\\[\s\S]|\$(?!\{))*`/y];

/**
 * Every JSON text the other test files write: their string literals, whole and line by line, that
 * parse as JSON. A literal is tried from every quote, so a quote in a comment cannot hide the next
 * one; what is read wrongly is some other JSON text or none, either harmless.
 */
function linesOfTheSuite(): string[] {
  const texts = new Set<string>();
  const testDir = join(repoRoot, "test");
  for (const name of readdirSync(testDir)) {
    if (!name.endsWith(".test.ts") || name === "canonical-shortcut.test.ts") continue;
    const source = readFileSync(join(testDir, name), "utf8");
    for (let at = 0; at < source.length; at++) {
      const kind = `"'\``.indexOf(source[at]!);
      if (kind === -1) continue;
      const pattern = LITERALS[kind]!;
      pattern.lastIndex = at;
      const literal = pattern.exec(source)?.[0];
      const value = literal === undefined ? undefined : literalValue(literal);
      if (value === undefined) continue;
      for (const text of [value, ...value.split("\n")]) if (text !== "" && parses(text)) texts.add(text);
    }
  }
  return [...texts];
}

/** The lines of every committed JSONL file the tests read. */
function committedLines(): string[] {
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".jsonl"))
        lines.push(
          ...readFileSync(path, "utf8")
            .split("\n")
            .filter((line) => line !== "" && parses(line)),
        );
    }
  };
  for (const dir of [".tooling", "fixtures", "test/fixtures-diff", "test/fixtures-addresses"])
    walk(join(repoRoot, dir));
  return lines;
}

// Values: strings over an alphabet of every character class that matters (escapes, controls, surrogates), numbers of
// every form.
const character = fc.constantFrom(
  "a",
  "b",
  "Z",
  "0",
  "1",
  "_",
  " ",
  "é",
  "€",
  "\u007f",
  "\u2028",
  "/",
  '"',
  "\\",
  "\n",
  "\t",
  "\b",
  "\f",
  "\r",
  "\u0000",
  "\u0001",
  "\u001f",
  "\ud83d\ude00",
  "\ud800",
  "\udc00",
  "\ufffd",
  "\u0100",
  "\u0a1f",
);
const text = fc.oneof(
  fc.string({ unit: character, maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom("", "__proto__", "0", "1", "10", "-1", "a", "ab", "b"),
);
const name = fc.oneof(
  fc.constantFrom("a", "b", "c", "ab", "B", "", "0", "1", "10", "é", "€", "\ud83d\ude00", "\uff61", "aa", "__proto__"),
  text,
);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.1,
    1e21,
    1e-7,
    1e-6,
    100,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    5e-324,
    1.7976931348623157e308,
    123456789012345,
    1234567890123456,
    12345678901234567000,
  ),
);
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(name, tie("value"), { maxKeys: 5, noNullPrototype: true }),
  ),
}));

/**
 * A pseudo-random source in [0, 1) from a fast-check seed (pure-rand's xoroshiro128+, the generator fast-check itself
 * uses), so that one seed is one serialisation.
 */
function randomSource(seed: number): () => number {
  const generator = xoroshiro128plus(seed);
  return () => (generator.next() >>> 0) / 4294967296;
}

type Departure = "whitespace" | "escape" | "number" | "order" | "duplicate";
const DEPARTURES: readonly Departure[] = ["whitespace", "escape", "number", "order", "duplicate"];

/**
 * Writes `value` as JSON (always valid JSON), canonically except where `depart` says so: at a token
 * boundary (white space), a character of a string (another spelling), a number (another form), an
 * object (members reordered, or one repeated).
 */
function serialise(value: unknown, depart: (kind: Departure) => boolean, random: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const space = () => (depart("whitespace") ? pick([" ", "\t", "\n", "\r", "  "]) : "");
  const hex = (code: number, upper: boolean) => {
    const digits = code.toString(16).padStart(4, "0");
    return `\\u${upper ? digits.toUpperCase() : digits}`;
  };
  const writeString = (s: string) => {
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      const pair = code >= 0xd800 && code <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      const unit = pair ? s.slice(i, i + 2) : s[i]!;
      const canonical = JSON.stringify(unit).slice(1, -1);
      if (!depart("escape")) out += canonical;
      else if (pair)
        out +=
          random() < 0.5
            ? `${hex(code, false)}${hex(s.charCodeAt(i + 1), false)}`
            : `${hex(code, true)}${hex(s.charCodeAt(i + 1), true)}`;
      else
        out += pick([
          hex(code, false),
          hex(code, true),
          unit === "/" ? "\\/" : canonical,
          unit >= " " && unit !== '"' && unit !== "\\" ? unit : canonical,
        ]);
      if (pair) i++;
    }
    return `"${out}"`;
  };
  const writeNumber = (n: number) => {
    const canonical = JSON.stringify(n);
    if (!depart("number")) return canonical;
    const forms = [
      `${canonical}e0`,
      `${canonical}E+0`,
      n.toExponential(),
      canonical.replace("e+", "E"),
      canonical.replace("e-", "e-0"),
    ];
    if (Number.isInteger(n) && Math.abs(n) < 1e21) {
      forms.push(`${canonical}.0`, `${canonical}.00`, `${canonical}e-0`);
      // Another decimal that rounds to the same double, for integers past 2^53.
      for (const step of [-2n, -1n, 1n, 2n]) forms.push((BigInt(n) + step).toString());
    }
    if (n === 0) forms.push("-0", "-0.0", "0.0", "0e5", "0");
    const other = forms.filter((form) => form !== canonical && parses(form) && Object.is(JSON.parse(form), n));
    return other.length > 0 ? pick(other) : canonical;
  };
  const write = (v: unknown): string => {
    if (v === null || typeof v === "boolean") return String(v);
    if (typeof v === "number") return writeNumber(v);
    if (typeof v === "string") return writeString(v);
    if (Array.isArray(v)) return `[${space()}${v.map((item) => `${write(item)}${space()}`).join(`,${space()}`)}]`;
    let entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length > 1 && depart("order")) {
      const at = Math.floor(random() * (entries.length - 1));
      entries =
        random() < 0.5
          ? entries.reverse()
          : [...entries.slice(0, at), entries[at + 1]!, entries[at]!, ...entries.slice(at + 2)];
    }
    if (entries.length > 0 && depart("duplicate")) {
      const [key, item] = pick(entries);
      entries.splice(Math.floor(random() * (entries.length + 1)), 0, [key, random() < 0.5 ? item : null]);
    }
    const members = entries.map(
      ([key, item]) => `${space()}${writeString(key)}${space()}:${space()}${write(item)}${space()}`,
    );
    return `{${members.join(",")}${members.length === 0 ? space() : ""}}`;
  };
  return `${space()}${write(value)}${space()}`;
}

/**
 * The value written with exactly one departure of `kind`, at a place chosen at random among those it can be taken at
 * (canonical when there is none).
 */
function withOneDeparture(value: unknown, kind: Departure, random: () => number): string {
  let places = 0;
  serialise(
    value,
    (k) => {
      if (k === kind) places++;
      return false;
    },
    randomSource(0),
  );
  const chosen = Math.floor(random() * places);
  let place = 0;
  return serialise(value, (k) => k === kind && place++ === chosen, random);
}

/**
 * Records of every shape, and small ones, where one departure is likelier to land on the character or number that
 * matters.
 */
const small = fc.oneof(fc.string({ unit: character, maxLength: 3 }), number, fc.constant(null));
const recordOrValue = fc.oneof(
  fc.dictionary(name, jsonValue, { maxKeys: 8, noNullPrototype: true }),
  jsonValue,
  fc.dictionary(fc.constantFrom("a", "b", "é", "1"), small, { maxKeys: 3, noNullPrototype: true }),
  small,
);
/**
 * A record (an object, as a line holds) or any JSON value, written canonically, with one departure, or with departures
 * at a rate.
 */
const serialised = fc
  .tuple(recordOrValue, fc.constantFrom(...DEPARTURES), fc.constantFrom(0, 0.01, 0.05, 0.2), fc.boolean(), fc.integer())
  .map(([value, kind, rate, one, seed]) => {
    const random = randomSource(seed);
    if (rate === 0) return serialise(value, () => false, random);
    return one ? withOneDeparture(value, kind, random) : serialise(value, () => random() < rate, random);
  });

/** Texts the generators write that are canonical JSON, for the shortcut's "calls canonical what it must" side. */
const canonicalText = fc.dictionary(name, jsonValue, { maxKeys: 8, noNullPrototype: true }).map((value) => {
  try {
    return canonicalize(value) ?? "null";
  } catch {
    return JSON.stringify(value);
  }
});

/** Hand-picked texts at the edge of each part of the check. */
const EDGE_CASES = [
  "{}",
  "[]",
  '""',
  "0",
  "-0",
  "1.5",
  "1E2",
  "1e+21",
  "123456789012345",
  "1234567890123456",
  "9007199254740993",
  "12345678901234567890",
  "-123",
  "[-0.0]",
  "true",
  "[null,false,true]",
  '{"a":1,"a":1}',
  '{"a":1,"b":2}',
  '{"b":1,"a":2}',
  '{"a":{},"a":{}}',
  '{"":1,"a":2}',
  '{"a":1,"":2}',
  '{"a":1,"aa":2}',
  '{"aa":1,"a":2}',
  '{"1":1,"10":2,"2":3}',
  '{"10":1,"1":2}',
  '{"2":1,"10":2}',
  '{"B":1,"a":2}',
  '{"\\u0000":1}',
  '{"a\\nb":1}',
  '{"é":1,"€":2,"😀":3,"ｱ":4}',
  '{"😀":1,"ｱ":2}',
  '{"ｱ":1,"😀":2}',
  '"\\u0000\\u0007\\u000b\\u000e\\u000f\\u0010\\u001f"',
  '"\\u001F"',
  '"\\u0008"',
  '"\\b\\f\\n\\r\\t\\"\\\\"',
  '"\\/"',
  '"\\u0041"',
  '"\\u007f"',
  '"\u007f"',
  '"\\u2028"',
  '"\u2028"',
  '"\\ud83d\\ude00"',
  '"😀"',
  '"\\ud800"',
  '"\ud800"',
  '"\udc00x"',
  '["\\\\u0041"]',
  '["\\\\","\\""]',
  '{"a":"\\\\"}',
  '{"a":"x\\"","b":1}',
  '{"a\\"":1,"b":2}',
  "[1 ]",
  "[1,\t2]",
  ' {"a":1}',
  '{"a":1}\r',
  `${"[".repeat(100)}${"]".repeat(100)}`,
  `${"[".repeat(101)}${"]".repeat(101)}`,
  `${'{"a":'.repeat(150)}1${"}".repeat(150)}`,
  `${"[".repeat(3000)}${"]".repeat(3000)}`,
];

/** Whether fast-check finds a text on which `shortcut` disagrees with the full check. */
function caught(shortcut: Shortcut): boolean {
  const inSuite = [...EDGE_CASES, ...linesOfTheSuite(), ...committedLines()].some(
    (line) => disagreement(line, shortcut) !== undefined,
  );
  const generated = fc.check(
    fc.property(serialised, (line) => disagreement(line, shortcut) === undefined),
    { numRuns: 20_000, seed: 8, endOnFailure: true },
  ).failed;
  return inSuite || generated;
}

describe("the canonical-form shortcut agrees with the full check", () => {
  test("on every JSON line the other test files write", () => {
    const lines = linesOfTheSuite();
    expect(lines.length).toBeGreaterThan(50);
    expect(lines).toContain('{"b":1,"a":2}'); // from lines.test.ts
    expect(lines).toContain('{"a":"\\u00e9"}');
    for (const line of lines) expectAgreement(line);
  });

  test("on every line of the committed record files, and on each with one departure from the canonical form", () => {
    const lines = committedLines();
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) {
      expect(isCanonicalText(line), line.slice(0, 80)).toBe(true);
      expectAgreement(line);
      // The edits of fuzz.test.ts (and of the range test before it): white space, a duplicate member, a member moved,
      // an escape, a number form.
      const value = JSON.parse(line) as Record<string, unknown>;
      const [first] = Object.keys(value);
      expectAgreement(line.replace('{"', '{ "'));
      expectAgreement(line.replace("{", `{${JSON.stringify(first)}:"x",`));
      const { [first!]: moved, ...rest } = value;
      expectAgreement(JSON.stringify({ ...rest, [first!]: moved }));
      expectAgreement(line.replace(/"\w/, (m) => `"\\u00${m.charCodeAt(1).toString(16)}`));
      expectAgreement(line.replace(/:(\d+)/, ":$1.0"));
      expectAgreement(line.replace("/", "\\/"));
    }
  });

  test("on records written canonically and with departures of every kind", () => {
    fc.assert(
      fc.property(serialised, (line) => expectAgreement(line)),
      { numRuns: 20_000 },
    );
  });

  test("on canonical texts, which the shortcut decides itself when it can", () => {
    fc.assert(
      fc.property(canonicalText, (line) => expectAgreement(line)),
      { numRuns: 5_000 },
    );
  });

  test("on the edge cases of each part of the check", () => {
    for (const line of EDGE_CASES) expectAgreement(line);
    expect(isCanonicalText(`${"[".repeat(100)}${"]".repeat(100)}`)).toBe(true);
    expect(isCanonicalText(`${"[".repeat(101)}${"]".repeat(101)}`)).toBe(false); // deeper: the full path decides
    expect(isCanonicalText('"\ud800"', true)).toBe(true); // told it is well formed, the shortcut does not look for lone surrogates
  });
});

describe("these inputs catch a wrong shortcut", () => {
  // Each mutant is isCanonicalText with one mistake a fast path could make, made in a copy of its source; every one
  // must be caught.
  const mutations: [string, string, string][] = [
    ["accepts a repeated member name", "return a === aEnd && b < bEnd;", "return a === aEnd && b <= bEnd;"],
    ["compares names by their first character only", "if (x !== y) return x < y;", "return x < y;"],
    ["accepts \\/", "    case 0x74: // t\n", "    case 0x74: // t\n    case 0x2f:\n"],
    ["accepts \\u0008 and \\u0009", "(low >= 0x30 && low <= 0x37)", "(low >= 0x30 && low <= 0x39)"],
    ["accepts uppercase hexadecimal digits", "(low >= 0x61 && low <= 0x66)", "(low >= 0x41 && low <= 0x66)"],
    [
      "accepts \\u escapes of characters JSON.stringify writes raw",
      "if (text.charCodeAt(at + 2) !== 0x30 || text.charCodeAt(at + 3) !== 0x30) return false;",
      "if (text.charCodeAt(at + 2) !== 0x30) return false;",
    ],
    ["accepts -0", "!(leadingZero && (digits > 1 || first > at))", "!(leadingZero && digits > 1)"],
    ["accepts integers past 2^53", "digits <= 15", "digits <= 20"],
    ["accepts 1.0 for 1", "c !== 0x2e &&", ""],
    ["does not look for lone surrogates", "if (!wellFormed && !isWellFormed(text)) return -1;", ""],
    [
      "accepts white space after a value",
      "if (after !== (inArray ? 0x5d : 0x7d)) return -1;",
      "if (after === 0x20) {\n        i++;\n        continue;\n      }\n      if (after !== (inArray ? 0x5d : 0x7d)) return -1;",
    ],
    [
      "accepts anything after the value",
      "if (depth === 0) return i === length ? deepest : -1;",
      "if (depth === 0) return deepest;",
    ],
    [
      "keeps a stale closing quote",
      "if (quote < from) quote = next(text, '\"', from);",
      "if (quote < 0) quote = next(text, '\"', from);",
    ],
  ];
  // The copy imports the modules the source imports, by their absolute paths.
  const source = readFileSync(join(repoRoot, "src/core/json/canonical.ts"), "utf8").replace(
    /from "(\.\.?\/[^"]+)\.js"/g,
    (_, relative: string) => `from ${JSON.stringify(join(repoRoot, "src/core/json", `${relative}.ts`))}`,
  );
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "canonical-mutants-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  test.each(mutations)("a shortcut that %s", async (mistake, from, to) => {
    expect(source.split(from).length, `the mutation "${mistake}" no longer applies: update it to the source`).toBe(2);
    const path = join(dir, `${mutations.findIndex(([m]) => m === mistake)}.ts`);
    await writeFile(path, source.replace(from, to));
    const mutant = (await import(path)) as { isCanonicalText: Shortcut };
    expect(caught(mutant.isCanonicalText)).toBe(true);
  });
});
