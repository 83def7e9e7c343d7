/**
 * The bound a policy's Markdown is held to when it is saved (besides its
 * length, POLICY_MAX): how deep its lists and block quotes nest. A policy
 * needs two or three levels; thousands (a line of `>`) once overflowed the
 * renderer's stack and made /terms answer 500, and the renderer now stops
 * reading at its own nesting limit, which a saved policy must never reach
 * (policy-html.server.ts). No parser here: this runs in the browser too, and
 * on every save and import.
 */
export const MAX_POLICY_NESTING = 6;

const MARKER = /^(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/;

/**
 * How deep a line's lists and quotes go, at most: each `>` and list marker
 * before its text, and its indentation in steps of two columns (a nested
 * list's items sit under their parent's text, two columns in at least).
 * Never less than the real depth, so a text within the bound is within it.
 */
function lineNesting(line: string): number {
  let markers = 0;
  let indentation = 0;
  let at = 0;
  for (;;) {
    let run = 0;
    for (; at < line.length && (line[at] === " " || line[at] === "\t"); at++) run += line[at] === "\t" ? 4 : 1;
    // After a marker, the one space that ends it is not indentation.
    indentation += markers === 0 ? run : Math.max(0, run - 1);
    const marker = MARKER.exec(line.slice(at, at + 11));
    if (!marker) break;
    markers++;
    at += marker[0].length;
  }
  return markers + Math.floor(indentation / 2);
}

/** The deepest nesting of lists and quotes in a Markdown text, as lineNesting counts it. */
export function policyNesting(text: string): number {
  let deepest = 0;
  for (const line of text.split("\n")) deepest = Math.max(deepest, lineNesting(line));
  return deepest;
}
