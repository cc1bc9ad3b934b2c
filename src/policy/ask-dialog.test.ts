import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allowRulesFor } from "./allow-always.js";
import { deniedResultText, permissionDialog, permissionTitle, readPermissionAnswer } from "./ask-dialog.js";
import { callOf, useScratch } from "../../test/support/policy.js";

const t = useScratch();
const decide = t.decide;

const rulesFor = (toolName: string, args: Record<string, unknown>) => allowRulesFor(callOf(toolName, args), t.s.cwd, t.s.home);

describe("Allow always: the rule recorded for a call", () => {
  it("bash: a command-and-subcommand prefix per part, a write rule per redirected file", async () => {
    expect(await rulesFor("bash", { command: "git commit -m 'a b'" })).toEqual(["bash(git commit:*)"]);
    expect(await rulesFor("bash", { command: "npm run build && ls -la | wc -l" })).toEqual(["bash(npm run build:*)", "bash(ls:*)", "bash(wc:*)"]);
    expect(await rulesFor("bash", { command: "npm test > out/log.txt" })).toEqual(["bash(npm test:*)", "write(out/log.txt)"]);
    expect(await rulesFor("bash", { command: "FOO=1 make check" })).toEqual(["bash(FOO=1 make check:*)"]);
  });

  it("bash: an exact rule where a prefix would grant more than was asked", async () => {
    expect(await rulesFor("bash", { command: "sudo apt-get install x" })).toEqual(["bash(sudo apt-get install x)"]);
    expect(await rulesFor("bash", { command: "git push $REMOTE" })).toEqual(["bash(git push $REMOTE)"]);
    expect(await rulesFor("bash", { command: "find . -name '*.ts' -exec rm {} \\;" })).toEqual(["bash(find . -name \\*.ts -exec rm {} ;)"]);
    expect(await rulesFor("bash", { command: 'echo "unterminated' })).toEqual(['bash(echo "unterminated)']);
  });

  it("the recorded rules allow the same call next time, in every mode", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["bash", { command: "npm run build && ls -la | wc -l" }],
      ["bash", { command: "npm test > out/log.txt" }],
      ["bash", { command: "find . -name '*.ts' -exec rm {} \\;" }],
      ["bash", { command: 'echo "unterminated' }],
      ["bash", { command: "git push $REMOTE" }],
      ["edit", { path: "src/app.ts" }],
      ["write", { path: "README.md" }],
      ["edit", { path: "~/notes/todo.md" }],
      ["write", { path: join(t.s.outside, "x[1].txt") }],
      ["grep", { pattern: "x" }],
      ["ls", { path: "src" }],
      ["mcp__github__create_issue", { title: "t" }],
    ];
    for (const [tool, args] of calls) {
      const allow = await rulesFor(tool, args);
      for (const mode of ["ask", "read-only"] as const) {
        expect((await decide(tool, args, { allow }, mode)).decision, `${tool} ${JSON.stringify(args)} with ${allow.join(", ")}`).toBe("allow");
      }
    }
  });

  it("path tools: the path relative to the cwd, under ~, or absolute; other tools: the bare name", async () => {
    expect(await rulesFor("edit", { path: "src/app.ts" })).toEqual(["edit(src/app.ts)"]);
    expect(await rulesFor("write", { path: "README.md" })).toEqual(["write(./README.md)"]);
    expect(await rulesFor("edit", { path: "~/notes/todo.md" })).toEqual(["edit(~/notes/todo.md)"]);
    expect(await rulesFor("write", { path: join(t.s.outside, "x[1].txt") })).toEqual([`write(${t.s.outside}/x\\[1\\].txt)`]);
    expect(await rulesFor("grep", { pattern: "x" })).toEqual(["grep(./**)"]);
    expect(await rulesFor("mcp__github__create_issue", { title: "t" })).toEqual(["mcp__github__create_issue"]);
  });

  it("other tools that declare paths: an edit rule per file they write, a read rule per place they read", async () => {
    expect(await rulesFor("ast_edit", { ops: [{ pat: "a", out: "b" }], path: "src/**/*.ts" })).toEqual(["edit(./src)"]);
    expect(await rulesFor("notebook", { action: "delete", notebook_path: "nb/a.ipynb", cell_index: 0 })).toEqual(["edit(nb/a.ipynb)"]);
    const hashline = { edits: [{ path: "a.ts", loc: "append", content: ["x"] }, { path: "b.ts", move: "lib/b.ts" }] };
    expect(await rulesFor("hashline_edit", hashline)).toEqual(["edit(./a.ts)", "edit(./b.ts)", "edit(lib/b.ts)"]);
    expect(await rulesFor("inspect_image", { path: "shot.png", question: "?" })).toEqual(["read(./shot.png)"]);
    expect(await rulesFor("python", { cells: [] })).toEqual(["python"]);
    for (const [tool, args] of [["ast_edit", { ops: [], path: "src/**/*.ts" }], ["hashline_edit", hashline]] as const) {
      const allow = await rulesFor(tool, args);
      expect((await decide(tool, args, { allow }, "read-only")).decision).toBe("allow");
    }
  });
});

