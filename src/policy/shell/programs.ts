// What one program invocation runs besides itself (program-call.ts): the dispatcher over the
// tables of wrappers, shells, interpreters and programs that execute their arguments. A program
// no table names runs itself only, as far as the command line shows.
import { harmlessVariable } from "./assignments.js";
import { awkFacts, interpreterFacts, interpreterOf, isAwk, sedFacts } from "./interpreters.js";
import { argIndexes, everyTail, findFlag, literalAt, programName, type ProgramCall, type ProgramFacts } from "./program-call.js";
import { evalFacts, scriptFlagFacts, shellFacts, SHELLS, sourceFacts, trapFacts, watchFacts } from "./shells.js";
import { envFacts, execFlagFacts, gitFacts, makeFacts, opaqueFlagFacts, sudoFacts } from "./tool-programs.js";

/** Programs that run the program named by their remaining words (after their own options). */
const WRAPPERS = new Set([
  "builtin", "busybox", "toybox", "chroot", "command", "exec", "flock", "ionice", "nice", "nohup", "setsid", "stdbuf", "strace",
  "ltrace", "time", "timeout", "unbuffer", "xargs", "chrt", "taskset", "numactl", "prlimit", "fakeroot", "proot", "firejail", "bwrap",
  "unshare", "nsenter", "systemd-run", "xvfb-run", "dbus-run-session", "caffeinate", "cgexec", "runcon", "torsocks", "proxychains",
  "proxychains4", "tsocks", "valgrind", "catchsegv", "entr", "rlwrap", "npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "uv", "uvx",
  "poetry", "pipx", "pipenv", "bundle", "conda", "mamba", "micromamba", "mise", "asdf", "direnv", "nix", "nix-shell", "devbox",
  "su", "runuser", "sg", "script",
]);

/** Programs that run commands pith cannot follow, whatever their arguments. */
const ALWAYS_OPAQUE: Record<string, string> = {
  coproc: "starts a coprocess pith does not follow",
  tmux: "runs commands in a terminal multiplexer",
  screen: "runs commands in a terminal multiplexer",
  at: "queues a script read from its standard input",
  batch: "queues a script read from its standard input",
  crontab: "installs commands to run later",
  parallel: "runs the commands it builds through a shell",
  hyperfine: "runs its arguments through a shell",
  fc: "runs commands from the shell's history",
};

/** Builtins that change what a name runs, or run a callback: opaque when given these arguments. */
function builtinOpaque(name: string, call: ProgramCall): string | undefined {
  const args = argIndexes(call).map((i) => literalAt(call, i));
  const any = (test: (w: string) => boolean) => args.some((w) => w === undefined || test(w));
  switch (name) {
    case "alias":
      return any((w) => w.includes("=")) ? "defines an alias, so a later name may run another command" : undefined;
    case "enable":
      return any((w) => !["-a", "-p", "-s"].includes(w)) ? "loads or switches shell builtins" : undefined;
    case "hash":
      return findFlag(call, ["-p"]) !== -1 ? "binds a command name to another program" : undefined;
    case "bind":
      return findFlag(call, ["-x"]) !== -1 ? "binds a key to a command" : undefined;
    case "complete":
    case "compgen":
      return findFlag(call, ["-C", "-F"]) !== -1 ? "runs a completion command" : undefined;
    case "mapfile":
    case "readarray":
      return findFlag(call, ["-C"]) !== -1 ? "runs a callback" : setsExecVariable(args);
    case "read":
    case "getopts":
      return setsExecVariable(args);
    case "printf": {
      const v = findFlag(call, ["-v"]);
      return v === -1 ? undefined : setsExecVariable([literalAt(call, v + 1)]);
    }
    default:
      return undefined;
  }
}

function setsExecVariable(names: Array<string | undefined>): string | undefined {
  const bad = names.find((w) => w !== undefined && !w.startsWith("-") && /^\w+$/.test(w) && !harmlessVariable(w));
  return bad === undefined ? undefined : `sets ${bad}, which chooses what programs run`;
}

function merge(into: ProgramFacts, more: ProgramFacts | undefined): ProgramFacts {
  if (!more) return into;
  return {
    programsAt: [...(into.programsAt ?? []), ...(more.programsAt ?? [])],
    scripts: [...(into.scripts ?? []), ...(more.scripts ?? [])],
    opaque: into.opaque ?? more.opaque,
  };
}

function specificFacts(name: string, call: ProgramCall): ProgramFacts | undefined {
  if (SHELLS.has(name)) return shellFacts(call);
  if (isAwk(name)) return awkFacts(call);
  switch (name) {
    case "eval":
      return evalFacts(call);
    case "source":
    case ".":
      return sourceFacts(call);
    case "trap":
      return trapFacts(call);
    case "watch":
      return watchFacts(call);
    case "git":
      return gitFacts(call);
    case "make":
    case "gmake":
      return makeFacts(call);
    case "env":
      return envFacts(call);
    case "sudo":
    case "doas":
      return sudoFacts(call);
    case "sed":
    case "gsed":
      return sedFacts(call);
  }
  const family = interpreterOf(name);
  return family ? interpreterFacts(call, family) : undefined;
}

/** What the program at `call.at` runs besides itself. */
export function programFacts(call: ProgramCall): ProgramFacts {
  const name = programName(call);
  const why = ALWAYS_OPAQUE[name] ?? builtinOpaque(name, call);
  let facts: ProgramFacts = why ? { opaque: `"${name}" ${why}`, programsAt: name === "coproc" ? everyTail(call) : [] } : {};
  facts = merge(facts, specificFacts(name, call));
  facts = merge(facts, scriptFlagFacts(call));
  facts = merge(facts, execFlagFacts(call));
  facts = merge(facts, opaqueFlagFacts(call));
  if (WRAPPERS.has(name)) facts = merge(facts, { programsAt: everyTail(call) });
  return facts;
}
