// A bash command line split into what the permission rules judge one by one: every simple
// command anywhere in it (joined by `&&`, `||`, `;`, `|`, `&`, newlines, inside `$(…)`,
// backticks, `<(…)`, subshells, braces, if/for/while/case bodies, function bodies, heredoc
// bodies), plus every file an output redirection writes. What cannot be read with confidence
// (a syntax error, a command name that is computed, a redirection to a computed path, a
// `sh -c` / `eval` whose script is computed) is reported in `unsure`: such a command is never
// allowed by a prefix rule.
import { squashSpaces } from "../bash-pattern.js";
import { loadBashParser } from "./parser.js";
import { isMissing, literalValue, type SyntaxNode } from "./syntax-node.js";

export interface CommandPart {
  /** The command as written, assignments first, words unquoted, one space between: what allow rules match. */
  text: string;
  /** Name and arguments (unquoted when literal, as written when computed). */
  words: string[];
  /** `FOO=1` prefixes, as written. */
  assignments: string[];
  /** Indexes of the words that are computed (`$x`, `$(…)`, ...), kept as written. */
  computed: number[];
  /** For `sh -c '<script>'` and `eval '<script>'`: the script's own analysis (deny and ask rules look inside). */
  nested?: ShellAnalysis;
}

export interface ShellAnalysis {
  parts: CommandPart[];
  /** Files written by output redirections (`>`, `>>`, `&>`, `>|`, `<>`), as written, `/dev/null` and the like left out. */
  writes: string[];
  /** Why the command cannot be read with confidence; undefined when it can. */
  unsure?: string;
}

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"]);
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const OUTPUT_OPS = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);
const MAX_NESTING = 8;

/** Splits and reads `command`; never throws. */
export async function analyseCommand(command: string, depth = 0): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  if (parser instanceof Error) return { parts: [], writes: [], unsure: `the shell parser could not load (${parser.message})` };
  const out: ShellAnalysis = { parts: [], writes: [] };
  try {
    walk(parser(command), out);
  } catch (err) {
    return { parts: [], writes: [], unsure: `the shell parser failed (${(err as Error).message})` };
  }
  if (depth < MAX_NESTING) await readNestedScripts(out, depth);
  else out.unsure ??= "scripts nested too deeply";
  return out;
}

function snippet(node: SyntaxNode): string {
  const text = squashSpaces(node.text());
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function walk(node: SyntaxNode, out: ShellAnalysis): void {
  const kind = node.kind();
  if (kind === "ERROR") out.unsure ??= `a syntax error in \`${snippet(node)}\``;
  else if (isMissing(node)) out.unsure ??= `an unfinished command (a missing "${kind}")`;
  else if (kind === "command") addCommand(node, out);
  else if (kind === "declaration_command" || kind === "unset_command") addDeclaration(node, out);
  else if (kind === "file_redirect") addRedirect(node, out);
  for (const child of node.children()) walk(child, out);
}

function addCommand(node: SyntaxNode, out: ShellAnalysis): void {
  const nameNode = node.field("name");
  if (!nameNode || literalValue(nameNode) === undefined) {
    out.unsure ??= `a command name that is computed: \`${nameNode ? snippet(nameNode) : "?"}\``;
    return;
  }
  const assignments = node.children().filter((c) => c.kind() === "variable_assignment").map((c) => c.text());
  out.parts.push(part(assignments, [nameNode, ...node.fieldChildren("argument")]));
}

/** `export A=1`, `local x`, `unset y`: a part whose words are the keyword and its operands as written. */
function addDeclaration(node: SyntaxNode, out: ShellAnalysis): void {
  out.parts.push(part([], node.children()));
}

function part(assignments: string[], nodes: SyntaxNode[]): CommandPart {
  const words: string[] = [];
  const computed: number[] = [];
  nodes.forEach((n, i) => {
    const value = literalValue(n);
    if (value === undefined) computed.push(i);
    words.push(value ?? n.text());
  });
  return { text: squashSpaces([...assignments, ...words].join(" ")), words, assignments, computed };
}

function addRedirect(node: SyntaxNode, out: ShellAnalysis): void {
  const children = node.children();
  const op = children.find((c) => !c.isNamed())?.kind() ?? "";
  if (!OUTPUT_OPS.has(op)) return;
  const dest = node.fieldChildren("destination");
  if (dest.length === 0) return;
  const target = dest.length === 1 ? literalValue(dest[0]) : undefined;
  if (target === undefined) {
    out.unsure ??= `a redirection to a computed path: \`${snippet(node)}\``;
    return;
  }
  if (op === ">&" && /^(\d+|-)$/.test(target)) return;
  if (HARMLESS_TARGETS.test(target)) return;
  out.writes.push(target);
}

/** The script of `sh -c '<script>'` / `eval '<script>'` when literal; undefined when there is none; null when computed. */
function scriptOf(p: CommandPart): string | undefined | null {
  const base = p.words[0].split("/").pop() ?? "";
  if (base === "eval") {
    if (p.words.length === 1) return undefined;
    return p.computed.some((i) => i > 0) ? null : p.words.slice(1).join(" ");
  }
  if (!SHELLS.has(base)) return undefined;
  const c = p.words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
  if (c === -1) return undefined;
  return c + 1 < p.words.length && !p.computed.includes(c + 1) ? p.words[c + 1] : null;
}

async function readNestedScripts(out: ShellAnalysis, depth: number): Promise<void> {
  for (const p of out.parts) {
    const script = scriptOf(p);
    if (script === undefined) continue;
    if (script === null) {
      out.unsure ??= `"${p.words[0]}" runs a script pith cannot read`;
      continue;
    }
    p.nested = await analyseCommand(script, depth + 1);
    if (p.nested.unsure) out.unsure ??= `inside "${p.words[0]}": ${p.nested.unsure}`;
  }
}
