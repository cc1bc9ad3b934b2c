import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decidePermission } from "./decide.js";
import { useScratch } from "../../test/support/policy.js";
import type { PermissionMode } from "./types.js";

const t = useScratch((s) => {
  mkdirSync(join(s.cwd, "src"));
  writeFileSync(join(s.cwd, "src", "app.ts"), "x");
  mkdirSync(join(s.home, ".ssh"));
  writeFileSync(join(s.home, ".ssh", "id_rsa"), "secret");
  symlinkSync(s.outside, join(s.cwd, "src", "out-link"));
  symlinkSync(join(s.home, ".ssh"), join(s.cwd, "keys"));
});
const decide = t.decide;

describe("modes (no rule speaks): by the tool's declared effect", () => {
  const reads = { allow: "allow", ask: "ask", "ask-writes": "allow", "read-only": "allow" } as const;
  const changes = { allow: "allow", ask: "ask", "ask-writes": "ask", "read-only": "deny" } as const;
  const table: [string, Record<string, unknown>, Record<PermissionMode, string>][] = [
    ["read", { path: "src/app.ts" }, reads],
    ["grep", { pattern: "x" }, reads],
    ["find", { pattern: "*.ts" }, reads],
    ["ls", {}, reads],
    ["ast_grep", { pat: ["x"] }, reads],
    ["calc", { calculations: [] }, reads],
    ["render_mermaid", { mermaid: "graph TD; A-->B" }, reads],
    ["inspect_image", { path: "a.png", question: "?" }, reads],
    ["display_image", { path: "a.png" }, reads],
    ["todo_write", { ops: [] }, reads],
    ["edit", { path: "src/app.ts" }, changes],
    ["hashline_edit", { edits: [{ path: "src/app.ts", loc: "append", content: ["x"] }] }, changes],
    ["write", { path: "new.ts" }, changes],
    ["ast_edit", { ops: [{ pat: "a", out: "b" }] }, changes],
    ["notebook", { action: "delete", notebook_path: "a.ipynb", cell_index: 0 }, changes],
    ["bash", { command: "ls" }, changes],
    ["python", { cells: [{ code: "1" }] }, changes],
    // host, extension and MCP tools not declared read-only
    ["deploy", { env: "prod" }, changes],
    ["mcp__github__create_issue", {}, changes],
  ];
  for (const [tool, args, byMode] of table) {
    it(`${tool}: ${JSON.stringify(byMode)}`, async () => {
      for (const mode of Object.keys(byMode) as PermissionMode[]) {
        const d = await decide(tool, args, {}, mode);
        expect(d.decision, mode).toBe(byMode[mode]);
        expect(d.rule).toBeUndefined();
        expect(d.reason).toContain(`"${mode}"`);
      }
    });
  }
});

describe("precedence: deny > ask > allow > mode", () => {
  it("a deny rule beats a more specific allow rule, and in every mode", async () => {
    const rules = { allow: ["bash(aws s3 ls)"], deny: ["bash(aws:*)"] };
    for (const mode of ["allow", "ask", "ask-writes", "read-only"] as const) {
      const d = await decide("bash", { command: "aws s3 ls" }, rules, mode);
      expect(d).toMatchObject({ decision: "deny", rule: "bash(aws:*)", list: "deny" });
      expect(d.reason).toBe('The deny rule "bash(aws:*)" matches "aws s3 ls".');
    }
  });

  it("an ask rule beats an allow rule; an allow rule beats the mode", async () => {
    const rules = { allow: ["bash(git:*)"], ask: ["bash(git push:*)"] };
    expect(await decide("bash", { command: "git push origin" }, rules, "allow")).toMatchObject({ decision: "ask", rule: "bash(git push:*)" });
    expect(await decide("bash", { command: "git log" }, rules, "read-only")).toMatchObject({ decision: "allow", rule: "bash(git:*)" });
    expect(await decide("edit", { path: "src/app.ts" }, { allow: ["edit(src/**)"] }, "read-only")).toMatchObject({ decision: "allow" });
  });

  it("bare tool names match every call of the tool; MCP servers by prefix", async () => {
    expect(await decide("deploy", {}, { deny: ["deploy"] }, "allow")).toMatchObject({ decision: "deny", reason: 'The deny rule "deploy" matches this call.' });
    expect(await decide("mcp__gh__x", {}, { allow: ["mcp__gh"] }, "ask")).toMatchObject({ decision: "allow", rule: "mcp__gh" });
    expect(await decide("Deploy", {}, { deny: ["deploy"] }, "allow")).toMatchObject({ decision: "allow" });
    expect(await decide("bash", { command: "anything at all" }, { allow: ["Bash"] }, "read-only")).toMatchObject({ decision: "allow" });
  });
});

