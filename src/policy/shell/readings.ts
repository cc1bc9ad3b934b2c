// Every way a deny or ask rule may read one simple command. Allow rules match a command only
// as written (`CommandPart.text`); deny and ask rules match when ANY reading could match, so the
// usual disguises do not slip past them:
// - the command without its `FOO=1` prefixes;
// - a command name given as a path (`/bin/rm` is read as `rm` too);
// - from every place a program name stands: behind a wrapper (`timeout 5 rm …`, `sudo rm …`,
//   `xargs rm`, `env X=1 rm …`, `nice`, ...), after `find -exec`, ... (command-part.ts);
// - a word the shell computes or expands (`$x`, `r?`, `{a,b}`) stands for any text, so
//   `git $SUB` could be `git push` (shell/atoms.ts);
// - the script of `sh -c '…'` / `eval '…'` / a here-string fed to a shell, analysed as a command
//   line of its own (`nestedParts`).
import { matchBashPattern, patternShapes, squashSpaces, type BashPattern } from "../bash-pattern.js";
import { isLiteralShape, nullable, shapesMeet, shapeText, type Atom, type Shape } from "./atoms.js";
import type { CommandPart } from "./analyse.js";
import type { WordShape } from "./word-shape.js";

/** One reading: its text (a computed word shown as written), and its shape when some of it is not fixed. */
export interface Reading {
  text: string;
  shape?: Shape;
}

function basename(word: string): string {
  return word.includes("/") ? (word.split("/").pop() ?? word) : word;
}

const SPACE: Atom = { c: " " };

/** The words' shapes joined the way commands are compared: whitespace runs are one space. */
function joinShapes(shapes: WordShape[]): Atom[] {
  const out: Atom[] = [];
  shapes.forEach((s, i) => {
    if (i > 0 && !nullable(s.atoms) && !nullable(shapes[i - 1].atoms)) out.push(SPACE);
    for (const a of s.atoms) {
      const atom = a.c !== undefined && /\s/.test(a.c) ? SPACE : a;
      if (atom === SPACE && (out.length === 0 || out[out.length - 1] === SPACE)) continue;
      out.push(atom);
    }
  });
  while (out[out.length - 1] === SPACE) out.pop();
  return out;
}

function readingOf(words: string[], shapes: WordShape[]): Reading {
  const text = squashSpaces(words.join(" "));
  if (shapes.every((s) => s.literal !== undefined)) return { text };
  return { text, shape: joinShapes(shapes) };
}

/** Every reading of `part` (nested scripts excluded: see `nestedParts`). */
export function shapedReadings(part: CommandPart): Reading[] {
  const out = new Map<string, Reading>([[part.text, { text: part.text }]]);
  for (const at of part.programsAt) {
    const words = part.words.slice(at);
    const shapes = part.shapes.slice(at);
    const whole = readingOf(words, shapes);
    out.set(whole.text, whole);
    const name = words[0];
    if (shapes[0]?.literal !== undefined && name.includes("/")) {
      const base = basename(name);
      const r = readingOf([base, ...words.slice(1)], [{ literal: base, atoms: Array.from(base, (c) => ({ c })) }, ...shapes.slice(1)]);
      out.set(r.text, r);
    }
  }
  out.delete("");
  return [...out.values()];
}

/** The texts of every reading of `part`. */
export function readingsOf(part: CommandPart): string[] {
  return shapedReadings(part).map((r) => r.text);
}

/** Whether a rule's pattern matches the reading for certain (fixed text) or could match it (some of it computed). */
export function readingMatches(pattern: BashPattern, r: Reading): boolean {
  if (!r.shape || isLiteralShape(r.shape)) return matchBashPattern(pattern, r.shape ? shapeText(r.shape) : r.text);
  const shape = r.shape;
  return patternShapes(pattern).some((p) => shapesMeet(shape, p));
}

/** The parts of `sh -c` / `eval` scripts inside `part`, at any depth. */
export function nestedParts(part: CommandPart): CommandPart[] {
  if (!part.nested) return [];
  return part.nested.parts.flatMap((p) => [p, ...nestedParts(p)]);
}

/** The redirect targets of `sh -c` / `eval` scripts inside `part`, at any depth. */
export function nestedWrites(part: CommandPart): string[] {
  if (!part.nested) return [];
  return [...part.nested.writes, ...part.nested.parts.flatMap(nestedWrites)];
}
