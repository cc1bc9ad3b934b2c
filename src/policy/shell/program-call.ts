// One program invocation inside a simple command, and what the analysis learns about it: more
// places where a program name stands (after a wrapper such as `sudo`, after `find -exec`), shell
// scripts it runs (`sh -c '…'`, `eval`, a here-document fed to a shell), or why it may run
// anything at all ("opaque": the deny and ask rules could match whatever it runs).
import type { WordShape } from "./word-shape.js";

export interface ProgramCall {
  /** The command's words: the literal value, or the text as written when computed. */
  words: string[];
  shapes: WordShape[];
  /** Index of the program name in `words` (always a literal word). */
  at: number;
  /** The text on the program's standard input when it is fixed (a here-string or here-document on this command). */
  stdin?: string;
}

export interface ProgramFacts {
  /** More word indexes where a program name stands. */
  programsAt?: number[];
  /** Shell scripts the program runs, to be read as command lines of their own. */
  scripts?: string[];
  /** Why the program may run anything (undefined when it does not). */
  opaque?: string;
}

/** The program's base name (`/usr/bin/env` → `env`). */
export function programName(call: ProgramCall): string {
  const w = call.words[call.at];
  return w.slice(w.lastIndexOf("/") + 1);
}

/** The literal value of word `i`, or undefined when computed or out of range. */
export function literalAt(call: ProgramCall, i: number): string | undefined {
  return call.shapes[i]?.literal;
}

/** Indexes of the program's arguments. */
export function argIndexes(call: ProgramCall): number[] {
  const out: number[] = [];
  for (let i = call.at + 1; i < call.words.length; i++) out.push(i);
  return out;
}

/** Every index after the program name: each may be where a wrapped program's name stands. */
export function everyTail(call: ProgramCall): number[] {
  return argIndexes(call);
}

/** True when the word at `i` is a short-option cluster (`-xvc`) holding one of `letters`, or equals one of `exact`. */
export function hasFlag(call: ProgramCall, i: number, exact: readonly string[], letters = ""): boolean {
  const w = literalAt(call, i);
  if (w === undefined) return false;
  if (exact.some((f) => w === f || (f.startsWith("--") && w.startsWith(`${f}=`)))) return true;
  return letters !== "" && /^-[A-Za-z0-9]+$/.test(w) && [...w.slice(1)].some((c) => letters.includes(c));
}

/** The first argument index holding such a flag, or -1. */
export function findFlag(call: ProgramCall, exact: readonly string[], letters = ""): number {
  return argIndexes(call).find((i) => hasFlag(call, i, exact, letters)) ?? -1;
}

/** True when an argument is computed (its text is not known before it runs). */
export function anyComputedArg(call: ProgramCall): boolean {
  return argIndexes(call).some((i) => literalAt(call, i) === undefined);
}

/** Standard input that is not the fixed text of a here-string or here-document. */
export const STDIN_NOTE = "its standard input, which pith cannot read";

/** `-` and the device files that name standard input or an open descriptor. */
export function namesStdin(path: string): boolean {
  return path === "-" || /^\/dev\/(stdin|fd\/\d+)$/.test(path) || /^\/proc\/[^/]+\/fd\/\d+$/.test(path);
}
