// Everyday programs that start other programs from their arguments: `find -exec`, `fd -x`,
// `cmake -E`, `git` (configuration given on the command line names programs: aliases, pagers,
// ssh commands, hooks paths; `rebase --exec`, `bisect run`, `submodule foreach`), `make -f` /
// `--eval` / variable overrides (a recipe's commands come from them), `tar --to-command`,
// `rsync -e`, editors and debuggers given commands, network tools that execute.
import { harmlessVariable } from "./assignments.js";
import { literalShape, shapesMeet } from "./atoms.js";
import { argIndexes, everyTail, findFlag, hasFlag, literalAt, programName, type ProgramCall, type ProgramFacts } from "./program-call.js";

/** After these, the next word is a program name (find's `-exec rm {} +`). */
const EXEC_FLAGS: Record<string, readonly string[]> = {
  find: ["-exec", "-execdir", "-ok", "-okdir"],
  fd: ["-x", "--exec", "-X", "--exec-batch"],
  fdfind: ["-x", "--exec", "-X", "--exec-batch"],
  cmake: ["-E"],
};

/** Flags that make these programs run a command pith does not see (short letters in a cluster after `|`). */
const OPAQUE_FLAGS: Record<string, readonly string[]> = {
  tar: ["--to-command", "-I", "--use-compress-program", "--checkpoint-action", "-F", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command"],
  rsync: ["-e", "--rsh", "--rsync-path"],
  scp: ["-S", "-o", "-F", "-J"],
  sftp: ["-S", "-o", "-F", "-J", "-b"],
  zip: ["-T", "-TT", "--unzip-command"],
  man: ["-P", "--pager", "-H", "--html"],
  vim: ["-c", "--cmd", "-S", "-s", "-e", "-es", "-E", "-y"],
  emacs: ["--eval", "-l", "--load", "-f", "--funcall", "--script", "-x", "--batch"],
  nc: ["-e", "-c", "--exec", "--sh-exec", "--lua-exec"],
  rg: ["--pre"],
  less: ["-k", "--lesskey-file"],
  sqlite3: ["-cmd", "-init"],
  ssh: ["-o", "-F", "-J"],
};
const ALIASES: Record<string, string> = { vi: "vim", nvim: "vim", ex: "vim", view: "vim", gvim: "vim", ncat: "nc", netcat: "nc", duckdb: "sqlite3" };

/** Git configuration that names a program, an alias, a hook folder or an included file. */
const GIT_EXEC_KEY = /^(alias\.|include|core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy)|credential|diff\.|merge\.|filter\.|sequence\.editor|gpg\.|pager\.|protocol\.|url\.|uploadpack|receivepack|remote\..*\.(uploadpack|receivepack|proxy)|.*\.(command|cmd|program|helper|textconv|process|clean|smudge|external|tool|path)$)/i;

export function execFlagFacts(call: ProgramCall): ProgramFacts | undefined {
  const flags = EXEC_FLAGS[programName(call)];
  if (!flags) return undefined;
  const programsAt = argIndexes(call).filter((i) => hasFlag(call, i - 1, flags));
  const couldBeFlag = argIndexes(call).find((i) => literalAt(call, i) === undefined && flags.some((f) => shapesMeet(call.shapes[i].atoms, literalShape(f))));
  if (couldBeFlag !== undefined) return { programsAt, opaque: `"${programName(call)}" has an argument that could expand to ${flags.join(" or ")}: \`${call.words[couldBeFlag]}\`` };
  return { programsAt };
}

export function opaqueFlagFacts(call: ProgramCall): ProgramFacts | undefined {
  const name = programName(call);
  const flags = OPAQUE_FLAGS[ALIASES[name] ?? name];
  if (!flags) return undefined;
  const at = findFlag(call, flags);
  const plus = (ALIASES[name] ?? name) === "vim" && argIndexes(call).some((i) => literalAt(call, i)?.startsWith("+"));
  const exec = (ALIASES[name] ?? name) === "nc" || name === "socat" ? argIndexes(call).some((i) => /(exec|system):/i.test(literalAt(call, i) ?? "")) : false;
  if (at === -1 && !plus && !exec) return name === "ssh" && argIndexes(call).length > 1 ? { opaque: '"ssh" runs a command through a shell on another machine' } : {};
  return { opaque: `"${name} ${at === -1 ? "" : call.words[at]}" runs a command pith does not see` };
}

