// The few things the shell analysis needs of a syntax tree node (an @ast-grep/napi SgNode over
// the tree-sitter-bash grammar), and the literal value of a word when it has one.

export interface SyntaxNode {
  kind(): string;
  text(): string;
  isNamed(): boolean;
  isLeaf(): boolean;
  children(): SyntaxNode[];
  field(name: string): SyntaxNode | null;
  fieldChildren(name: string): SyntaxNode[];
  range(): { start: { index: number }; end: { index: number } };
}

/** A token tree-sitter inserted to recover from an error (a missing `)`, `fi`, quote...). */
export function isMissing(node: SyntaxNode): boolean {
  const r = node.range();
  return !node.isNamed() && node.isLeaf() && r.start.index === r.end.index && node.kind() !== "";
}

/** `\x` → `x`, and a backslash-newline disappears (an unquoted word). */
function unescapeWord(text: string): string {
  return text.replace(/\\(\n|.)/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Inside double quotes only `\$ \` \" \\` and backslash-newline are escapes. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/**
 * The value the shell gives a word when it is fixed text (quotes removed, escapes applied),
 * or undefined when it expands something (`$x`, `$(...)`, `$'...'`, arithmetic...).
 */
export function literalValue(node: SyntaxNode): string | undefined {
  switch (node.kind()) {
    case "word":
    case "number":
      return unescapeWord(node.text());
    case "raw_string":
      return node.text().slice(1, -1);
    case "string":
      // The whole text between the quotes: the grammar leaves some characters (a newline) between its children.
      if (node.children().some((c) => c.kind() !== "string_content" && c.kind() !== '"')) return undefined;
      return unescapeDoubleQuoted(node.text().slice(1, -1));
    case "concatenation": {
      let out = "";
      for (const child of node.children()) {
        const v = literalValue(child);
        if (v === undefined) return undefined;
        out += v;
      }
      return out;
    }
    case "command_name": {
      const inner = node.children();
      return inner.length === 1 ? literalValue(inner[0]) : undefined;
    }
    default:
      return undefined;
  }
}
