// The shape of one shell word (shell/atoms.ts): the text it becomes when that text is fixed, and
// where it is not, what the shell may put there. An unquoted `*`, `?` or `[` is a glob the shell
// replaces by file names; an unquoted `{` / `}` may be a brace expansion (`{rm,x}` is two words);
// `$x`, `${x}`, `$(…)`, backticks, `$((…))`, `$'…'` and `<(…)` are expansions. Each of those stands
// for any text (spaces included: an unquoted expansion splits into several words), which is what
// lets a deny rule see that `/usr/bin/r? f` or `git $SUB` could be the command it forbids.
import { ANY_CHAR, STAR, type Atom } from "./atoms.js";
import type { SyntaxNode } from "./syntax-node.js";

export interface WordShape {
  /** The word's fixed value, or undefined when the shell computes part of it. */
  literal?: string;
  atoms: Atom[];
}

/** A `{…,…}` or `{a..b}` brace expansion (escapes ignored: a false positive only widens the shape). */
const BRACES = /\{[^{}]*(,|\.\.)[^{}]*\}/;

/** An unquoted word's characters: `\x` is x, backslash-newline vanishes, glob characters and brace expansions are wildcards. */
function unquoted(text: string, out: Atom[], braces: boolean): boolean {
  let fixed = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) {
      i++;
      if (text[i] !== "\n") out.push({ c: text[i] });
    } else if (c === "?") {
      out.push(ANY_CHAR);
      fixed = false;
    } else if (c === "*" || c === "[" || (braces && (c === "{" || c === "}"))) {
      out.push(STAR);
      fixed = false;
    } else out.push({ c });
  }
  return fixed;
}

/** Inside double quotes only `\$ \` \" \\` and backslash-newline are escapes. */
function doubleQuoted(text: string, out: Atom[]): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && /[$`"\\\n]/.test(text[i + 1] ?? "")) {
      i++;
      if (text[i] !== "\n") out.push({ c: text[i] });
    } else out.push({ c });
  }
}

/** Appends the node's atoms; false when any part of it is computed or a wildcard. */
function collect(node: SyntaxNode, out: Atom[], braces: boolean): boolean {
  switch (node.kind()) {
    case "word":
    case "number":
      return unquoted(node.text(), out, braces);
    case "raw_string":
      for (const c of node.text().slice(1, -1)) out.push({ c });
      return true;
    case "string": {
      // The grammar leaves some characters (a newline) between its children: read the gaps from the text.
      const text = node.text();
      let fixed = true;
      let cursor = 1;
      for (const child of node.children().slice(1, -1)) {
        const at = text.indexOf(child.text(), cursor);
        if (at === -1) return false;
        doubleQuoted(text.slice(cursor, at), out);
        if (child.kind() === "string_content") doubleQuoted(child.text(), out);
        else {
          out.push(STAR);
          fixed = false;
        }
        cursor = at + child.text().length;
      }
      doubleQuoted(text.slice(cursor, -1), out);
      return fixed;
    }
    case "concatenation":
    case "command_name": {
      let fixed = true;
      for (const child of node.children()) fixed = collect(child, out, braces) && fixed;
      return fixed;
    }
    default:
      out.push(STAR);
      return false;
  }
}

/** The shape of a word node (a command name, an argument, a here-string). */
export function wordShape(node: SyntaxNode): WordShape {
  const atoms: Atom[] = [];
  const fixed = collect(node, atoms, BRACES.test(node.text()));
  return fixed ? { literal: atoms.map((a) => a.c).join(""), atoms } : { atoms };
}
