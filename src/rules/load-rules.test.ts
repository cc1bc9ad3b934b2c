import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTtsrRules } from "./load-rules.js";
import { parseRuleFile } from "./rule-file.js";

describe("loadTtsrRules", () => {
  let root: string;
  let home: string;
  let cwd: string;
  let warnings: string[];
  const write = (dir: string, name: string, text: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  const load = () => loadTtsrRules({ pithHome: home, cwd, warn: (m) => warnings.push(m) });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "pith-ttsr-"));
    home = join(root, "home");
    cwd = join(root, "project");
    warnings = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("returns nothing, silently, when no rule directory exists", () => {
    expect(load()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("loads user and project rules; the project copy of a name wins", () => {
    write(join(home, "rules"), "no-console.md", "---\ncondition: console\\.log\n---\nUser version");
    write(join(home, "rules"), "user-only.mdc", "---\ncondition: [foo]\nscope: text\n---\nUser only");
    write(join(cwd, ".pith", "rules"), "no-console.md", "---\ncondition: console\\.log\ninterruptMode: tool-only\n---\nProject version\n");
    write(join(cwd, ".pith", "rules"), "notes.txt", "---\ncondition: x\n---\nnot a rule file");
    const rules = load();
    expect(rules.map((r) => [r.name, r._source.level, r.content])).toEqual([
      ["no-console", "project", "Project version"],
      ["user-only", "user", "User only"],
    ]);
    expect(rules[0]).toEqual({
      name: "no-console",
      path: join(cwd, ".pith", "rules", "no-console.md"),
      content: "Project version",
      condition: ["console\\.log"],
      interruptMode: "tool-only",
      _source: { provider: "native", providerName: "pith", path: join(cwd, ".pith", "rules", "no-console.md"), level: "project" },
    });
    expect(rules[1].scope).toEqual(["text"]);
    expect(warnings).toEqual([]);
  });

  it("skips plain rules, bad front-matter, bad regexes and unreachable scopes, warning where useful", () => {
    const dir = join(cwd, ".pith", "rules");
    write(dir, "plain.md", "---\ndescription: always do x\nalwaysApply: true\n---\nbody");
    write(dir, "broken.md", "---\ncondition: x\n");
    write(dir, "bad-regex.md", "---\ncondition: ['(unclosed']\n---\nbody");
    write(dir, "half-bad.md", "---\ncondition: ['(unclosed', ok]\n---\nbody");
    write(dir, "nowhere.md", "---\ncondition: x\nscope: '!!!'\n---\nbody");
    const rules = load();
    expect(rules.map((r) => r.name)).toEqual(["half-bad"]);
    expect(rules[0].condition).toEqual(["ok"]);
    const joined = warnings.join("\n");
    expect(joined).toMatch(/broken\.md skipped: front-matter is not closed/);
    expect(joined).toMatch(/bad-regex\.md skipped: no valid condition/);
    expect(joined).toMatch(/half-bad\.md: condition "\(unclosed" refused: not a valid regular expression/);
    expect(joined).toMatch(/nowhere\.md: scope token "!!!" is not valid/);
    expect(joined).toMatch(/nowhere\.md skipped: its scope excludes every stream/);
    expect(joined).not.toMatch(/plain/);
  });

  it("warns when a rules path is not a directory", () => {
    mkdirSync(join(cwd, ".pith"), { recursive: true });
    writeFileSync(join(cwd, ".pith", "rules"), "not a dir");
    expect(load()).toEqual([]);
    expect(warnings.join("\n")).toMatch(/not read/);
  });
});

describe("parseRuleFile", () => {
  const parse = (text: string, warn: (m: string) => void = () => undefined) => parseRuleFile("r", "/x/r.md", text, "user", warn);

  it("reads every front-matter key", () => {
    const rule = parse("---\ncondition: foo\nscope: text, tool:edit(src/{a,b}.ts)\nglobs: '*.ts'\ndescription: d\nalwaysApply: true\ninterruptMode: never\n---\n\nDo it.\n");
    expect(rule).toMatchObject({
      condition: ["foo"],
      scope: ["text", "tool:edit(src/{a,b}.ts)"],
      globs: ["*.ts"],
      description: "d",
      alwaysApply: true,
      interruptMode: "never",
      content: "Do it.",
    });
  });

  it("accepts the legacy trigger keys and glob-looking conditions", () => {
    expect(parse("---\nttsr_trigger: a\n---\n")?.condition).toEqual(["a"]);
    expect(parse("---\nttsrTrigger: [b]\n---\n")?.condition).toEqual(["b"]);
    expect(parse("---\ncondition: '*.rs'\n---\n")).toMatchObject({ condition: [".*"], scope: ["tool:edit(*.rs)", "tool:write(*.rs)"] });
  });

  it("ignores an unknown interruptMode with a warning", () => {
    const warnings: string[] = [];
    const rule = parse("---\ncondition: a\ninterruptMode: sometimes\n---\n", (m) => warnings.push(m));
    expect(rule?.interruptMode).toBeUndefined();
    expect(warnings[0]).toMatch(/interruptMode "sometimes"/);
  });
});
