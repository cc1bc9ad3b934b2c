// Locating the text to replace: exact first, then a length-preserving normalised match
// (smart quotes, unicode dashes and spaces folded to ASCII) so offsets map back 1:1.

const QUOTES_SINGLE = /[\u2018\u2019\u201A\u201B\u2032]/g;
const QUOTES_DOUBLE = /[\u201C\u201D\u201E\u201F\u2033]/g;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g;
const SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Same length as the input: every replaced character is one UTF-16 unit on both sides. */
export function foldForMatch(text: string): string {
  return text.replace(QUOTES_SINGLE, "'").replace(QUOTES_DOUBLE, '"').replace(DASHES, "-").replace(SPACES, " ");
}

function allIndexes(haystack: string, needle: string): number[] {
  const out: number[] = [];
  let i = haystack.indexOf(needle);
  while (i !== -1) {
    out.push(i);
    i = haystack.indexOf(needle, i + needle.length);
  }
  return out;
}

export type MatchResult = { kind: "found"; index: number; length: number } | { kind: "none" } | { kind: "many"; count: number };

/** Where `oldText` occurs in `content` (exact, else folded). */
export function findUnique(content: string, oldText: string): MatchResult {
  let hits = allIndexes(content, oldText);
  if (hits.length === 0) hits = allIndexes(foldForMatch(content), foldForMatch(oldText));
  if (hits.length === 0) return { kind: "none" };
  if (hits.length > 1) return { kind: "many", count: hits.length };
  return { kind: "found", index: hits[0], length: oldText.length };
}
