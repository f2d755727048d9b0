/**
 * Start-up: a regular expression with a Unicode property class (`\p{L}`) costs V8 several milliseconds the first two
 * times it runs on a string stored two bytes a character (a slice of markdown that holds one character above U+00FF:
 * a dash, a quotation mark), as it builds the class over all of Unicode, and more with the `i` flag (bench/RESULTS.md,
 * "Start-up"). On text without such a character the classes below, the Latin-1 members of each property, match
 * exactly the same characters (test/latin1-classes.test.ts proves it against the `\p` form, for every character
 * U+0000–U+00FF and on generated text), in a pattern without the `u` flag, which V8 compiles in a fraction of the time.
 */

/** The Latin-1 members of `\p{L}` (letters), for a character class. */
export const LATIN1_LETTER = "A-Za-z\\xaa\\xb5\\xba\\xc0-\\xd6\\xd8-\\xf6\\xf8-\\xff";
/** The Latin-1 members of `\p{N}` (numbers): digits, superscripts, vulgar fractions. `\p{M}` has none below U+0300. */
export const LATIN1_NUMBER = "0-9\\xb2\\xb3\\xb9\\xbc-\\xbe";

const ABOVE_LATIN1 = /[^\0-\xff]/;

/**
 * A pattern made on first use: a `\p{…}` class costs V8 a look-up over all of Unicode as the pattern is made (0.2 to 1
 * ms a class at start-up: bench/RESULTS.md, "Start-up"), which a run on Latin-1 text, using the pattern's Latin-1 form
 * only, need not pay.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let pattern: T | undefined;
  return () => {
    pattern ??= make();
    return pattern;
  };
}

/** True when every character of `text` is at most U+00FF: a pattern written with the classes above then applies. */
export function isLatin1(text: string): boolean {
  return !ABOVE_LATIN1.test(text);
}
