// The specifier of a `bash(...)` rule, matched against ONE simple command (a compound command
// is split first, see shell/analyse.ts). Claude Code's three forms:
// - exact:    `bash(npm test)` matches `npm test` only;
// - prefix:   `bash(git status:*)` matches `git status` and `git status <anything>`, never
//             `git statusx` (the prefix ends at a word boundary);
// - wildcard: `*` anywhere stands for any text (`bash(git * main)`, `bash(* --version)`);
//             `\*` is a literal star. A trailing ` *` also matches the bare command
//             (`bash(ls *)` matches `ls` and `ls -la`, not `lsof`); `bash(ls*)` matches `lsof` too.
// `bash(*)` matches every command, like a bare `bash`.
// Whitespace runs count as one space on both sides. Matching walks shapes (shell/atoms.ts), never a
// backtracking regular expression, so no rule can hold the process.
import { literalShape, shapesMeet, STAR, type Atom, type Shape } from "./shell/atoms.js";

export type BashPattern =
  | { kind: "any" }
  | { kind: "exact"; command: string }
  | { kind: "prefix"; prefix: string }
  | { kind: "wildcard"; shapes: Shape[] };

/** One space for every whitespace run, trimmed: the form commands are compared in. */
export function squashSpaces(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function hasUnescapedStar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "*") return true;
  }
  return false;
}

/** `*` → any text, `\*` → `*`, `\\` → `\`; a lone trailing ` *` makes the arguments optional. */
function wildcardShapes(spec: string): Shape[] {
  const shape: Atom[] = [];
  let stars = 0;
  for (let i = 0; i < spec.length; i++) {
    const ch = spec[i];
    if (ch === "\\" && (spec[i + 1] === "*" || spec[i + 1] === "\\")) shape.push({ c: spec[++i] });
    else if (ch === "*") {
      stars++;
      shape.push(STAR);
    } else shape.push({ c: ch });
  }
  const n = shape.length;
  if (stars === 1 && n >= 2 && shape[n - 1].star && shape[n - 2].c === " ") return [shape, shape.slice(0, -2)];
  return [shape];
}

/** Compiles a bash specifier; throws with a message naming the problem. */
export function compileBashPattern(specifier: string): BashPattern {
  const spec = squashSpaces(specifier);
  if (spec === "") throw new Error("the command is empty");
  if (spec === "*") return { kind: "any" };
  const legacy = /^(.*?):\*$/.exec(spec);
  if (legacy && !hasUnescapedStar(legacy[1])) {
    const prefix = legacy[1].trim();
    if (prefix === "") throw new Error('":*" needs a command prefix before it');
    return { kind: "prefix", prefix };
  }
  if (hasUnescapedStar(spec)) return { kind: "wildcard", shapes: wildcardShapes(spec) };
  return { kind: "exact", command: spec.replace(/\\([*\\])/g, "$1") };
}

/** Whether one simple command (already squashed) matches. */
export function matchBashPattern(pattern: BashPattern, command: string): boolean {
  switch (pattern.kind) {
    case "any":
      return true;
    case "exact":
      return command === pattern.command;
    case "prefix":
      return command === pattern.prefix || command.startsWith(`${pattern.prefix} `);
    case "wildcard": {
      const text = literalShape(command);
      return pattern.shapes.some((shape) => shapesMeet(text, shape));
    }
  }
}

/** Every text the pattern matches, as shapes (a command pith reads only in part is compared against these). */
export function patternShapes(pattern: BashPattern): Shape[] {
  switch (pattern.kind) {
    case "any":
      return [[STAR]];
    case "exact":
      return [literalShape(pattern.command)];
    case "prefix":
      return [literalShape(pattern.prefix), [...literalShape(`${pattern.prefix} `), STAR]];
    case "wildcard":
      return pattern.shapes;
  }
}

/** The `bash(...)` rule "Allow always" records for a command: its first two words as a prefix. */
export function bashPrefixFor(command: string): string {
  return squashSpaces(command).split(" ").slice(0, 2).join(" ");
}
