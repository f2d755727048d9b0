/**
 * The citation reader's source text, as the view page's script carries it (src/formatters/dataset-html.ts): the text of
 * `createCitationReader` as this build of it has it. The bundled command line's code is ASCII (its text has escapes for
 * characters beyond it, which Node decodes faster), so the function's own text there would show `\u00a7` for `§`: the
 * bundle (scripts/bundle-cli.js) puts the text of the same function as a UTF-8 build has it here instead, as a string,
 * whose value keeps every character, so that the page is the same.
 */
import { createCitationReader } from "./citation-reader.js";

export const CITATION_READER_SOURCE: string = createCitationReader.toString();
