// Text measuring for the headless stand-in of pi's TUI package: terminal escape sequences take no
// column, wide (East Asian, emoji) characters take two, every other character one.

// eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** `text` without terminal escape sequences (colours, hyperlinks, cursor moves). */
export function stripTerminalSequences(text: string): string {
  return text.replace(ESCAPES, "");
}

function charWidth(code: number): number {
  if (code === 0 || (code < 32 && code !== 9) || (code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd);
  return wide ? 2 : 1;
}

/** Columns `text` takes in a terminal. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const ch of stripTerminalSequences(text)) width += ch === "\t" ? 3 : charWidth(ch.codePointAt(0) ?? 0);
  return width;
}

/** `text` cut to `maxWidth` columns, ending in `ellipsis` when cut; padded with spaces when `pad`. */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
  const plain = stripTerminalSequences(text);
  const full = visibleWidth(plain);
  if (full <= maxWidth) return pad ? plain + " ".repeat(Math.max(0, maxWidth - full)) : text;
  const room = Math.max(0, maxWidth - visibleWidth(ellipsis));
  let out = "";
  let used = 0;
  for (const ch of plain) {
    const w = charWidth(ch.codePointAt(0) ?? 0);
    if (used + w > room) break;
    out += ch;
    used += w;
  }
  const cut = out + (maxWidth >= visibleWidth(ellipsis) ? ellipsis : "");
  return pad ? cut + " ".repeat(Math.max(0, maxWidth - visibleWidth(cut))) : cut;
}

/** Word-wraps `text` (each of its lines) to `width` columns; a word longer than a line is split. */
export function wrapTextWithAnsi(text: string, width: number): string[] {
  const limit = Math.max(1, Math.floor(width));
  const out: string[] = [];
  for (const line of stripTerminalSequences(text).split("\n")) {
    let current = "";
    for (const word of line.split(/(\s+)/)) {
      if (word === "") continue;
      if (visibleWidth(current + word) <= limit) {
        current += word;
        continue;
      }
      if (current.trim() !== "") out.push(current.trimEnd());
      current = /^\s+$/.test(word) ? "" : word;
      while (visibleWidth(current) > limit) {
        const head = truncateToWidth(current, limit, "");
        out.push(head);
        current = current.slice(head.length);
      }
    }
    out.push(current.trimEnd());
  }
  return out;
}
