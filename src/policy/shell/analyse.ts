// A bash command line split into what the permission rules judge one by one: every simple
// command anywhere in it (joined by `&&`, `||`, `;`, `|`, `&`, newlines, inside `$(…)`,
// backticks, `<(…)`, subshells, braces, if/for/while/case bodies, function bodies, heredoc
// bodies), plus every file an output redirection writes. The shell grammar is tree-sitter-bash
// (parser.ts); backslash-newline line continuations are joined first, as bash does, because the
// grammar splits a word at them (`r\⏎m` is `rm`).
//
// Two verdicts about the whole line:
// - `opaque`: some part may run a program pith cannot name (a computed or glob command name, a
//   shell or interpreter running text pith cannot read, an alias, `coproc`, a variable such as
//   PATH that chooses programs, a syntax error). Every deny and ask rule could match it.
// - `unsure`: pith cannot read the line with confidence (every opaque reason, a redirection to a
//   computed path, a function definition). Such a line is never allowed by a prefix rule.
import { loadBashParser } from "./parser.js";
import { makePart, snippet, type ShellAnalysis } from "./command-part.js";
import { harmlessVariable } from "./assignments.js";
import { isMissing, literalValue, type SyntaxNode } from "./syntax-node.js";

export type { CommandPart, ShellAnalysis } from "./command-part.js";

const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const OUTPUT_OPS = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);
const MAX_NESTING = 8;

interface Walk {
  out: ShellAnalysis;
  /** Arithmetic evaluation seen (`$((…))`, `((…))`, `[[ … -eq … ]]`, `let`, `declare -i`, `for ((…))`). */
  arithmetic: boolean;
  /** A value pith cannot read seen (command output, `read`, or text holding `$(` or a backtick). */
  hiddenValue: boolean;
}

/** Splits and reads `command`; never throws. */
export async function analyseCommand(command: string, depth = 0): Promise<ShellAnalysis> {
  const joined = joinContinuations(command);
  const out = await analyseText(joined, depth);
  if (joined === command) return out;
  // Also read as the grammar sees it: a continuation inside a quoted here-document is literal text.
  const raw = await analyseText(command, depth);
  const known = new Set(out.parts.map((p) => p.text));
  out.parts.push(...raw.parts.filter((p) => !known.has(p.text)));
  out.writes.push(...raw.writes.filter((w) => !out.writes.includes(w)));
  out.unsure ??= raw.unsure;
  out.opaque ??= raw.opaque;
  return out;
}

/** Removes every backslash-newline whose backslash is not itself escaped. */
export function joinContinuations(text: string): string {
  return text.replace(/(\\*)\\\n/g, (m, before: string) => (before.length % 2 === 0 ? before : m));
}

async function analyseText(command: string, depth: number): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  if (parser instanceof Error) return cannotParse(`the shell parser could not load (${parser.message})`);
  const w: Walk = { out: { parts: [], writes: [] }, arithmetic: false, hiddenValue: false };
  try {
    walk(parser(command), w);
  } catch (err) {
    return cannotParse(`the shell parser failed (${(err as Error).message})`);
  }
  if (w.arithmetic && w.hiddenValue) opaque(w.out, "arithmetic on a value pith cannot read (arithmetic runs command substitutions hidden in values)");
  if (depth < MAX_NESTING) await readNestedScripts(w.out, depth);
  else opaque(w.out, "scripts nested too deeply");
  return w.out;
}

function cannotParse(why: string): ShellAnalysis {
  return { parts: [], writes: [], unsure: why, opaque: why };
}

function opaque(out: ShellAnalysis, why: string): void {
  out.opaque ??= why;
  out.unsure ??= why;
}

function walk(node: SyntaxNode, w: Walk, stdin?: string): void {
  const kind = node.kind();
  if (kind === "ERROR") opaque(w.out, `a syntax error in \`${snippet(node.text())}\``);
  else if (isMissing(node)) opaque(w.out, `an unfinished command (a missing "${kind}")`);
  else if (kind === "command") addCommand(node, w, stdin);
  else if (kind === "declaration_command" || kind === "unset_command") addDeclaration(node, w);
  else if (kind === "file_redirect") addRedirect(node, w.out);
  else if (kind === "variable_assignment") checkAssignment(node, w.out);
  else if (kind === "function_definition") w.out.unsure ??= `a function definition (\`${snippet(node.text())}\`)`;
  noteValues(node, kind, w);
  const input = kind === "redirected_statement" ? redirectedStdin(node) : undefined;
  for (const child of node.children()) walk(child, w, kind === "redirected_statement" && child.kind() === "command" ? input : undefined);
}

