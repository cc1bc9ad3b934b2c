// One simple command as the rules judge it: its words (with their shapes), where program names
// stand in it (the command name, and after wrappers, `find -exec`, ...), the shell scripts it
// runs, and why it may run anything (opaque).
import { squashSpaces } from "../bash-pattern.js";
import { programFacts } from "./programs.js";
import { literalValue, type SyntaxNode } from "./syntax-node.js";
import { wordShape, type WordShape } from "./word-shape.js";

export interface CommandPart {
  /** The command as written, assignments first, words unquoted, one space between: what allow rules match. */
  text: string;
  /** Name and arguments (unquoted when literal, as written when computed). */
  words: string[];
  /** `FOO=1` prefixes, as written. */
  assignments: string[];
  /** Indexes of the words that are computed (`$x`, `$(…)`, ...), kept as written. */
  computed: number[];
  /** Each word's shape: fixed text, or what a glob or expansion may put there. */
  shapes: WordShape[];
  /** Indexes of the words where a program name stands: 0, and after wrappers (`sudo rm`), `find -exec`, `xargs`. */
  programsAt: number[];
  /** Why this command may run any program (a computed or glob command name, `python -c`, an alias, ...). */
  opaque?: string;
  /** Shell scripts the command runs (`sh -c '…'`, `eval '…'`, a here-string fed to a shell), before they are analysed. */
  scripts: string[];
  /** Those scripts' own analysis (deny and ask rules look inside). */
  nested?: ShellAnalysis;
}

/** A command line read by shell/analyse.ts. */
export interface ShellAnalysis {
  parts: CommandPart[];
  /** Files written by output redirections (`>`, `>>`, `&>`, `>|`, `<>`), as written, `/dev/null` and the like left out. */
  writes: string[];
  /** Why the command cannot be read with confidence; undefined when it can. */
  unsure?: string;
  /** Why some part of the command may run any program; undefined when every program it runs is named. */
  opaque?: string;
}

/** A part from syntax nodes (`stdin`: the fixed text on its standard input, when it has one). */
export function makePart(assignments: string[], nodes: SyntaxNode[], stdin?: string): CommandPart {
  const shapes = nodes.map(wordShape);
  const words = shapes.map((s, i) => s.literal ?? nodes[i].text());
  const computed = nodes.flatMap((n, i) => (literalValue(n) === undefined ? [i] : []));
  const part: CommandPart = {
    text: squashSpaces([...assignments, ...words].join(" ")),
    words,
    assignments,
    computed,
    shapes,
    programsAt: [],
    scripts: [],
  };
  follow(part, stdin);
  return part;
}

/** Finds every program the command starts, from the command name on. */
function follow(part: CommandPart, stdin: string | undefined): void {
  const queue = [0];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const at = queue.shift() as number;
    if (seen.has(at) || at >= part.words.length) continue;
    seen.add(at);
    part.programsAt.push(at);
    if (part.shapes[at].literal === undefined) {
      part.opaque ??= `a command name that is computed or a pattern: \`${snippet(part.words[at])}\``;
      continue;
    }
    const facts = programFacts({ words: part.words, shapes: part.shapes, at, stdin });
    queue.push(...(facts.programsAt ?? []));
    part.scripts.push(...(facts.scripts ?? []));
    if (facts.opaque) part.opaque ??= facts.opaque;
  }
  part.programsAt.sort((a, b) => a - b);
}

export function snippet(text: string): string {
  const t = squashSpaces(text);
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}
