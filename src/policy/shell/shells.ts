// Shells and shell builtins that run shell text: `sh -c '…'`, a shell reading its script from
// standard input (a here-string or here-document is read; a pipe or file is not), `eval`,
// `source` / `.`, `trap`, and the programs that hand a string to a shell (`su -c`, `script -c`,
// `flock -c`, `watch`, `npx -c`, `nix-shell --run`). A literal script is analysed as a command
// line of its own; a computed one, or one in a file, makes the program opaque.
import { argIndexes, literalAt, namesStdin, programName, STDIN_NOTE, type ProgramCall, type ProgramFacts } from "./program-call.js";

export const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "rbash", "lksh", "pdksh", "oksh", "loksh", "fish", "csh", "tcsh"]);

/** Flags whose value is a shell script, per program. */
const SCRIPT_FLAGS: Record<string, readonly string[]> = {
  su: ["-c", "--command", "--session-command"],
  runuser: ["-c", "--command", "--session-command"],
  script: ["-c", "--command"],
  flock: ["-c", "--command"],
  npx: ["-c", "--call"],
  npm: ["-c", "--call"],
  pnpm: ["-c"],
  "nix-shell": ["--run", "--command"],
};

const LONG_WITH_VALUE = new Set(["--rcfile", "--init-file"]);

function stdinScript(call: ProgramCall, what: string): ProgramFacts {
  return call.stdin !== undefined ? { scripts: [call.stdin] } : { opaque: `${what} reads its script from ${STDIN_NOTE}` };
}

/** `sh [options] [-c script | file | -s]`. */
export function shellFacts(call: ProgramCall): ProgramFacts {
  const name = programName(call);
  let command = false;
  let fromStdin = false;
  let i = call.at + 1;
  for (; i < call.words.length; i++) {
    const w = literalAt(call, i);
    if (w === undefined) break;
    if (w === "--" || w === "-") {
      i++;
      break;
    }
    if (w.startsWith("--")) {
      if (LONG_WITH_VALUE.has(w)) i++;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(w)) break;
    if (w[0] === "-" && w.includes("c")) command = true;
    if (w[0] === "-" && w.includes("s")) fromStdin = true;
    i += [...w].filter((c) => c === "o" || c === "O").length;
  }
  if (command) {
    if (i >= call.words.length) return {};
    const script = literalAt(call, i);
    return script === undefined ? { opaque: `"${name} -c" runs a script pith cannot read` } : { scripts: [script] };
  }
  const operand = i < call.words.length ? literalAt(call, i) : undefined;
  if (i < call.words.length && operand === undefined) return { opaque: `"${name}" runs a script pith cannot read` };
  if (fromStdin || i >= call.words.length || (operand !== undefined && namesStdin(operand))) return stdinScript(call, `"${name}"`);
  return { opaque: `"${name}" runs the script file ${operand ?? call.words[i]}, which pith does not read` };
}

/** `eval words…`: the words joined by spaces are a script. */
export function evalFacts(call: ProgramCall): ProgramFacts {
  const args = argIndexes(call);
  if (args.length === 0) return {};
  const words = args.map((i) => literalAt(call, i));
  if (words.some((w) => w === undefined)) return { opaque: '"eval" runs a script pith cannot read' };
  return { scripts: [words.join(" ")] };
}

/** `source file` / `. file`: the file's commands run here. */
export function sourceFacts(call: ProgramCall): ProgramFacts {
  const file = literalAt(call, call.at + 1);
  if (file !== undefined && namesStdin(file)) return stdinScript(call, `"${call.words[call.at]}"`);
  return { opaque: `"${call.words[call.at]}" runs the commands of ${file ?? "a computed file"}, which pith does not read` };
}

/** `trap action signal…`: the action is a script the shell runs later. */
export function trapFacts(call: ProgramCall): ProgramFacts {
  let args = argIndexes(call);
  while (args.length > 0 && ["-p", "-l", "--"].includes(literalAt(call, args[0]) ?? "")) args = args.slice(1);
  if (args.length < 2) return {};
  const action = literalAt(call, args[0]);
  if (action === undefined) return { opaque: '"trap" sets a computed action' };
  return action === "-" || action.trim() === "" ? {} : { scripts: [action] };
}

/** `watch [options] command…`: the words after the options are run by `sh -c`. */
export function watchFacts(call: ProgramCall): ProgramFacts {
  let i = call.at + 1;
  for (; i < call.words.length; i++) {
    const w = literalAt(call, i);
    if (w === undefined) return { opaque: '"watch" has a computed argument' };
    if (!w.startsWith("-")) break;
    if (["-n", "--interval", "-d", "-q", "--equexit"].includes(w)) i++;
  }
  const rest = call.words.slice(i).map((_, k) => literalAt(call, i + k));
  if (rest.length === 0) return {};
  if (rest.some((w) => w === undefined)) return { opaque: '"watch" runs a computed command' };
  return { scripts: [rest.join(" ")] };
}

/** `su -c script`, `script -c script`, `flock -c script`, `npx -c script`, `nix-shell --run script`. */
export function scriptFlagFacts(call: ProgramCall): ProgramFacts | undefined {
  const flags = SCRIPT_FLAGS[programName(call)];
  if (!flags) return undefined;
  const scripts: string[] = [];
  for (const i of argIndexes(call)) {
    const w = literalAt(call, i);
    if (w === undefined) continue;
    const inline = flags.find((f) => f.startsWith("--") && w.startsWith(`${f}=`));
    if (!inline && !flags.includes(w)) continue;
    const script = inline ? w.slice(inline.length + 1) : literalAt(call, i + 1);
    if (script === undefined) return { opaque: `"${programName(call)} ${w}" runs a computed script` };
    scripts.push(script);
  }
  return scripts.length > 0 ? { scripts } : undefined;
}
