/**
 * The local coordinates of one artifact's headings (docs/spec.md, "Local coordinate"), from the designation of each
 * (designation.ts). The strategy is "kind-aware" (docs/spec.md, "Local coordinate: scope"): articles and sections are
 * flat, a § inside an article is qualified by it, structural units carry the chain of their enclosing units, numbered
 * items, empty headings and the undesignated headings of annexes are qualified by the designated heading they belong
 * to, a repeated undesignated heading of the body by its provision or unit, and a repeat that no rule separates gets a
 * `~N` tie-break last.
 */
import { TOP_LOCAL } from "./address.js";
import {
  type Designation,
  designate,
  designationText,
  isEmptyHeading,
  isRepealedHeading,
  MAX_SLUG_LENGTH,
  slugify,
} from "./designation.js";

export interface HeadingInput {
  text: string;
  depth: number;
}

interface Scope {
  /** The local as emitted (with its tie-break, if it needed one). */
  local: string;
  depth: number;
}

/**
 * `${scope}/${own}` with the scope's tie-break dropped (a `~N` is allowed only at the end of a local; "Ties" resolves
 * what then repeats), or undefined without a scope.
 */
function under(scope: string | undefined, own: string): string | undefined {
  return scope === undefined ? undefined : `${scope.replace(/~[0-9]+$/, "")}/${own}`;
}

/**
 * The local coordinate of each target of one artifact, in order. `headings[i]` is the heading that
 * opens target i, or undefined for the text before the first heading. Every local depends only on
 * its own heading and the headings before it (docs/spec.md, "Local coordinate: scope").
 */
