// JSON text made piece by piece, for values that hold a very big string (a 50 MiB tool result):
// joined, the pieces are exactly JSON.stringify(value), but no piece is longer than about
// PIECE units, so writing the text never needs a second whole copy of the payload in memory.
//
// How: the value is serialised once with each string of at least BIG_STRING units replaced by a
// placeholder (a per-process random token no ordinary string contains); the text between the
// placeholders is yielded as it is, each big string escaped slice by slice. JSON escaping works
// character by character, so escaped slices joined equal the escaped whole, as long as no slice
// ends between the two halves of a surrogate pair (they never do here).

/** A string at least this long is escaped in slices instead of as one piece. */
export const BIG_STRING = 256 * 1024;
/** Slice length (UTF-16 units) of a big string; escaped, a piece is at most about six times that. */
const PIECE = 64 * 1024;

const NONCE = `\u0000pith-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}-`;
const TOKEN = new RegExp(`"${JSON.stringify(NONCE).slice(1, -1).replace(/\\/g, "\\\\")}(\\d+)\\\\u0000"`, "g");

/** True when `value` holds a string of at least BIG_STRING units (a walk over its objects and arrays). */
export function holdsBigString(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.length >= BIG_STRING;
  if (value === null || typeof value !== "object" || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => holdsBigString(v, depth + 1));
  for (const key in value) if (holdsBigString((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/** JSON.stringify(value) as pieces (see the file comment); `undefined` gives no piece, as JSON.stringify gives none. */
export function* jsonPieces(value: unknown): Generator<string> {
  const big: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" && v.length >= BIG_STRING ? `${NONCE}${big.push(v) - 1}\u0000` : v));
  if (text === undefined) return;
  let from = 0;
  for (const match of text.matchAll(TOKEN)) {
    if (match.index > from) yield text.slice(from, match.index);
    yield* escapedSlices(big[Number(match[1])]);
    from = match.index + match[0].length;
  }
  if (from < text.length) yield from === 0 ? text : text.slice(from);
}

/** `"…"`: the JSON string of `s`, slice by slice. */
function* escapedSlices(s: string): Generator<string> {
  yield '"';
  for (let at = 0; at < s.length; ) {
    const end = sliceEnd(s, at, PIECE);
    yield JSON.stringify(s.slice(at, end)).slice(1, -1);
    at = end;
  }
  yield '"';
}

/** Where a slice of at most about `max` units starting at `from` ends: never between the two halves of a surrogate pair. */
export function sliceEnd(s: string, from: number, max: number): number {
  const end = Math.min(s.length, from + max);
  if (end >= s.length) return s.length;
  const last = s.charCodeAt(end - 1);
  const next = s.charCodeAt(end);
  return last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? end + 1 : end;
}