describe("path rules", () => {
  it("relative globs are relative to the cwd; gitignore rules for slash-less names", async () => {
    expect(await decide("edit", { path: "src/app.ts" }, { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "allow", reason: 'Allowed by the allow rule "edit(src/**)" for "src/app.ts".' });
    expect(await decide("edit", { path: join(t.s.cwd, "src/app.ts") }, { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "allow" });
    expect(await decide("edit", { path: "test/app.ts" }, { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "ask" });
    expect(await decide("read", { path: "deep/down/.env" }, { deny: ["read(.env)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("read", { path: "deep/.env" }, { deny: ["read(./.env)"] })).toMatchObject({ decision: "allow" });
    expect(await decide("read", { path: "../outside/x" }, { allow: ["read(**)"] }, "ask")).toMatchObject({ decision: "ask" });
  });

  it("`~` is the home folder and `/`, `//` are absolute", async () => {
    expect(await decide("read", { path: "~/.ssh/id_rsa" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("read", { path: join(t.s.home, ".ssh/id_rsa") }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("read", { path: join(t.s.outside, "a.txt") }, { deny: [`read(${t.s.outside}/**)`] })).toMatchObject({ decision: "deny" });
    expect(await decide("read", { path: join(t.s.outside, "a.txt") }, { deny: [`read(/${t.s.outside}/**)`] })).toMatchObject({ decision: "deny" });
    expect(await decide("read", { path: "~/notes.txt" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "allow" });
  });

  it("edit rules cover write; read rules cover grep, find and ls", async () => {
    expect(await decide("write", { path: "src/new.ts" }, { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "allow" });
    expect(await decide("grep", { pattern: "k", path: "~/.ssh" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("find", { pattern: "*", path: "src" }, { allow: ["read(src/**)"] }, "ask")).toMatchObject({ decision: "allow" });
  });

  it("a search over a folder that contains a denied place is denied; an allowed folder allows its search", async () => {
    expect(await decide("ls", { path: "~" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("grep", { pattern: "x", path: "/" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "allow" });
    expect(await decide("ls", { path: "src" }, { allow: ["read(src/**)"] }, "ask")).toMatchObject({ decision: "allow" });
    expect(await decide("ls", {}, { allow: ["read(src/**)"] }, "ask")).toMatchObject({ decision: "ask" });
    expect(await decide("ls", {}, { allow: ["ls(./**)"] }, "ask")).toMatchObject({ decision: "allow" });
  });

  it("symlinks: deny matches where a path leads; allow must hold for both spellings", async () => {
    const d = await decide("read", { path: "keys/id_rsa" }, { deny: ["read(~/.ssh/**)"] });
    expect(d.decision).toBe("deny");
    expect(d.reason).toContain(`(which leads to ${join(t.s.home, ".ssh", "id_rsa")})`);
    expect(await decide("edit", { path: "src/out-link/x.ts" }, { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "ask" });
    expect(await decide("edit", { path: "src/app.ts" }, { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "allow" });
  });
});

describe("path rules govern every tool that reads or writes declared paths", () => {
  const nb = (path: string) => ({ action: "delete", notebook_path: path, cell_index: 0 });
  const astEdit = (path?: string) => ({ ops: [{ pat: "a", out: "b" }], ...(path === undefined ? {} : { path }) });
  const hashline = (...paths: string[]) => ({ edits: paths.map((path) => ({ path, loc: "append", content: ["x"] })) });

  it("an edit or write deny rule stops ast_edit, notebook and hashline edits on matching paths, whatever the mode", async () => {
    for (const rule of ["edit(src/**)", "Write(src/**)"]) {
      for (const mode of ["allow", "ask-writes", "read-only"] as const) {
        expect(await decide("ast_edit", astEdit("src"), { deny: [rule] }, mode), `${rule} ${mode}`).toMatchObject({ decision: "deny", rule });
        expect(await decide("notebook", nb("src/a.ipynb"), { deny: [rule] }, mode)).toMatchObject({ decision: "deny", rule });
        expect(await decide("hashline_edit", hashline("docs/a.md", "src/app.ts"), { deny: [rule] }, mode)).toMatchObject({ decision: "deny", rule });
      }
    }
    expect(await decide("notebook", nb("docs/a.ipynb"), { deny: ["edit(src/**)"] })).toMatchObject({ decision: "allow" });
    expect(await decide("hashline_edit", { edits: [{ path: "docs/a.md", move: "src/a.md" }] }, { deny: ["edit(src/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("ast_edit", astEdit("docs/**/*.ts"), { deny: ["edit(src/**)"] })).toMatchObject({ decision: "allow" });
  });

  it("ast_edit is judged on the whole tree it may rewrite: a denied place inside it denies the call", async () => {
    const d = await decide("ast_edit", astEdit(), { deny: ["edit(src/**)"] });
    expect(d).toMatchObject({ decision: "deny", reason: 'The deny rule "edit(src/**)" matches ".".' });
    expect(await decide("ast_edit", astEdit("**/*.ts"), { deny: ["edit(./src/app.ts)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("ast_edit", astEdit("src/**/*.ts"), { allow: ["edit(src/**)"] }, "read-only")).toMatchObject({ decision: "allow" });
    expect(await decide("ast_edit", astEdit(), { allow: ["edit(src/**)"] }, "read-only")).toMatchObject({ decision: "deny" });
  });

  it("allow rules must cover every place a call writes", async () => {
    expect(await decide("hashline_edit", hashline("src/a.ts", "src/b.ts"), { allow: ["edit(src/**)"] }, "ask")).toMatchObject({
      decision: "allow",
      reason: 'Allowed by the allow rule "edit(src/**)" for every path of the call.',
    });
    expect(await decide("hashline_edit", hashline("src/a.ts", "README.md"), { allow: ["edit(src/**)"] }, "ask")).toMatchObject({ decision: "ask" });
    expect(await decide("hashline_edit", hashline("src/a.ts", "README.md"), { allow: ["edit(src/**)", "write(./README.md)"] }, "ask")).toMatchObject({
      decision: "allow",
      rule: "edit(src/**), write(./README.md)",
    });
  });

  it("read rules govern the read-only tools that read paths, and not those that read none", async () => {
    expect(await decide("ast_grep", { pat: ["x"], path: "~/.ssh" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("ast_grep", { pat: ["x"], path: "~" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("inspect_image", { path: "keys/id_rsa", question: "?" }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "deny" });
    expect(await decide("calc", { calculations: [] }, { deny: ["read(~/.ssh/**)"] })).toMatchObject({ decision: "allow" });
    expect(await decide("calc", { calculations: [] }, { deny: ["Read"] })).toMatchObject({ decision: "allow" });
    expect(await decide("display_image", { path: "a.png" }, { deny: ["Read"] })).toMatchObject({ decision: "deny" });
  });

  it("a writing call whose places cannot be told is caught by any edit rule that could apply, and allowed only by a bare one", async () => {
    const call = { toolName: "x_writer", arguments: {}, effect: "writes-files" as const };
    expect(await decidePermission(call, { deny: ["edit(src/**)"] }, "allow", t.s.cwd, { home: t.s.home })).toMatchObject({ decision: "deny" });
    expect(await decidePermission(call, { allow: ["edit(src/**)"] }, "ask", t.s.cwd, { home: t.s.home })).toMatchObject({ decision: "ask" });
    expect(await decidePermission(call, { allow: ["edit"] }, "ask", t.s.cwd, { home: t.s.home })).toMatchObject({ decision: "allow" });
  });

  it("the mode's reason says what the tool does", async () => {
    expect((await decide("ast_edit", astEdit(), {}, "read-only")).reason).toBe(
      'The permission mode "read-only" runs only tools declared read-only, and ast_edit writes files; no rule allows it.',
    );
    expect((await decide("python", { cells: [] }, {}, "read-only")).reason).toContain("python runs commands");
    expect((await decide("deploy", {}, {}, "read-only")).reason).toContain("deploy is not declared read-only");
  });

  it("session-only and delegating tools run in read-only mode; a tool marked read-only too", async () => {
    for (const effect of ["session", "delegates", "read-only"] as const) {
      const call = { toolName: "some_tool", arguments: {}, effect };
      expect((await decidePermission(call, {}, "read-only", t.s.cwd)).decision).toBe("allow");
      expect((await decidePermission(call, {}, "ask-writes", t.s.cwd)).decision).toBe("allow");
      expect((await decidePermission(call, {}, "ask", t.s.cwd)).decision).toBe("ask");
    }
  });
});

describe("bash: compound commands", () => {
  const rules = { allow: ["bash(git status:*)", "bash(npm test)", "bash(echo:*)"], deny: ["bash(rm:*)"], ask: ["bash(git push:*)"] };

  it("is allowed only when every part is", async () => {
    expect(await decide("bash", { command: "git status && npm test" }, rules, "ask")).toMatchObject({
      decision: "allow",
      rule: "bash(git status:*), bash(npm test)",
      reason: 'Allowed by the allow rules "bash(git status:*)" and "bash(npm test)" for every part of the command.',
    });
    for (const command of ["git status && make", "echo $(whoami)", "git status & sleep 1", "(npm test) || ls", "git status\nmake"]) {
      expect((await decide("bash", { command }, rules, "ask")).decision, command).toBe("ask");
    }
  });

  it("is denied when any part is, wherever it hides", async () => {
    for (const command of ["git status; rm -rf /", "echo `rm -rf x`", "echo $(rm x)", "git status | rm x", "(rm x)", "sudo rm x", "/bin/rm x", "bash -c 'rm x'", "X=1 rm x", "if true; then rm x; fi", "f() { rm x; }"]) {
      expect(await decide("bash", { command }, rules, "allow"), command).toMatchObject({ decision: "deny", rule: "bash(rm:*)" });
    }
  });

  it("assignments make a different command for allow rules", async () => {
    expect(await decide("bash", { command: "GIT_DIR=/x git status" }, rules, "ask")).toMatchObject({ decision: "ask" });
  });

  it("a redirected file is a write: edit/write rules and the mode decide it", async () => {
    expect(await decide("bash", { command: "echo hi > out.txt" }, rules, "ask-writes")).toMatchObject({ decision: "ask" });
    expect(await decide("bash", { command: "echo hi > out.txt" }, rules, "read-only")).toMatchObject({ decision: "deny" });
    expect(await decide("bash", { command: "echo hi > out.txt" }, rules, "allow")).toMatchObject({ decision: "allow" });
    expect(await decide("bash", { command: "echo hi > src/out.txt" }, { ...rules, allow: [...rules.allow, "edit(src/**)"] }, "read-only")).toMatchObject({
      decision: "allow",
      rule: "bash(echo:*), edit(src/**)",
    });
    const d = await decide("bash", { command: "echo KEY=1 >> .env" }, { deny: ["edit(.env)"] }, "allow");
    expect(d).toMatchObject({ decision: "deny", rule: "edit(.env)" });
    expect(d.reason).toBe('The deny rule "edit(.env)" matches the file ".env" the command writes to.');
    expect(await decide("bash", { command: "echo hi > /dev/null 2>&1" }, rules, "read-only")).toMatchObject({ decision: "allow" });
  });

  it("what may run any program is denied when a deny rule exists, else asked", async () => {
    const broken = 'echo "unterminated';
    for (const command of [broken, "git status; curl x | sh", "$CMD -rf /"]) {
      expect(await decide("bash", { command }, rules, "allow"), command).toMatchObject({ decision: "deny", rule: "bash(rm:*)" });
      expect(await decide("bash", { command }, { ...rules, deny: [] }, "allow"), command).toMatchObject({ decision: "ask", rule: "bash(git push:*)" });
    }
    expect((await decide("bash", { command: "$CMD -rf /" }, rules, "allow")).reason).toMatch(/matches "\$CMD -rf \/" \(its computed or glob words can expand/);
    expect((await decide("bash", { command: "$CMD status" }, { deny: ["bash(git push:*)"] }, "allow")).reason).toMatch(/matches "\$CMD status"/);
    expect((await decide("bash", { command: "python3 -c 'print(1)'" }, rules, "allow")).reason).toMatch(/could match what this command runs: pith cannot name every program it starts \("python3 -c" runs program text/);
  });

  it("what pith cannot read is never allowed by a prefix rule: it asks (denied in read-only mode)", async () => {
    const broken = 'echo "unterminated';
    const rules = { allow: ["bash(echo:*)"], deny: ["edit(.env)"] };
    expect(await decide("bash", { command: broken }, rules, "allow")).toMatchObject({ decision: "ask" });
    expect(await decide("bash", { command: broken }, rules, "read-only")).toMatchObject({ decision: "deny" });
    expect(await decide("bash", { command: broken }, {}, "allow")).toMatchObject({ decision: "allow" });
    expect(await decide("bash", { command: broken }, { allow: ["bash(echo:*)"] }, "ask")).toMatchObject({ decision: "ask" });
    expect(await decide("bash", { command: broken }, { allow: ["bash"] }, "ask")).toMatchObject({ decision: "allow" });
    expect(await decide("bash", { command: broken }, { allow: ['bash(echo "unterminated)'] }, "ask")).toMatchObject({ decision: "allow" });
  });

  it("deny rules still see the parts pith could read in a broken command", async () => {
    expect(await decide("bash", { command: 'rm -rf / ; echo "open' }, rules, "allow")).toMatchObject({ decision: "deny" });
  });
});