export function assignLocalCoordinates(headings: (HeadingInput | undefined)[]): string[] {
  const units: { word: string; key: string; depth: number; local: string }[] = [];
  let annex: (Scope & { key: string; qualifies: boolean }) | undefined;
  // Built by push from a literal, as the other arrays here: of one elements kind whatever the artifact (an array of
  // another kind met costs the compiled code a deoptimisation: bench/RESULTS.md, "Units").
  const designations: (Designation | undefined)[] = [];
  for (const heading of headings) designations.push(heading === undefined ? undefined : designate(heading.text));
  /**
   * An annex qualifies the articles, §§ and sections in it, so that none can take the address of one
   * of the body deleted outright. Except the artifact's own subject: an annex that is the artifact's
   * first heading and its only annex (a file that is a schedule) keeps them flat.
   */
  const firstHeading = headings.findIndex((heading) => heading !== undefined);
  const annexes = headings.filter(
    (heading, i) => heading !== undefined && designations[i]?.kind === "annex" && !isRepealedHeading(heading.text),
  ).length;
  const subjectAnnex =
    firstHeading !== -1 && designations[firstHeading]?.kind === "annex" && annexes === 1 ? firstHeading : -1;
  let article: string | undefined;
  /** The open article as the provision it opened: the scope again when a § inside it closes before an item. */
  let articleProvision: (Scope & { raw: string; german: boolean }) | undefined;
  let provision: (Scope & { raw: string; german: boolean }) | undefined;
  const items: { rank: number; key: string; depth: number }[] = [];
  let lastDesignated: string | undefined;
  let previous: { local: string; depth: number; bare: boolean } | undefined;
  // Rule 6.4: the slugs of undesignated headings that occur more than once in the artifact (every occurrence is
  // qualified).
  const slugCount = new Map<string, number>();
  for (const [i, heading] of headings.entries()) {
    const d = designations[i];
    if (heading === undefined || d === undefined || isEmptyHeading(heading.text)) continue;
    if (d.kind === "none") slugCount.set(d.key, (slugCount.get(d.key) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  /** The local of each target before ties are resolved, and the open unit or annex it was emitted in (resolveTies). */
  const raws: string[] = [];
  const scopes: (string | undefined)[] = [];
  const emit = (local: string) => {
    raws.push(local);
    const count = (seen.get(local) ?? 0) + 1;
    seen.set(local, count);
    return count === 1 ? local : `${local}~${count}`;
  };
  /** The innermost designated scope in document order: the open provision, else the innermost open unit or annex. */
  const context = () => provision?.local ?? (units.length > 0 ? units[units.length - 1]!.local : undefined);

  headings.forEach((heading, index) => {
    if (heading === undefined) {
      emit(TOP_LOCAL);
      return;
    }
    const d = designations[index]!;
    const unitScope = units.length > 0 ? units[units.length - 1]!.local : undefined;
    scopes[raws.length] =
      d.kind === "article" || d.kind === "paragraph" || d.kind === "section" ? unitScope : undefined;
    let local: string;
    switch (d.kind) {
      case "annex":
        local = emit(d.key);
        units.length = 0;
        if (isRepealedHeading(heading.text)) {
          // `Anlage 2 (weggefallen)` between § 2 and § 3: a place holder, which opens no annex and captures nothing
          // after it.
          annex = undefined;
        } else {
          units.push({ word: d.word!, key: d.key, depth: heading.depth, local });
          annex = { local, depth: heading.depth, key: d.key, qualifies: index !== subjectAnnex };
        }
        article = undefined;
        provision = undefined;
        items.length = 0;
        break;
      case "unit": {
        const same = units.findIndex((u) => u.word === d.word);
        if (same !== -1) units.length = same;
        // An annex stays open until the next annex, whatever the heading levels say.
        while (
          units.length > 0 &&
          units[units.length - 1]!.depth >= heading.depth &&
          !(annex !== undefined && units.length === 1)
        )
          units.pop();
        local = emit(keysThen(units, d.key));
        units.push({ word: d.word!, key: d.key, depth: heading.depth, local });
        article = undefined;
        provision = undefined;
        items.length = 0;
        break;
      }
      case "section":
      case "article":
      case "paragraph": {
        if (d.kind === "section" && provision?.german) {
          // A numbered paragraph (`1.1`, `2.3.1 …`) inside a § or an article is an item of it.
          local = emit(under(provision.local, d.key) ?? d.key);
          items.length = 0;
          break;
        }
        let raw = d.key;
        if (d.kind === "paragraph" && article !== undefined) raw = `${article}/${d.key}`;
        else if (annex?.qualifies) raw = `${annex.key}/${d.key}`;
        if (d.kind === "article") article = raw;
        local = emit(raw);
        provision = { local, depth: heading.depth, raw, german: d.kind !== "section" };
        if (d.kind === "article") articleProvision = provision;
        items.length = 0;
        break;
      }
      case "item": {
        // An item on a shallower heading level than the open provision is no part of it: `## II. Der Bund und die
        // Länder` after `### Art 19` of the Grundgesetz is a chapter of the law, a sibling of `## I. Die Grundrechte`,
        // not `art-19/ii` (which an article inserted before it would move). The provision closes with its items; a §
        // inside an article gives the scope back to the article, unless the item is shallower than that too, which
        // closes it (so `I.` after `Art 1` is `art-1/i` whether or not a deeper § came between them). Levels are
        // trusted only this far: an item on the provision's level or below it nests by its rank, as before.
        if (provision !== undefined && heading.depth < provision.depth) {
          items.length = 0;
          const inArticle = article !== undefined && articleProvision !== undefined && provision !== articleProvision;
          if (inArticle && heading.depth >= articleProvision!.depth) provision = articleProvision;
          else {
            provision = undefined;
            article = undefined;
          }
        }
        while (items.length > 0 && items[items.length - 1]!.rank >= d.rank!) items.pop();
        const chain = keysThen(items, d.key);
        local = emit(under(context(), chain) ?? chain);
        items.push({ rank: d.rank!, key: d.key, depth: heading.depth });
        break;
      }
      case "none": {
        const slug = d.key;
        if (isEmptyHeading(heading.text)) {
          // An empty heading is named after the designated heading it follows.
          local = emit(under(lastDesignated, "heading") ?? "heading");
          break;
        }
        let raw: string | undefined;
        if (previous?.bare && previous.depth === heading.depth) raw = under(previous.local, slug);
        if (raw === undefined && provision !== undefined && provision.depth < heading.depth)
          raw = `${provision.raw}/${slug}`;
        if (raw === undefined && (annex !== undefined || (slugCount.get(slug) ?? 0) > 1)) {
          raw = under(context(), keysThen(items, slug, heading.depth));
        }
        local = emit(raw ?? slug);
        break;
      }
    }
    if (d.kind !== "none") lastDesignated = local;
    // A bare § , article, section or item scopes a title heading that follows it on the same level.
    previous = {
      local,
      depth: heading.depth,
      bare: d.kind !== "none" && d.kind !== "unit" && d.kind !== "annex" && d.bare === true,
    };
  });
  return resolveTies(headings, raws, scopes);
}

/**
 * The keys of `open` (those above `depth`, when given) and `last`, joined by `/`: made without spreading arrays, whose
 * element kinds vary from heading to heading (each new kind met costs the compiled code a deoptimisation: bench/
 * RESULTS.md, "Units").
 */
function keysThen(
  open: readonly { key: string; depth: number }[],
  last: string,
  depth = Number.POSITIVE_INFINITY,
): string {
  let chain = "";
  for (let i = 0; i < open.length; i++) if (open[i]!.depth < depth) chain += `${open[i]!.key}/`;
  return chain + last;
}

/**
 * A heading's identity for ties: its plain text (as designations read it) and that of its ancestor headings in the
 * artifact (docs/spec.md, "Ties").
 */
function identities(headings: (HeadingInput | undefined)[]): { text: string; ancestors: string[]; key: string }[] {
  const open: { text: string; depth: number }[] = [];
  return headings.map((heading) => {
    if (heading === undefined) return { text: "", ancestors: [], key: "" };
    while (open.length > 0 && open[open.length - 1]!.depth >= heading.depth) open.pop();
    const text = designationText(heading.text);
    const ancestors: string[] = [];
    for (let i = 0; i < open.length; i++) ancestors.push(open[i]!.text);
    open.push({ text, depth: heading.depth });
    return { text, ancestors, key: ancestors.length === 0 ? text : `${text}\u0000${ancestors.join("\u0000")}` };
  });
}

/**
 * Resolves the locals that several targets of one artifact share (docs/spec.md, "Ties"), shortest first. When all of
 * them are truly identical (the same heading text and the same ancestor headings), the second and later get a
 * positional `~N`. When they are not, every one of them gets the first of these forms that no other of them has: a
 * flat provision qualified by the unit it stands in (`livre-ii/titre-ii/chapitre-i/art-unique`), its title after a `~`
 * (`art-5~procédure`), or its ancestor headings from the innermost outwards (`art-1~übergangsbestimmungen-…`);
 * identical ones among them then take `~N`. The locals below a resolved one (`teil-1/…`) follow their owner, the
 * nearest member of its group before them. A local that still repeats after all this gets `~N`.
 */
function resolveTies(headings: (HeadingInput | undefined)[], raws: string[], scopes: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raws.length; i++) out.push(raws[i]!);
  let ids: ReturnType<typeof identities> | undefined;
  // Its segments: one more than its slashes (counted, not split: this runs for every local at every depth).
  const depthOf = (local: string) => {
    let depth = 1;
    for (let at = local.indexOf("/"); at !== -1; at = local.indexOf("/", at + 1)) depth++;
    return depth;
  };
  let maxDepth = 0; // a loop, not Math.max(...list): a spread of a million arguments overflows the stack
  for (const raw of raws) maxDepth = Math.max(maxDepth, depthOf(raw));
  for (let level = 1; level <= maxDepth; level++) {
    const groups = new Map<string, number[]>();
    out.forEach((raw, i) => {
      if (depthOf(raw) !== level) return;
      const group = groups.get(raw);
      if (group) group.push(i);
      else groups.set(raw, [i]);
    });
    for (const [raw, members] of groups) {
      if (members.length < 2) continue;
      ids ??= identities(headings);
      const distinct = new Map<string, number>();
      for (const i of members) if (!distinct.has(ids[i]!.key)) distinct.set(ids[i]!.key, i);
      const resolved = distinct.size === 1 ? undefined : tellApart(raw, ids, scopes, [...distinct.values()]);
      const count = new Map<string, number>();
      for (const i of members) {
        const local = resolved === undefined ? raw : resolved.get(ids[i]!.key)!;
        const n = (count.get(local) ?? 0) + 1;
        count.set(local, n);
        out[i] = n === 1 ? local : `${local}~${n}`;
      }
      if (resolved === undefined) continue;
      // The locals below a resolved one follow their owner: the nearest member before them. Below an owner that took a
      // `~N` (a truly identical sibling), its local without the `~N`, the form its twins share (a `~N` may only end a
      // local; the last resort below tells their locals apart): never the group's plain local, which a target of
      // another identity had before (docs/spec.md, rule 3).
      let next = 0;
      for (let j = 0; j < out.length; j++) {
        while (next < members.length && members[next]! < j) next++;
        if (!out[j]!.startsWith(`${raw}/`)) continue;
        const owner = next === 0 ? undefined : members[next - 1];
        if (owner !== undefined) out[j] = out[owner]!.replace(/~[0-9]+$/, "") + out[j]!.slice(raw.length);
      }
    }
  }
  // The last resort, for a resolved local that meets another one: document order.
  const seen = new Map<string, number>();
  // Built by push from a literal: of one elements kind, none or many (`map` gave an artifact without targets another).
  const locals: string[] = [];
  for (const local of out) {
    const n = (seen.get(local) ?? 0) + 1;
    seen.set(local, n);
    locals.push(n === 1 ? local : `${local}~${n}`);
  }
  return locals;
}

/**
 * For one representative of each identity in a group of non-identical targets with one local: the first form that no
 * other has.
 */
function tellApart(
  raw: string,
  ids: { text: string; ancestors: string[]; key: string }[],
  scopes: (string | undefined)[],
  representatives: number[],
): Map<string, string> {
  const noDigits = (part: string) => (/^[0-9]+$/.test(part) ? `n${part}` : part);
  const title = (i: number) => {
    const d = designate(ids[i]!.text);
    const rest = (d.rest ?? "").trim();
    // An undesignated heading's text is its local already: it has no title apart from it.
    return rest === "" || d.kind === "none" ? undefined : noDigits(slugify(rest, widths.get(i) ?? MAX_SLUG_LENGTH));
  };
  // Titles whose cut slugs collide are slugged uncut.
  const widths = new Map<number, number>();
  const cut = new Map<string, number>();
  for (const i of representatives) {
    const slug = slugify(designate(ids[i]!.text).rest ?? "");
    cut.set(slug, (cut.get(slug) ?? 0) + 1);
  }
  for (const i of representatives)
    if ((cut.get(slugify(designate(ids[i]!.text).rest ?? "")) ?? 0) > 1) widths.set(i, Number.POSITIVE_INFINITY);
  // A loop, not Math.max(...list): a spread of a million arguments overflows the stack.
  let maxK = Number.NEGATIVE_INFINITY;
  for (const i of representatives) maxK = Math.max(maxK, ids[i]!.ancestors.length);
  /** Stage 0: the unit scope; 1: the title; then k = 1, 2, … ancestors (keys, then full slugs) and the title. */
  const forms = (i: number): (string | undefined)[] => {
    const id = ids[i]!;
    const scope = scopes[i];
    const list: (string | undefined)[] = [scope === undefined || scope.includes("~") ? undefined : `${scope}/${raw}`];
    const own = title(i);
    list.push(own === undefined ? undefined : `${raw}~${own}`);
    for (let k = 1; k <= maxK; k++) {
      for (const full of [false, true]) {
        const parts: string[] = own === undefined ? [] : [own];
        for (let j = 1; j <= k; j++) {
          const ancestor = id.ancestors[id.ancestors.length - j];
          parts.unshift(
            ancestor === undefined
              ? "top"
              : noDigits(full ? slugify(designationText(ancestor)) : designate(ancestor).key),
          );
        }
        list.push(`${raw}~${parts.join("~")}`);
      }
    }
    return list;
  };
  /**
   * The form a target has by itself, whoever its siblings are: the unit it stands in when its innermost ancestor
   * heading is designated (or it has none), else that ancestor's slug (`art-1~übergangsbestimmungen-…`), else its
   * title. A sibling inserted or deleted then changes it only when the two would have the same one.
   */
  const own = (i: number): string | undefined => {
    const id = ids[i]!;
    const inner = id.ancestors[id.ancestors.length - 1];
    const designated = inner === undefined || designate(inner).kind !== "none";
    const scope = scopes[i];
    if (designated && scope !== undefined && !scope.includes("~")) return `${scope}/${raw}`;
    if (!designated) return `${raw}~${noDigits(slugify(designationText(inner!)))}`;
    const t = title(i);
    return t === undefined ? undefined : `${raw}~${t}`;
  };
  const owns = new Map(representatives.map((i) => [i, own(i)]));
  const ownCount = new Map<string, number>();
  for (const form of owns.values()) if (form !== undefined) ownCount.set(form, (ownCount.get(form) ?? 0) + 1);
  const taken = new Set([...owns.values()].filter((form) => form !== undefined && ownCount.get(form) === 1));
  const all = new Map(representatives.map((i) => [i, forms(i)]));
  // How many representatives have each form at each stage: a form is unique where it counts 1.
  const counts = new Map<string, number>();
  for (const list of all.values())
    for (const [stage, form] of list.entries())
      if (form !== undefined) counts.set(`${stage}\u0000${form}`, (counts.get(`${stage}\u0000${form}`) ?? 0) + 1);
  const chosen = new Map<string, string>();
  for (const i of representatives) {
    const form = owns.get(i);
    if (form !== undefined && ownCount.get(form) === 1) {
      chosen.set(ids[i]!.key, form);
      continue;
    }
    const mine = all.get(i)!;
    const stage = mine.findIndex(
      (form, s) => form !== undefined && counts.get(`${s}\u0000${form}`) === 1 && !taken.has(form),
    );
    // Titles that a cut slug cannot tell apart: the slug of the whole text, uncut (then, for texts that differ only in
    // case or punctuation, position).
    chosen.set(
      ids[i]!.key,
      stage === -1
        ? `${raw}~${noDigits(slugify(designationText(ids[i]!.text), Number.POSITIVE_INFINITY))}`
        : mine[stage]!,
    );
  }
  return chosen;
}
