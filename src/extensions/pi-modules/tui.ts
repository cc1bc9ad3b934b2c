// What an extension gets when it imports pi's TUI package (`@earendil-works/pi-tui`,
// `@mariozechner/pi-tui`) in pith: the components, text helpers and key names, working without a
// terminal. Key input never arrives (pith has no keyboard), so key matching only answers for the
// byte sequences an extension passes itself.
export * from "./tui-components.js";
export { stripTerminalSequences, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "./tui-text.js";

const NAMED = [
  "escape", "esc", "enter", "return", "tab", "space", "backspace", "delete", "insert", "clear", "home", "end",
  "pageUp", "pageDown", "up", "down", "left", "right",
  ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
];
const mods = (...names: string[]) => (key: string) => `${names.join("+")}+${key}`;

/** pi's `Key` helper: key ids such as `"enter"` or `"ctrl+c"`. */
export const Key: Record<string, string | ((key: string) => string)> = {
  ...Object.fromEntries(NAMED.map((n) => [n, n])),
  ctrl: mods("ctrl"),
  shift: mods("shift"),
  alt: mods("alt"),
  super: mods("super"),
  ctrlShift: mods("ctrl", "shift"),
  shiftCtrl: mods("shift", "ctrl"),
  ctrlAlt: mods("ctrl", "alt"),
  altCtrl: mods("alt", "ctrl"),
  shiftAlt: mods("shift", "alt"),
  altShift: mods("alt", "shift"),
};

const SEQUENCES: Record<string, string[]> = {
  enter: ["\r", "\n"],
  return: ["\r", "\n"],
  escape: ["\x1b"],
  esc: ["\x1b"],
  tab: ["\t"],
  space: [" "],
  backspace: ["\x7f", "\b"],
  up: ["\x1b[A", "\x1bOA"],
  down: ["\x1b[B", "\x1bOB"],
  right: ["\x1b[C", "\x1bOC"],
  left: ["\x1b[D", "\x1bOD"],
  home: ["\x1b[H", "\x1b[1~"],
  end: ["\x1b[F", "\x1b[4~"],
  delete: ["\x1b[3~"],
  pageUp: ["\x1b[5~"],
  pageDown: ["\x1b[6~"],
};

/** The key id `data` stands for (`"enter"`, `"ctrl+c"`, `"a"`), when it is a plain key sequence. */
export function parseKey(data: string): string | undefined {
  for (const [name, seqs] of Object.entries(SEQUENCES)) if (seqs.includes(data)) return name;
  if (data.length === 1) {
    const code = data.charCodeAt(0);
    if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
    return data;
  }
  return undefined;
}

/** Whether `data` is the key `keyId` (`"enter"`, `"ctrl+c"`, `"x"`). */
export function matchesKey(data: string, keyId: string): boolean {
  const parsed = parseKey(data);
  return parsed !== undefined && parsed.toLowerCase() === String(keyId).toLowerCase();
}

/** Key releases only exist in the kitty keyboard protocol, which pith never enables. */
export function isKeyRelease(_data: string): boolean {
  return false;
}
export function isKeyRepeat(_data: string): boolean {
  return false;
}
export function isKittyProtocolActive(): boolean {
  return false;
}

/** Items whose text contains every character of `query` in order, best (shortest span) first. */
export function fuzzyFilter<T>(items: T[], query: string, getText: (item: T) => string): T[] {
  const q = query.toLowerCase().replace(/\s+/g, "");
  if (q === "") return items;
  const scored: Array<{ item: T; score: number }> = [];
  for (const item of items) {
    const text = getText(item).toLowerCase();
    let at = -1;
    let first = -1;
    for (const ch of q) {
      at = text.indexOf(ch, at + 1);
      if (at < 0) break;
      if (first < 0) first = at;
    }
    if (at >= 0) scored.push({ item, score: at - first });
  }
  return scored.sort((a, b) => a.score - b.score).map((s) => s.item);
}

/** No terminal: no inline images, no true colour, no hyperlinks. */
export function getCapabilities(): { images: null; trueColor: boolean; hyperlinks: boolean } {
  return { images: null, trueColor: false, hyperlinks: false };
}
export function deleteKittyImage(_id: number): string {
  return "";
}
export function deleteAllKittyImages(): string {
  return "";
}
export function hyperlink(text: string, _url: string): string {
  return text;
}