function noteValues(node: SyntaxNode, kind: string, w: Walk): void {
  if (["arithmetic_expansion", "c_style_for_statement", "test_command"].includes(kind)) w.arithmetic = true;
  else if (kind === "compound_statement" && node.children()[0]?.kind() === "((") w.arithmetic = true;
  else if (kind === "command_substitution" || kind === "process_substitution") w.hiddenValue = true;
  else if (["raw_string", "string_content", "word", "heredoc_body", "heredoc_content"].includes(kind) && /\$\(|`/.test(node.text())) w.hiddenValue = true;
}

function addCommand(node: SyntaxNode, w: Walk, stdin: string | undefined): void {
  const nameNode = node.field("name");
  if (!nameNode) {
    opaque(w.out, `a command with no readable name: \`${snippet(node.text())}\``);
    return;
  }
  const here = node.children().find((c) => c.kind() === "herestring_redirect");
  const input = here ? hereStringText(here) : stdin;
  const assignments = node.children().filter((c) => c.kind() === "variable_assignment").map((c) => c.text());
  const part = makePart(assignments, [nameNode, ...node.fieldChildren("argument")], input);
  const name = part.words[0];
  if (name === "let" || ((name === "declare" || name === "typeset" || name === "local") && part.words.some((x) => /^-\w*i/.test(x)))) w.arithmetic = true;
  if (name === "read" || name === "mapfile" || name === "readarray") w.hiddenValue = true;
  if (part.opaque) opaque(w.out, part.opaque);
  w.out.parts.push(part);
}

/** `export A=1`, `local x`, `unset y`: a part whose words are the keyword and its operands as written. */
function addDeclaration(node: SyntaxNode, w: Walk): void {
  const part = makePart([], node.children());
  if (/^-\w*i/.test(part.words[1] ?? "")) w.arithmetic = true;
  w.out.parts.push(part);
}

/** `PATH=…`, `BASH_ENV=…`, `LD_PRELOAD=…`: later commands run programs pith cannot name. */
function checkAssignment(node: SyntaxNode, out: ShellAnalysis): void {
  const name = node.field("name")?.text() ?? node.children()[0]?.text() ?? "";
  if (!harmlessVariable(name.replace(/\[.*$/, ""))) opaque(out, `it sets ${name}, which chooses what programs run`);
}

/** The fixed text a here-string feeds (with the newline bash adds), or undefined when computed. */
function hereStringText(node: SyntaxNode): string | undefined {
  const word = node.children().find((c) => c.isNamed());
  const value = word ? literalValue(word) : undefined;
  return value === undefined ? undefined : `${value}\n`;
}

/**
 * The fixed text of a here-document, or undefined when it expands something or the grammar's
 * reading of it is not exactly operator, delimiter, newline, body, delimiter (the grammar
 * misreads some bodies, e.g. one starting with a backslash).
 */
function hereDocText(node: SyntaxNode): string | undefined {
  const children = node.children();
  const op = children[0]?.kind() ?? "";
  const start = children.find((c) => c.kind() === "heredoc_start")?.text() ?? "";
  const body = children.find((c) => c.kind() === "heredoc_body");
  const end = children.find((c) => c.kind() === "heredoc_end")?.text() ?? "";
  const expected = ["<<", "<<-"].includes(op) && children.every((c) => ["<<", "<<-", "heredoc_start", "heredoc_body", "heredoc_end"].includes(c.kind()));
  if (!body || !expected || node.text().replace(/^(<<-?)[ \t]*/, "$1") !== `${op}${start}\n${body.text()}${end}`) return undefined;
  const quoted = /['"\\]/.test(start);
  if (!quoted && body.children().some((c) => c.kind() !== "heredoc_content")) return undefined;
  let text = quoted ? body.text() : body.text().replace(/\\([$`\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
  if (children.some((c) => c.kind() === "<<-")) text = text.replace(/^\t+/gm, "");
  return text;
}

/** Standard input of a redirected statement's command: the last input redirection, when it is a fixed here-string or here-document. */
function redirectedStdin(node: SyntaxNode): string | undefined {
  let text: string | undefined;
  for (const r of node.children()) {
    const fd = r.children().find((c) => c.kind() === "file_descriptor")?.text();
    if (fd !== undefined && fd !== "0") continue;
    if (r.kind() === "heredoc_redirect") text = hereDocText(r);
    else if (r.kind() === "herestring_redirect") text = hereStringText(r);
    else if (r.kind() === "file_redirect" && r.children().some((c) => c.kind() === "<" || c.kind() === "<&" || c.kind() === "<>")) text = undefined;
  }
  return text;
}

function addRedirect(node: SyntaxNode, out: ShellAnalysis): void {
  const children = node.children();
  const op = children.find((c) => !c.isNamed())?.kind() ?? "";
  if (!OUTPUT_OPS.has(op)) return;
  const dest = node.fieldChildren("destination");
  if (dest.length === 0) return;
  const target = dest.length === 1 ? literalValue(dest[0]) : undefined;
  if (target === undefined) {
    out.unsure ??= `a redirection to a computed path: \`${snippet(node.text())}\``;
    return;
  }
  if (op === ">&" && /^(\d+|-)$/.test(target)) return;
  if (HARMLESS_TARGETS.test(target)) return;
  out.writes.push(target);
}

async function readNestedScripts(out: ShellAnalysis, depth: number): Promise<void> {
  for (const p of out.parts) {
    if (p.scripts.length === 0) continue;
    const nested: ShellAnalysis = { parts: [], writes: [] };
    for (const script of p.scripts) {
      const a = await analyseCommand(script, depth + 1);
      nested.parts.push(...a.parts);
      nested.writes.push(...a.writes);
      nested.unsure ??= a.unsure;
      nested.opaque ??= a.opaque;
    }
    p.nested = nested;
    if (nested.unsure) out.unsure ??= `inside "${p.words[0]}": ${nested.unsure}`;
    if (nested.opaque) out.opaque ??= `inside "${p.words[0]}": ${nested.opaque}`;
  }
}
