import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTtsrRules } from "./load-rules.js";
import { findRuleFiles } from "./rule-files.js";

describe("findRuleFiles", () => {
  let root: string;
  let home: string;
  let cwd: string;
  let warnings: string[];
  const write = (dir: string, name: string, text = "---\ncondition: x\n---\nbody") => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), text);
  };
  const find = (pithHome = home) => findRuleFiles({ pithHome, cwd, warn: (m) => warnings.push(m) });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "pith-rule-files-"));
    home = join(root, "home");
    cwd = join(root, "project");
    warnings = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("finds nothing, silently, without rule directories (the case that loads no TTSR code)", () => {
    expect(find()).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("lists .md/.mdc files, project directory first, each sorted, without reading them", () => {
    write(join(home, "rules"), "b.MDC");
    write(join(home, "rules"), "a.md");
    write(join(cwd, ".pith", "rules"), "z.md", "not even front-matter");
    write(join(cwd, ".pith", "rules"), "notes.txt");
    mkdirSync(join(cwd, ".pith", "rules", "sub.md"));
    expect(find()).toEqual([
      { path: join(cwd, ".pith", "rules", "z.md"), level: "project" },
      { path: join(home, "rules", "a.md"), level: "user" },
      { path: join(home, "rules", "b.MDC"), level: "user" },
    ]);
  });

  it("lists a directory once when the project's .pith is the home", () => {
    write(join(cwd, ".pith", "rules"), "a.md");
    expect(find(join(cwd, ".pith"))).toEqual([{ path: join(cwd, ".pith", "rules", "a.md"), level: "project" }]);
  });

  it("feeds readTtsrRules, which keeps the first rule of a name and skips files without a rule", () => {
    write(join(cwd, ".pith", "rules"), "same.md", "---\ncondition: p\n---\nproject");
    write(join(cwd, ".pith", "rules"), "plain.md", "no front-matter");
    write(join(home, "rules"), "same.md", "---\ncondition: u\n---\nuser");
    const rules = readTtsrRules(find(), (m) => warnings.push(m));
    expect(rules.map((r) => [r.name, r.content, r._source.level])).toEqual([["same", "project", "project"]]);
  });
});
