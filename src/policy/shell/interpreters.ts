// Language interpreters. Program text given on the command line (`python -c`, `perl -e`,
// `node -e`, `ruby -e`, ...) or read from standard input can call any program, and pith cannot
// judge another language: such an invocation is opaque. A program file (`python tool.py`) runs
// what the file says, like `./tool`: it is judged by its name. awk and sed are read: an awk
// program is opaque only when it can run commands (`system`, pipes, gawk's `@` calls and
// extensions), a sed script only when it has GNU sed's `e` command or `s///e` flag.
import { argIndexes, hasFlag, literalAt, namesStdin, programName, STDIN_NOTE, type ProgramCall, type ProgramFacts } from "./program-call.js";

interface Family {
  name: RegExp;
  /** Flags whose presence means program text on the command line (exact, `--long=value`, or a word starting with one of `prefixes`). */
  inline: readonly string[];
  /** Short-option letters that carry program text inside a cluster (`-ne`, `-Sc`). */
  letters?: string;
  prefixes?: readonly string[];
  /** Options taking a value in the next word. */
  values?: readonly string[];
  /** Options whose value names what runs (`python -m module`): an operand. */
  operands?: readonly string[];
}

const FAMILIES: readonly Family[] = [
  { name: /^(python|pypy)(\d+(\.\d+)*)?$/, inline: ["-c", "-i"], letters: "ci", values: ["-W", "-X", "--check-hash-based-pycs"], operands: ["-m"] },
  { name: /^perl(\d+(\.\d+)*)?$/, inline: ["-e", "-E"], letters: "eE", prefixes: ["-M", "-m"], values: ["-I", "-x"] },
  { name: /^(ruby|jruby|truffleruby)(\d+(\.\d+)*)?$/, inline: ["-e"], letters: "e", values: ["-I", "-r", "-C", "-E", "-F"], operands: ["-S"] },
  {
    name: /^(node|nodejs|bun|qjs|tsx|ts-node)$/,
    inline: ["-e", "--eval", "-p", "--print", "-i", "--interactive"],
    letters: "ep",
    values: ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--input-type", "--env-file", "--title"],
    operands: ["--test", "--run"],
  },
  { name: /^deno$/, inline: ["eval", "repl", "-e", "--eval"] },
  { name: /^php(\d+(\.\d+)*)?(-cli)?$/, inline: ["-r", "-B", "-R", "-E", "-F", "-a"], letters: "rBREFa", values: ["-c", "-d"] },
  { name: /^(lua|luajit)(\d+(\.\d+)*)?$/, inline: ["-e", "-i"], letters: "ei", values: ["-l"] },
  { name: /^(Rscript|R)$/, inline: ["-e"], values: ["--file"] },
  { name: /^julia$/, inline: ["-e", "-E", "--eval", "--print", "-i"], letters: "eEi" },
  { name: /^osascript$/, inline: ["-e"], letters: "e" },
  { name: /^(pwsh|powershell)(\.exe)?$/, inline: ["-c", "-command", "-Command", "-e", "-ec", "-EncodedCommand", "-encodedcommand"] },
  { name: /^(tclsh|wish)(\d+(\.\d+)*)?$/, inline: [] },
  { name: /^expect$/, inline: ["-c", "-i"], letters: "ci" },
  { name: /^(guile|racket|elixir|iex|erl|escript|groovy|scala|jshell|sbcl|clisp|ghci|runghc|dc|m4|gdb|lldb)$/, inline: ["-e", "-c", "--eval", "-eval", "--expression", "-ex", "-x", "--command", "--eval-command", "-batch"] },
];

const INFO = new Set(["--version", "-V", "-v", "--help", "-h", "-VV", "version"]);

/** The interpreter family of a program name, if it is one. */
export function interpreterOf(name: string): Family | undefined {
  return FAMILIES.find((f) => f.name.test(name));
}

export function interpreterFacts(call: ProgramCall, family: Family): ProgramFacts {
  const name = programName(call);
  const args = argIndexes(call);
  for (const i of args) {
    const w = literalAt(call, i);
    if (w === undefined) return { opaque: `"${name}" has a computed argument` };
    if (hasFlag(call, i, family.inline, family.letters ?? "") || family.prefixes?.some((p) => w.startsWith(p))) {
      return { opaque: `"${name} ${w}" runs program text pith cannot judge` };
    }
  }
  const words = args.map((i) => literalAt(call, i) as string);
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    if (family.operands?.includes(w)) return {};
    if (family.values?.includes(w)) {
      k++;
      continue;
    }
    if (w.startsWith("-") && w !== "-") continue;
    if (namesStdin(w)) return { opaque: `"${name}" reads its program from ${STDIN_NOTE}` };
    return {};
  }
  if (words.length > 0 && words.every((w) => INFO.has(w))) return {};
  return { opaque: `"${name}" reads its program from ${STDIN_NOTE}` };
}

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "original-awk", "bwk-awk", "goawk"]);

