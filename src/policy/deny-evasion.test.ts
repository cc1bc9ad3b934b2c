// Attacking a `bash(rm:*)` deny rule the way a prompt-injected model would: every form below
// runs `rm` (or may run it) and must never be allowed, in any mode, whatever the allow rules
// say. The first block is the list of forms that once deleted a file past the rule; the rest
// extends it with the wrappers, interpreters and shell features an attacker reaches for next.
import { describe, expect, it } from "vitest";
import { useScratch } from "../../test/support/policy.js";
import type { PermissionMode } from "./types.js";

const t = useScratch();
const MODES: PermissionMode[] = ["allow", "ask", "ask-writes", "read-only"];

/** The forms that once got past the rule. */
export const REPORTED = [
  "bash <<<'rm f1'",
  "echo 'rm f2' | sh",
  "sh <<EOF\nrm f3\nEOF\n",
  "/usr/bin/r[m] f4",
  "/usr/bin/r? f5",
  "find . -name f6 -exec rm {} +",
  "shopt -s expand_aliases\nalias x=rm\nx f7",
  "coproc rm f8",
  "r\\\nm f9",
  "awk 'BEGIN{system(\"rm f10\")}'",
];

/** Forms that were already denied or asked, and must stay so. */
const KEPT = [
  "'r'm x", 'r""m x', "\\rm x", "r\\m x", '"rm" x', "eval 'rm x'", 'eval "rm x"', "bash -c 'rm x'", "env rm x", "command rm x",
  "$(echo rm) x", "`echo rm` x", "echo $(rm x)", "echo `rm x`", 'echo "$(rm x)"', "sudo rm x", "timeout 5 rm x", "nice -n 5 rm x",
  "nohup rm x", "xargs rm < list", "X=1 rm x", "(rm x)", "{ rm x; }", "if true; then rm x; fi", "f() { rm x; }; f", "cat <(rm x)",
];

/** An attacker's next tries: wrappers, interpreters, shell features, configuration. */
const EXTENDED = [
  // shells reading text pith can or cannot see
  "cat <<'EOF' | sh\nrm x\nEOF\n", "sh -s <<<'rm x'", "dash < script.sh", "bash script.sh", ". /dev/stdin <<<'rm x'", "source <(echo rm x)",
  "bash -c -e 'rm x'", "bash -ec 'rm x'", "bash -O extglob -c 'rm x'", "bash --norc -c 'x=1; rm y'", "sh -c \"$SCRIPT\"", "eval \"$CMD\"",
  "printf 'rm x\\n' | bash", "zsh -c 'rm x'", "busybox sh -c 'rm x'", "nohup sh -c 'a; rm x' &", "sudo sh -c 'a; rm x'",
  "sudo -s 'rm x'", "su -c 'rm x' root", "script -qc 'rm x' /dev/null", "flock /tmp/l -c 'rm x'", "watch -n 1 'rm x'", "trap 'rm x' EXIT",
  "xargs -I{} sh -c 'rm {}' < list", "npx -c 'rm x'",
  // program names pith cannot know
  "/bin/r* x", "r{m,} x", "{rm,x}", "$'\\x72m' x", '"$X" x', "${X} x", "$X x", "x=rm; $x f", "\"$(printf rm)\" x",
  // programs that run their arguments
  "find . -execdir rm {} \\;", "find . -ok rm {} \\;", "find . -okdir rm {} \\;", "find . $ARG rm {} +", "fd -x rm", "fdfind --exec rm",
  "cmake -E rm x", "exec rm x", "time rm x", "stdbuf -o0 rm x", "setsid rm x", "busybox rm x", "env -i rm x", "env -S 'rm x'",
  "doas rm x", "git bisect run rm x", "git -c alias.z='!rm x' z", "git -c core.pager='rm x' log", "git rebase -x 'rm x' HEAD~1",
  "git submodule foreach 'rm x'", "git config alias.z '!rm x'", "make -f /dev/stdin <<<'all:; rm x'", "make CC='rm x;' all",
  "tar --to-command='rm x' -xf a.tar", "rsync -e 'rm x' a b:", "vim -c '!rm x'", "ssh localhost rm x",
  // interpreters and command languages
  "gawk 'BEGIN{system(\"rm x\")}'", "awk '{print | \"sh\"}' f", "awk -f prog.awk", "perl -e 'system(\"rm x\")'", "perl -ne 'unlink'",
  "python3 -c 'import os; os.remove(\"x\")'", "python3 <<'EOF'\nimport os\nEOF\n", "echo 'import os' | python3", "node -e 'require(\"fs\").rmSync(\"x\")'",
  "ruby -e 'File.delete(\"x\")'", "php -r 'unlink(\"x\");'", "lua -e 'os.remove(\"x\")'", "sed 'e rm x' f", "sed 's/a/rm x/e' f", "sed -f cmds.sed f",
  // variables that choose programs, aliases, arithmetic on hidden values
  "PATH=. ls", "export PATH=.:$PATH; ls", "declare -x BASH_ENV=x; bash -c ls", "env LD_PRELOAD=./x.so ls", "BASH_ENV=x bash -c ls",
  "GIT_SSH_COMMAND='rm x' git fetch", "alias ls='rm x'", "enable -f ./x.so rm", "hash -p /bin/rm ls; ls x", "x='a[$(rm y)]'; echo $((x))",
  "read v < f; [[ $v -eq 1 ]]",
  // a broken line pith cannot parse
  'rm x; echo "unterminated',
];

describe("deny means deny: a bash(rm:*) rule against every disguise", () => {
  const all = [...REPORTED, ...KEPT, ...EXTENDED];

  it.each(all)("%j is denied in every mode, whatever the allow rules", async (command) => {
    for (const mode of MODES) {
      for (const allow of [[], ["bash(*)"], ["bash(sh:*)", "bash(awk:*)", "bash(find:*)", "bash(env:*)", "bash(git:*)", "bash(python3:*)"]]) {
        const d = await t.decide("bash", { command }, { allow, deny: ["bash(rm:*)"] }, mode);
        expect(d, `${mode} ${allow.join(",")}`).toMatchObject({ decision: "deny", rule: "bash(rm:*)", list: "deny" });
      }
    }
  });

  it.each(all)("%j is asked under an ask rule, and its reason names the rule", async (command) => {
    const d = await t.decide("bash", { command }, { allow: ["bash(*)"], ask: ["bash(rm:*)"] }, "allow");
    expect(d).toMatchObject({ decision: "ask", rule: "bash(rm:*)", list: "ask" });
    expect(d.reason).toContain('"bash(rm:*)"');
  });
});

describe("what stays allowed: commands pith can read completely", () => {
  const fine = [
    "ls -la", "git status && npm test", "find . -name '*.ts' -exec grep -l x {} +", "awk '{print $1}' f", "awk -F: '$1 == \"a\" || $2 == \"b\" {print}' f",
    "sed -n 's/foo/bar/p' f", "sed -i 's/hello/world/g' f", "python3 tool.py --flag", "node build.js", "bash -c 'ls && git status'",
    "sh <<'EOF'\nls\nEOF\n", "make build", "git log --oneline", "GIT_DIR=/x git status", "echo $((1 + 2))", "timeout 5 npm test",
    "xargs grep x < list", "env FOO=1 npm test", "FOO=1 npm test", "git -C sub status", "r\\\nm_ls_tool x",
  ];

  it.each(fine)("%j is not denied by bash(rm:*)", async (command) => {
    const d = await t.decide("bash", { command }, { deny: ["bash(rm:*)"] }, "allow");
    expect(d.decision, d.reason).toBe("allow");
  });
});