describe("the approval dialog", () => {
  it("is a select with the three options and the structured permission payload", async () => {
    const call = { toolCallId: "call_1", toolName: "bash", arguments: { command: "git push origin main" } };
    const decision = await decide("bash", call.arguments, {}, "ask-writes");
    const dialog = await permissionDialog(call, decision, t.s.cwd, { timeoutMs: 30_000, home: t.s.home });
    expect(dialog).toEqual({
      method: "select",
      title: "Allow bash: git push origin main?",
      options: ["Allow once", "Allow always", "Deny"],
      timeout: 30_000,
      permission: {
        toolCallId: "call_1",
        toolName: "bash",
        arguments: { command: "git push origin main" },
        rule: "bash(git push origin:*)",
        reason: 'The permission mode "ask-writes" asks before bash runs unless a rule allows it.',
      },
      allowRules: ["bash(git push origin:*)"],
    });
  });

  it("offers no rule when an ask rule caught the call (ask outranks allow): Allow always allows this call only", async () => {
    const call = { toolCallId: "c", toolName: "bash", arguments: { command: "git push" } };
    const decision = await decide("bash", call.arguments, { ask: ["bash(git push:*)"] }, "allow");
    const dialog = await permissionDialog(call, decision, t.s.cwd, { home: t.s.home });
    expect(dialog.permission.rule).toBeUndefined();
    expect(dialog.timeout).toBeUndefined();
    expect(readPermissionAnswer(dialog, { value: "Allow always" })).toEqual({ verdict: "allow", always: false });
  });

  it("reads the answer: once, always (with the rules), deny; anything else denies with the reason", async () => {
    const call = { toolCallId: "c", ...callOf("edit", { path: "src/app.ts" }) };
    const dialog = await permissionDialog(call, await decide("edit", call.arguments, {}, "ask"), t.s.cwd, { home: t.s.home });
    expect(readPermissionAnswer(dialog, { value: "Allow once" })).toEqual({ verdict: "allow", always: false });
    expect(readPermissionAnswer(dialog, { value: "Allow always" })).toEqual({ verdict: "allow", always: true, rules: ["edit(src/app.ts)"] });
    expect(readPermissionAnswer(dialog, { value: "Deny" })).toEqual({ verdict: "deny", reason: "The user denied this call." });
    expect(readPermissionAnswer(dialog, { value: undefined })).toEqual({ verdict: "deny", reason: "The approval dialog was cancelled, so the call was denied." });
    expect(readPermissionAnswer(dialog, { value: "yes" })).toMatchObject({ verdict: "deny", reason: expect.stringContaining('not one of its options ("yes")') });
    expect(readPermissionAnswer(dialog, "timeout")).toMatchObject({ verdict: "deny", reason: expect.stringContaining("in time") });
    expect(readPermissionAnswer(dialog, "eof")).toMatchObject({ verdict: "deny", reason: expect.stringContaining("closed its input") });
    expect(readPermissionAnswer(dialog, "no-ui")).toMatchObject({ verdict: "deny", reason: expect.stringContaining("no one to ask") });
  });

  it("titles say what the call does, clipped to one line", () => {
    expect(permissionTitle(callOf("edit", { path: "src/a.ts" }))).toBe("Allow edit: src/a.ts?");
    expect(permissionTitle(callOf("ls", {}))).toBe("Allow ls: .?");
    expect(permissionTitle(callOf("hashline_edit", { edits: [{ path: "a.ts" }, { path: "b.ts", move: "c.ts" }] }))).toBe("Allow edit: a.ts, b.ts, c.ts?");
    expect(permissionTitle({ toolName: "grep", arguments: { pattern: "TODO", path: "src" } })).toBe('Allow grep: "TODO" in src?');
    expect(permissionTitle({ toolName: "deploy", arguments: { env: "prod" } })).toBe('Allow deploy {"env":"prod"}?');
    expect(permissionTitle({ toolName: "todo_write", arguments: {} })).toBe("Allow todo_write?");
    const long = permissionTitle({ toolName: "bash", arguments: { command: `echo ${"x".repeat(500)}\nls` } });
    expect(long.length).toBeLessThan(220);
    expect(long).not.toContain("\n");
  });

  it("the denied result text says who denied it and why", () => {
    expect(deniedResultText("bash", 'The deny rule "bash(rm:*)" matches "rm -rf /".')).toBe('Permission denied: bash did not run. The deny rule "bash(rm:*)" matches "rm -rf /".');
  });
});
