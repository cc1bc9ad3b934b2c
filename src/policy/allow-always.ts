// "Allow always": the allow rules a dialog answer records for the rest of the session (the
// wiring appends them to the session's allow list, writes them to the session file, and
// restores them on reload). Derived from the call so the same call is allowed next time:
// - bash: one `bash(<command> <subcommand>:*)` prefix rule per part (`git commit:*`,
//   `npm run build:*`, `ls:*`), a `write(<file>)` rule per redirected file; an exact rule for a
//   part with computed words or a wrapper (`sudo`, `xargs`, `sh -c`, `eval`: a prefix would
//   grant far more than was asked), and for a whole command pith cannot read;
// - a call that declares the places it reads or writes: one rule per place, relative to the cwd
//   when inside it (`edit(src/app.ts)`, `edit(./README.md)`), `~/…` under the home folder,
//   absolute otherwise; named after the tool when it is one of the path rule names (`read`,
//   `edit`, `write`, `grep`, `find`, `ls`), else after its family (`edit(...)` for a tool that
//   writes files such as ast_edit or notebook, `read(...)` for one that reads them);
// - any other tool: its bare name.
import { homedir } from "node:os";
import { resolveToolPath } from "../shared/tool-paths.js";
import { squashSpaces } from "./bash-pattern.js";
import { escapeGlob, relativeInside } from "./path-pattern.js";
import { PATH_TOOLS, pathFamily } from "./rule.js";
import { analyseCommand, type CommandPart } from "./shell/analyse.js";
import type { PermissionCall } from "./types.js";

const SUBCOMMAND = /^[a-z][a-z0-9_-]*(:[a-z0-9_-]+)*$/;
const NO_PREFIX = new Set([
  "sudo", "doas", "xargs", "env", "exec", "command", "builtin", "eval", "nohup", "timeout", "time", "nice", "watch",
  "sh", "bash", "dash", "zsh", "ksh", "fish", "busybox", "find", "ssh",
]);

/** The rules "Allow always" records for `call`, in order, without duplicates. */
export async function allowRulesFor(call: PermissionCall, cwd: string, home: string = homedir()): Promise<string[]> {
  if (call.toolName === "bash") return bashRules(typeof call.arguments.command === "string" ? call.arguments.command : "", cwd, home);
  const family = pathFamily(call);
  if (family && call.paths && call.paths.length > 0) {
    const name = (PATH_TOOLS as readonly string[]).includes(call.toolName) ? call.toolName : family === "write" ? "edit" : "read";
    return [...new Set(call.paths.map((p) => `${name}(${pathSpecifier(resolveToolPath(p.path, cwd, home), cwd, home)})`))];
  }
  return [call.toolName];
}

/** A path spelled the way a rule anchors it to exactly that place. */
export function pathSpecifier(abs: string, cwd: string, home: string): string {
  if (abs === cwd) return "./**";
  const inCwd = relativeInside(cwd, abs);
  if (inCwd !== undefined) return inCwd.includes("/") ? escapeGlob(inCwd) : `./${escapeGlob(inCwd)}`;
  const inHome = relativeInside(home, abs);
  if (inHome !== undefined) return `~/${escapeGlob(inHome)}`;
  return escapeGlob(abs);
}

/** `bash(<text>)` matching exactly `text` (stars and backslashes escaped). */
export function exactBashRule(text: string): string {
  return `bash(${squashSpaces(text).replace(/[\\*]/g, (c) => `\\${c}`)})`;
}

function partRule(p: CommandPart): string {
  const name = p.words[0].split("/").pop() ?? "";
  if (p.computed.length > 0 || NO_PREFIX.has(name)) return exactBashRule(p.text);
  const prefix = [...p.assignments, p.words[0]];
  for (const w of p.words.slice(1, 3)) {
    if (!SUBCOMMAND.test(w)) break;
    prefix.push(w);
  }
  return `bash(${squashSpaces(prefix.join(" ")).replace(/[\\*]/g, (c) => `\\${c}`)}:*)`;
}

async function bashRules(command: string, cwd: string, home: string): Promise<string[]> {
  const analysis = await analyseCommand(command);
  if (analysis.unsure || analysis.parts.length + analysis.writes.length === 0) return [exactBashRule(command)];
  const rules = analysis.parts.map(partRule);
  for (const w of analysis.writes) rules.push(`write(${pathSpecifier(resolveToolPath(w, cwd, home), cwd, home)})`);
  return [...new Set(rules)];
}