/** `git`: options before the subcommand, then what some subcommands run. */
export function gitFacts(call: ProgramCall): ProgramFacts {
  let i = call.at + 1;
  for (; i < call.words.length; i++) {
    const w = literalAt(call, i);
    if (w === undefined) return { opaque: '"git" has a computed argument' };
    if (w === "-c" || w.startsWith("--config-env") || w.startsWith("--exec-path")) return { opaque: `"git ${w}" sets configuration or a program path that can run other programs` };
    if (["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--list-cmds"].includes(w)) i++;
    else if (!w.startsWith("-")) break;
  }
  const sub = literalAt(call, i);
  const rest = call.words.slice(i + 1).map((_, k) => literalAt(call, i + 1 + k));
  if (rest.some((w) => w === undefined)) return { opaque: `"git ${sub}" has a computed argument` };
  const has = (...flags: string[]) => rest.some((w) => flags.some((f) => w === f || w!.startsWith(`${f}=`)));
  const why = (what: string) => ({ opaque: `"git ${sub}" ${what}` });
  switch (sub) {
    case "rebase":
      return has("-x", "--exec") ? why("--exec runs a command") : {};
    case "bisect":
      return rest[0] === "run" ? { programsAt: [i + 2] } : {};
    case "submodule":
      return rest.includes("foreach") ? why("foreach runs a command through a shell") : {};
    case "filter-branch":
    case "filter-repo":
    case "mergetool":
      return why("runs commands it is given");
    case "difftool":
      return has("-x", "--extcmd", "-t", "--tool") ? why("runs the tool it is given") : {};
    case "grep":
      return has("-O", "--open-files-in-pager") ? why("runs the pager it is given") : {};
    case "config":
      return rest.some((w) => GIT_EXEC_KEY.test(w!)) || has("-e", "--edit") ? why("sets configuration that can run programs") : {};
    case "clone":
    case "fetch":
    case "pull":
    case "push":
    case "ls-remote":
    case "archive":
    case "remote":
    case "submodule--helper":
      return has("-u", "--upload-pack", "--receive-pack", "--exec", "-c", "--config") ? why("runs the remote helper program it is given") : {};
    default:
      return {};
  }
}

/** `make`: a makefile from the command line, `--eval` text or a variable override (`CC='rm -rf x;'`) changes what its recipes run. */
export function makeFacts(call: ProgramCall): ProgramFacts {
  for (const i of argIndexes(call)) {
    const w = literalAt(call, i);
    if (w === undefined) return { opaque: '"make" has a computed argument' };
    if (/^(-f|--file|--makefile|-E|--eval)(=|$)/.test(w) || /^-[a-zA-Z]*f/.test(w)) return { opaque: `"make ${w}" runs recipes pith does not read` };
    if (/^[^-=][^=]*=/.test(w)) return { opaque: `"make ${w}" overrides a variable its recipes run` };
  }
  return {};
}

/** `env`: wraps a program; `-S` splits a string into a command line; some variables choose what programs run. */
export function envFacts(call: ProgramCall): ProgramFacts {
  for (const i of argIndexes(call)) {
    const w = literalAt(call, i);
    if (w === undefined) return { programsAt: everyTail(call), opaque: '"env" has a computed argument' };
    if (hasFlag(call, i, ["--split-string"], "S")) return { opaque: '"env -S" splits a string into a command pith does not read' };
    const eq = w.indexOf("=");
    if (eq > 0 && !w.startsWith("-") && !harmlessVariable(w.slice(0, eq))) return { opaque: `"env ${w.slice(0, eq)}=…" sets a variable that chooses what programs run` };
  }
  return { programsAt: everyTail(call) };
}

/** `sudo` / `doas`: wrappers, except `-s` / `-i`, which run the words through a shell. */
export function sudoFacts(call: ProgramCall): ProgramFacts {
  const values = ["-u", "-g", "-h", "-p", "-U", "-C", "-D", "-r", "-t", "-T", "-R"];
  for (let i = call.at + 1; i < call.words.length; i++) {
    const w = literalAt(call, i);
    if (w === undefined || !w.startsWith("-") || w === "--") break;
    if (values.includes(w)) i++;
    else if (w === "--shell" || w === "--login" || /^-[A-Za-z]*[si]/.test(w)) return { opaque: `"${programName(call)} ${w}" runs the command through a shell` };
  }
  return { programsAt: everyTail(call) };
}
