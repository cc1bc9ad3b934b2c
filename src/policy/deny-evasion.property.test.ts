// Property-based attack on a `bash(rm:*)` deny rule: fast-check builds a command that runs `rm`
// through up to four disguises stacked on each other (name quoting and globs, line
// continuations, wrappers, shells fed by -c, eval, pipes, here-strings and here-documents,
// interpreters, find -exec, aliases, coproc, nesting in substitutions and control flow), and
// the rule must still deny it in every mode, whatever the allow rules say.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useScratch } from "../../test/support/policy.js";
import type { PermissionMode } from "./types.js";

const t = useScratch();

/** Single-quoted for the shell. */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Double-quoted for the shell. */
const dq = (s: string) => `"${s.replace(/[\\"$`]/g, "\\$&")}"`;

const names = fc.constantFrom("rm", "'rm'", '"rm"', "r''m", 'r""m', "\\rm", "r\\m", "r\\\nm", "/bin/rm", "/usr/bin/r?", "/bin/r[m]", "/usr/*/rm", "r*", "$RM", "${RM}", '"$(echo rm)"', "`echo rm`", "$'\\x72m'");
const args = fc.array(fc.constantFrom("-rf", "x", "build/", "-f", "--", "'a b'", "*.log", "\\\n  y"), { maxLength: 3 });
const base = fc.tuple(names, args).map(([n, a]) => [n, ...a].join(" "));

type Disguise = (cmd: string, depth: number) => string;

const DISGUISES: Record<string, Disguise> = {
  sudo: (c) => `sudo ${c}`,
  env: (c) => `env FOO=1 ${c}`,
  nice: (c) => `nice -n 5 ${c}`,
  timeout: (c) => `timeout 5 ${c}`,
  nohup: (c) => `nohup ${c}`,
  command: (c) => `command ${c}`,
  exec: (c) => `exec ${c}`,
  busybox: (c) => `busybox sh -c ${sq(c)}`,
  coproc: (c) => `coproc ${c}`,
  xargs: (c) => `echo f | xargs sh -c ${sq(c)}`,
  shc: (c) => `sh -c ${sq(c)}`,
  bashcDq: (c) => `bash -c ${dq(c)}`,
  bashOpts: (c) => `bash -e -o pipefail -c ${sq(c)}`,
  eval: (c) => `eval ${sq(c)}`,
  evalDq: (c) => `eval ${dq(c)}`,
  pipe: (c) => `echo ${sq(c)} | sh`,
  printfPipe: (c) => `printf '%s\\n' ${sq(c)} | bash -s`,
  herestring: (c) => `bash <<<${sq(c)}`,
  heredoc: (c, d) => `sh <<'E${d}'\n${c}\nE${d}\n`,
  heredocCat: (c, d) => `cat <<'E${d}' | sh\n${c}\nE${d}\n`,
  source: (c) => `. /dev/stdin <<<${sq(c)}`,
  procSubst: (c) => `source <(echo ${sq(c)})`,
  trap: (c) => `trap ${sq(c)} EXIT`,
  findExec: (c) => `find . -maxdepth 0 -exec sh -c ${sq(c)} \\;`,
  awk: (c) => `awk ${sq(`BEGIN{system("${c.replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\n")}")}`)}`,
  perl: (c) => `perl -e ${sq(`system(q{${c}})`)}`,
  python: (c) => `python3 -c ${sq(`import os; os.system(${JSON.stringify(c)})`)}`,
  node: (c) => `node -e ${sq(`require("child_process").execSync(${JSON.stringify(c)})`)}`,
  gitAlias: (c) => `git -c alias.z=${sq(`!${c}`)} z`,
  alias: (c) => `shopt -s expand_aliases\nalias z=${sq(c)}\nz`,
  subshell: (c) => `(${c}\n)`,
  brace: (c) => `{ ${c}\n}`,
  subst: (c) => `echo "$(${c}\n)"`,
  ifThen: (c) => `if true; then ${c}\nfi`,
  func: (c) => `f() { ${c}\n}; f`,
  andThen: (c) => `true && ${c}`,
  pipeOut: (c) => `${c}\n`.replace(/\n$/, "") + " | cat",
  background: (c) => `{ ${c}\n} & wait`,
  whileLoop: (c) => `while true; do ${c}\nbreak; done`,
};

/** Wrappers that take a simple command (`sudo if …` is a syntax error bash never runs): used while the command is still simple. */
const SIMPLE_ONLY = new Set(["sudo", "env", "nice", "timeout", "nohup", "command", "exec", "coproc"]);

const disguise = fc.constantFrom(...Object.keys(DISGUISES));
const attack = fc.tuple(base, fc.array(disguise, { minLength: 1, maxLength: 4 })).map(([cmd, wanted]) => {
  let simple = true;
  const chain = wanted.filter((name) => {
    if (SIMPLE_ONLY.has(name) && !simple) return false;
    simple &&= SIMPLE_ONLY.has(name);
    return true;
  });
  return { chain, command: chain.reduce((c, name, depth) => DISGUISES[name](c, depth), cmd) };
});

const allowLists = fc.subarray(["bash(*)", "bash", "bash(sh:*)", "bash(bash:*)", "bash(echo:*)", "bash(env:*)", "bash(sudo:*)", "bash(find:*)", "bash(awk:*)", "bash(python3:*)", "bash(git:*)", "bash(cat:*)"]);
const modes = fc.constantFrom<PermissionMode>("allow", "ask", "ask-writes", "read-only");

describe("deny means deny, property-based", () => {
  it("no stack of disguises gets `rm` past a bash(rm:*) deny rule", async () => {
    await fc.assert(
      fc.asyncProperty(attack, allowLists, modes, async ({ chain, command }, allow, mode) => {
        const d = await t.decide("bash", { command }, { allow, deny: ["bash(rm:*)"] }, mode);
        expect(d.decision, `${chain.join(" → ")}\n${command}\n${d.reason}`).toBe("deny");
        expect(d.rule).toBe("bash(rm:*)");
      }),
      { numRuns: 400 },
    );
  });

  it("under an ask rule the same stacks always ask, never run silently", async () => {
    await fc.assert(
      fc.asyncProperty(attack, async ({ chain, command }) => {
        const d = await t.decide("bash", { command }, { allow: ["bash(*)"], ask: ["bash(rm:*)"] }, "allow");
        expect(d.decision, `${chain.join(" → ")}\n${command}\n${d.reason}`).toBe("ask");
      }),
      { numRuns: 200 },
    );
  });
});
