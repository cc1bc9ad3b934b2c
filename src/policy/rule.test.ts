import { describe, expect, it } from "vitest";
import { parseRule, pathFamily, ruleAppliesTo, validatePermissionRules } from "./rule.js";

describe("permission rule syntax", () => {
  it("reads Tool and Tool(specifier); built-in names are case-insensitive", () => {
    expect(parseRule("Bash")).toMatchObject({ tool: "bash", server: false });
    expect(parseRule("Bash").bash).toBeUndefined();
    expect(parseRule("bash(git status:*)").bash).toEqual({ kind: "prefix", prefix: "git status" });
    expect(parseRule("Edit(src/**)").path).toEqual({ root: "cwd", glob: "src/**", anchored: true });
    expect(parseRule("read(*)").path).toBeUndefined();
    expect(parseRule("deploy_prod")).toMatchObject({ tool: "deploy_prod" });
    expect(parseRule("Deploy")).toMatchObject({ tool: "Deploy" });
  });

  it("keeps parentheses inside a bash specifier", () => {
    expect(parseRule("bash(echo (a) b)").bash).toEqual({ kind: "exact", command: "echo (a) b" });
  });

  it("anchors path specifiers by their start", () => {
    expect(parseRule("read(~/.ssh/**)").path).toEqual({ root: "home", glob: "/.ssh/**", anchored: true });
    expect(parseRule("read(/etc/**)").path).toEqual({ root: "fs", glob: "/etc/**", anchored: true });
    expect(parseRule("read(//etc/**)").path).toEqual({ root: "fs", glob: "/etc/**", anchored: true });
    expect(parseRule("edit(./README.md)").path).toEqual({ root: "cwd", glob: "/README.md", anchored: true });
    expect(parseRule("read(.env)").path).toEqual({ root: "cwd", glob: ".env", anchored: false });
  });

  it("names MCP tools by full name, and whole servers by prefix", () => {
    expect(parseRule("mcp__github__create_issue")).toMatchObject({ tool: "mcp__github__create_issue", server: false });
    expect(parseRule("mcp__github")).toMatchObject({ tool: "mcp__github", server: true });
    expect(parseRule("mcp__github__*")).toMatchObject({ tool: "mcp__github", server: true });
    expect(ruleAppliesTo(parseRule("mcp__github"), "mcp__github__create_issue")).toBe(true);
    expect(ruleAppliesTo(parseRule("mcp__github__*"), "mcp__gitlab__x")).toBe(false);
    expect(ruleAppliesTo(parseRule("mcp__github__create_issue"), "mcp__github__list")).toBe(false);
  });

  it("edit and write rules govern every tool that writes files, read rules every tool that reads declared paths", () => {
    for (const tool of ["edit", "write", "ast_edit", "notebook"]) {
      expect(ruleAppliesTo(parseRule("edit(src/**)"), tool, "write")).toBe(true);
      expect(ruleAppliesTo(parseRule("Write"), tool, "write")).toBe(true);
      expect(ruleAppliesTo(parseRule("read(src/**)"), tool, "write")).toBe(false);
    }
    for (const tool of ["read", "grep", "find", "ls", "ast_grep", "inspect_image"]) {
      expect(ruleAppliesTo(parseRule("Read"), tool, "read")).toBe(true);
      expect(ruleAppliesTo(parseRule("edit"), tool, "read")).toBe(false);
    }
    // a bash redirection is judged as a write of its file: edit rules govern it
    expect(ruleAppliesTo(parseRule("edit(src/**)"), "write")).toBe(true);
    expect(ruleAppliesTo(parseRule("grep"), "read", "read")).toBe(false);
    expect(ruleAppliesTo(parseRule("Read"), "calc")).toBe(false);
    expect(ruleAppliesTo(parseRule("bash"), "bash")).toBe(true);
  });

  it("a tool's family comes from its declared effect and paths, never from its name", () => {
    expect(pathFamily({ toolName: "x", arguments: {}, effect: "writes-files" })).toBe("write");
    expect(pathFamily({ toolName: "x", arguments: {}, effect: "read-only", paths: [] })).toBe("read");
    expect(pathFamily({ toolName: "calc", arguments: {}, effect: "read-only" })).toBeUndefined();
    expect(pathFamily({ toolName: "edit", arguments: { path: "a" } })).toBeUndefined();
    expect(pathFamily({ toolName: "read", arguments: { path: "a" }, effect: "runs-commands", paths: [{ path: "a", scope: "file" }] })).toBeUndefined();
  });

  it("refuses what it cannot read, saying which rule and why", () => {
    expect(() => parseRule("bash(git status")).toThrow('rule "bash(git status": missing ")" at the end');
    expect(() => parseRule("todo_write(x)")).toThrow(/"todo_write" takes no specifier/);
    expect(() => parseRule("mcp__github(x)")).toThrow(/server rule takes no specifier/);
    expect(() => parseRule("bash()")).toThrow(/the command is empty/);
    expect(() => parseRule("read(~bob/x)")).toThrow(/~user/);
    expect(() => parseRule("no spaces allowed")).toThrow(/not a tool name/);
  });

  it("validatePermissionRules lists every problem with its place", () => {
    expect(validatePermissionRules({ allow: ["bash(npm test)", "read"], deny: ["edit(src/**)"] })).toEqual([]);
    expect(validatePermissionRules(undefined)).toEqual([]);
    expect(validatePermissionRules({ allow: "bash", deny: ["ok", "todo_write(x)", 3] })).toEqual([
      "permissions.allow: expected an array of rules",
      'permissions.deny[1]: rule "todo_write(x)": "todo_write" takes no specifier (specifiers are for bash and read, edit, write, grep, find, ls)',
      "permissions.deny[2]: a rule must be a string",
    ]);
    expect(validatePermissionRules([], "x")).toEqual(["x: expected an object with allow, ask and deny lists"]);
  });
});
