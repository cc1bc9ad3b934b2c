// PITH_HOME/grants.json: grants per project keyed by the canonical real path, merged across
// processes, atomic writes, a damaged file never rewritten.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GRANTS_FILE, openProjectGrants } from "./grant-file.js";

let base: string;
let home: string;
let app: string;
let other: string;
let warnings: string[];
const open = (cwd: string) => openProjectGrants({ pithHome: home, cwd, warn: (m) => warnings.push(m) });
const file = () => join(home, GRANTS_FILE);

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pith-grants-")));
  home = join(base, "pith-home");
  app = join(base, "app");
  other = join(base, "other");
  mkdirSync(app);
  mkdirSync(other);
  warnings = [];
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("project grants in PITH_HOME", () => {
  it("are kept per project by real path: a symlink to the project shares them, another project has none", () => {
    open(app).add(["bash(npm test)", "edit(./a.ts)"]);
    symlinkSync(app, join(base, "link"));
    expect(open(join(base, "link")).load()).toEqual(["bash(npm test)", "edit(./a.ts)"]);
    expect(open(join(app, ".")).project).toBe(app);
    expect(open(other).load()).toEqual([]);
    expect(JSON.parse(readFileSync(file(), "utf8"))).toEqual({ version: 1, projects: { [app]: { allow: ["bash(npm test)", "edit(./a.ts)"] } } });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it("two stores of one project (two processes) both keep what they add", () => {
    const a = open(app);
    const b = open(app);
    a.add(["bash(ls:*)"]);
    b.add(["bash(pwd)"]);
    a.add(["bash(ls:*)"]);
    expect(open(app).load()).toEqual(["bash(ls:*)", "bash(pwd)"]);
  });

  it("replace revokes: an empty list removes the project's entry", () => {
    const g = open(app);
    g.add(["bash(a)", "bash(b)"]);
    open(other).add(["read"]);
    g.replace(["bash(b)"]);
    expect(g.load()).toEqual(["bash(b)"]);
    g.replace([]);
    expect(JSON.parse(readFileSync(file(), "utf8")).projects).toEqual({ [other]: { allow: ["read"] } });
  });

  it("a damaged file grants nothing, is reported once and never rewritten", () => {
    mkdirSync(home);
    writeFileSync(file(), '{"projects": {"x": ');
    const g = open(app);
    expect(g.load()).toEqual([]);
    expect(g.load()).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^pith: ignored .*grants\.json: not valid JSON .*no "Allow always" grant applies until it is fixed or removed$/);
    expect(() => g.add(["bash"])).toThrow("cannot be read as grants, so pith does not rewrite it");
    expect(readFileSync(file(), "utf8")).toBe('{"projects": {"x": ');
    writeFileSync(file(), JSON.stringify({ projects: { [app]: { allow: "bash" } } }));
    expect(open(app).load()).toEqual([]);
    expect(warnings[1]).toContain(`projects["${app}"].allow: expected an array of rules`);
  });

  it("a rule that does not parse is left out with a warning", () => {
    mkdirSync(home);
    writeFileSync(file(), JSON.stringify({ version: 1, projects: { [app]: { allow: ["bash(ok)", "edit(src/**"] } } }));
    expect(open(app).load()).toEqual(["bash(ok)"]);
    expect(warnings).toEqual([expect.stringContaining('ignored a granted rule in')]);
  });

  it("no file yet: no grants; the first grant creates PITH_HOME and the file", () => {
    expect(open(app).load()).toEqual([]);
    open(app).add(["bash(make)"]);
    expect(open(app).load()).toEqual(["bash(make)"]);
    expect(warnings).toEqual([]);
  });
});