export function isAwk(name: string): boolean {
  return AWKS.has(name);
}

/** An awk program that can start a command: `system(…)`, a pipe (`print | "cmd"`, `"cmd" | getline`, `|&`), gawk's indirect calls and `@load`/`@include`. */
function awkRunsCommands(program: string): boolean {
  return /system/.test(program) || /(^|[^|])\|(?!\|)/.test(program) || program.includes("@");
}

export function awkFacts(call: ProgramCall): ProgramFacts {
  const name = programName(call);
  const programs: string[] = [];
  for (let i = call.at + 1; i < call.words.length; i++) {
    const w = literalAt(call, i);
    if (w === undefined) return { opaque: `"${name}" has a computed argument` };
    if (/^(-f|--file|-E|--exec|-l|--load|-i|--include)(=|$)/.test(w) || /^-[fEli]./.test(w)) {
      return { opaque: `"${name} ${w}" runs awk code from a file pith does not read` };
    }
    if (w === "-e" || w === "--source") {
      const v = literalAt(call, ++i);
      if (v === undefined) return { opaque: `"${name}" runs a computed program` };
      programs.push(v);
    } else if (w.startsWith("--source=")) programs.push(w.slice("--source=".length));
    else if (w === "-F" || w === "-v" || w === "--field-separator" || w === "--assign") i++;
    else if (w === "--") {
      if (programs.length === 0 && i + 1 < call.words.length) programs.push(call.words[i + 1]);
      break;
    } else if (!w.startsWith("-") && programs.length === 0) {
      programs.push(w);
      break;
    } else if (!w.startsWith("-")) break;
  }
  const unsafe = programs.find(awkRunsCommands);
  return unsafe === undefined ? {} : { opaque: `the awk program ${JSON.stringify(unsafe.slice(0, 60))} can run commands` };
}

export function sedFacts(call: ProgramCall): ProgramFacts {
  const scripts: string[] = [];
  let sandboxed = false;
  for (let i = call.at + 1; i < call.words.length; i++) {
    const w = literalAt(call, i);
    if (w === undefined) return { opaque: '"sed" has a computed argument' };
    if (w === "--sandbox") sandboxed = true;
    else if (w === "-f" || w.startsWith("--file")) return { opaque: '"sed -f" runs a script file pith does not read' };
    else if (w === "-e" || w === "--expression") scripts.push(literalAt(call, ++i) ?? "e");
    else if (w.startsWith("--expression=")) scripts.push(w.slice("--expression=".length));
    else if (/^-[nrEsuz]*e./.test(w)) scripts.push(w.slice(w.indexOf("e") + 1));
    else if (/^-[nrEsuz]*f/.test(w)) return { opaque: '"sed -f" runs a script file pith does not read' };
    else if (w === "-l" || w === "--line-length") i++;
    else if (!w.startsWith("-") && scripts.length === 0) {
      scripts.push(w);
      break;
    } else if (!w.startsWith("-")) break;
  }
  if (sandboxed) return {};
  const unsafe = scripts.find(sedRunsCommands);
  return unsafe === undefined ? {} : { opaque: `the sed script ${JSON.stringify(unsafe.slice(0, 60))} can run commands` };
}

/** The index just past the delimiter `d` closing the part that starts at `from` (backslash escapes skipped). */
function pastDelimiter(s: string, from: number, d: string): number {
  let i = from;
  while (i < s.length && s[i] !== d) i += s[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** GNU sed's `e` command and `s///e` flag run shell commands; anything this reader does not know counts as running one. */
export function sedRunsCommands(s: string): boolean {
  let i = 0;
  const skipTo = (stops: string) => {
    while (i < s.length && !stops.includes(s[i])) i += s[i] === "\\" ? 2 : 1;
  };
  while (i < s.length) {
    const c = s[i];
    if (/[\s;0-9$,~+!IM]/.test(c)) i++;
    else if (c === "/") i = pastDelimiter(s, i + 1, "/");
    else if (c === "\\") i = pastDelimiter(s, i + 2, s[i + 1] ?? "");
    else {
      i++;
      if ("{}=dDgGhHlLnNpPxzFqQ".includes(c)) continue;
      if (c === "e") return true;
      if (c === "#" || c === ":") skipTo("\n");
      else if ("btTv".includes(c)) skipTo(";\n");
      else if ("aicrRwW".includes(c)) skipTo("\n");
      else if (c === "y") i = pastDelimiter(s, pastDelimiter(s, i + 1, s[i] ?? ""), s[i] ?? "");
      else if (c === "s") {
        const d = s[i] ?? "";
        i = pastDelimiter(s, pastDelimiter(s, i + 1, d), d);
        for (; i < s.length && !";\n}".includes(s[i]); i++) {
          if (s[i] === "e") return true;
          if (s[i] === "w") skipTo("\n");
        }
      } else return true;
    }
  }
  return false;
}
