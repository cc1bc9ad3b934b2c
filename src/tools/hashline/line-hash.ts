// Line hashes of hashline mode: xxHash32 of the trimmed line, seeded with the
// line number when the line has no letter or digit, low byte as two letters of NIBBLES.
// xxhash-wasm is loaded on first use, so startup does not compile its WebAssembly.

/** The 16 letters a hash nibble renders as. */
export const NIBBLES = "ZPMQVRWSNKTXJBYH";

const PAIRS = Array.from({ length: 256 }, (_, i) => `${NIBBLES[i >>> 4]}${NIBBLES[i & 0x0f]}`);
const SIGNIFICANT = /[\p{L}\p{N}]/u;

/** Hash of line `lineNumber` (1-based) with text `line` (no trailing newline), e.g. "QV". */
export type LineHasher = (lineNumber: number, line: string) => string;

let loading: Promise<LineHasher> | undefined;

/** The line hasher, created once per process on first use. */
export function loadLineHasher(): Promise<LineHasher> {
  loading ??= import("xxhash-wasm").then(async (mod) => {
    const { h32 } = await mod.default();
    return (lineNumber: number, line: string): string => {
      const text = line.replace(/\r/g, "").trimEnd();
      const seed = SIGNIFICANT.test(text) ? 0 : lineNumber;
      return PAIRS[h32(text, seed) & 0xff];
    };
  });
  return loading;
}

/** `N#HH:<text>` for each line, numbered from `first`, joined by newlines. */
export function formatHashLines(hash: LineHasher, lines: readonly string[], first = 1): string {
  return lines.map((line, i) => `${first + i}#${hash(first + i, line)}:${line}`).join("\n");
}
