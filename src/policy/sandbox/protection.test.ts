// The protected paths inside the writable roots: the plan read from the disk, the stand-ins for
// missing paths, and (where bubblewrap runs) a hostile command trying every way around them.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeScratch, runWrapped, type Scratch } from "../../../test/support/policy.js";
import { checkWritePath } from "../write-guard.js";
import { bwrapOptions } from "./bwrap-args.js";
import { probeSandbox } from "./probe.js";
import { planProtection } from "./protection-plan.js";
import { prepareSandbox, type Sandbox } from "./session-sandbox.js";
import { heldStandIns } from "./stand-ins.js";

const probe = await probeSandbox();
if (!probe.ok) console.warn(`[sandbox protection tests skipped] ${probe.error}`);

let s: Scratch;
const open: Sandbox[] = [];
beforeEach(() => {
  s = makeScratch();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((sb) => sb.dispose()));
  s.cleanup();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: s.home } });
}

function initRepo(dir: string): void {
  git(dir, "init", "-q", ".");
  git(dir, "config", "user.email", "model@example.com");
  git(dir, "config", "user.name", "model");
}

async function sandbox(opts: { protect?: string[]; writableRoots?: string[] } = {}): Promise<Sandbox> {
  const sb = await prepareSandbox({ mode: "workspace-write", writableRoots: opts.writableRoots }, { cwd: s.cwd, protect: opts.protect });
  open.push(sb);
  return sb;
}

const run = (sb: Sandbox, command: string) => runWrapped(sb.wrap, s.cwd, command);

describe("the protection plan", () => {
  it("a bare folder: .pith, .claude, .mcp.json and .git are all missing and get stand-ins", () => {
    const plan = planProtection([s.cwd]);
    expect(plan.entries).toEqual(
      [".pith", ".claude", ".mcp.json", ".git"].map((n) => ({ path: join(s.cwd, n), kind: "dir", exists: false })),
    );
    expect(plan.pinned).toEqual([]);
  });

  it("a repository: git's config, hooks, commondir and config.worktree, with .git pinned", () => {
    initRepo(s.cwd);
    mkdirSync(join(s.cwd, ".pith"));
    const plan = planProtection([s.cwd]);
    const byPath = Object.fromEntries(plan.entries.map((e) => [e.path.slice(s.cwd.length + 1), e]));
    expect(byPath[".pith"]).toMatchObject({ kind: "dir", exists: true });
    expect(byPath[".git/config"]).toMatchObject({ kind: "file", exists: true });
    expect(byPath[".git/hooks"]).toMatchObject({ kind: "dir", exists: true });
    expect(byPath[".git/commondir"]).toEqual({ path: join(s.cwd, ".git/commondir"), kind: "file", exists: false, content: ".\n" });
    expect(byPath[".git/config.worktree"]).toMatchObject({ kind: "file", exists: false, content: "" });
    expect(byPath[".git"]).toBeUndefined();
    expect(plan.pinned).toEqual([join(s.cwd, ".git")]);
  });

  it("a linked worktree: the .git file, and the worktree's and the main repository's git folders when writable", () => {
    const main = join(s.outside, "main");
    mkdirSync(main);
    initRepo(main);
    git(main, "commit", "-q", "--allow-empty", "-m", "first");
    git(main, "worktree", "add", "-q", join(s.cwd, "wt"));
    const wt = join(s.cwd, "wt");
    // the main repository outside the roots is read-only anyway: only the pointer is listed
    expect(planProtection([wt]).entries.map((e) => e.path)).toContain(join(wt, ".git"));
    expect(planProtection([wt]).entries.some((e) => e.path.startsWith(main))).toBe(false);
    const plan = planProtection([wt, join(main, ".git")]);
    const paths = plan.entries.map((e) => e.path);
    const gitDir = join(main, ".git", "worktrees", "wt");
    expect(paths).toEqual(expect.arrayContaining([join(wt, ".git"), join(gitDir, "config.worktree"), join(gitDir, "commondir"), join(main, ".git", "config"), join(main, ".git", "hooks")]));
    expect(plan.pinned).toEqual(expect.arrayContaining([join(main, ".git", "worktrees"), gitDir]));
  });

  it("a symbolic link at a protected path stops the sandbox with a clear error", async () => {
    symlinkSync(s.outside, join(s.cwd, ".claude"));
    expect(() => planProtection([s.cwd])).toThrow(/cannot keep .*\.claude read-only: it is a symbolic link/);
    await expect(prepareSandbox({ mode: "workspace-write" }, { cwd: s.cwd })).rejects.toMatchObject({ code: "config" });
  });

  it("pith's home inside a root is protected too; nested entries collapse into the outer one", () => {
    const home = join(s.cwd, ".pith", "home");
    const plan = planProtection([s.cwd], [home, join(s.cwd, "state")]);
    expect(plan.entries.map((e) => e.path)).toEqual(expect.arrayContaining([join(s.cwd, ".pith"), join(s.cwd, "state")]));
    expect(plan.entries.map((e) => e.path)).not.toContain(home);
    expect(planProtection([s.cwd], [s.outside]).entries.map((e) => e.path)).not.toContain(s.outside);
  });

  it("the write guard refuses protected paths (existing or not) and allows the rest of .git", async () => {
    initRepo(s.cwd);
    const protectedPaths = planProtection([s.cwd]).entries.map((e) => e.path);
    const where = { mode: "workspace-write" as const, roots: [s.cwd], protectedPaths };
    for (const rel of [".pith/settings.json", ".pith/extensions/x.mjs", ".claude/agents/x.md", ".mcp.json", ".git/config", ".git/hooks/pre-commit", ".git/commondir"]) {
      const v = await checkWritePath(join(s.cwd, rel), where);
      expect(v.ok, rel).toBe(false);
      expect(!v.ok && v.reason, rel).toMatch(/^The sandbox \(workspace-write\) keeps .* read-only: project settings, extensions, agents, MCP servers and git's configuration and hooks run code outside the sandbox later/);
    }
    expect(await checkWritePath(join(s.cwd, ".git/info/exclude"), where)).toMatchObject({ ok: true });
    expect(await checkWritePath(join(s.cwd, "src/.pith-notes"), where)).toMatchObject({ ok: true });
  });

  it("bwrap options: pins, then read-only paths, after the roots", () => {
    const layout = { mode: "workspace-write" as const, network: false, bwrap: "bwrap", tmpDir: "/tmp/t", writable: ["/w"], readable: [], protect: { pinned: ["/w/.git"], readOnly: ["/w/.pith", "/w/.git/config"] } };
    expect(bwrapOptions(layout, "/w").join(" ")).toContain("--bind /w /w --bind /w/.git /w/.git --ro-bind /w/.pith /w/.pith --ro-bind /w/.git/config /w/.git/config --setenv");
  });
});

describe.skipIf(!probe.ok)("bubblewrap: a hostile command against the protected paths", () => {
  it("cannot write, create, rename or remove them; git add and commit still work; stand-ins go at the end", async () => {
    initRepo(s.cwd);
    writeFileSync(join(s.cwd, "a.txt"), "a\n");
    const sb = await sandbox();
    const attacks = [
      "mkdir -p .pith/extensions && echo 'x' > .pith/extensions/x.mjs",
      "echo '{}' > .pith/settings.json",
      "mkdir -p .claude/agents && echo x > .claude/agents/x.md",
      "echo '{}' > .mcp.json",
      "echo '[core]' >> .git/config",
      "echo 'exit 0' > .git/hooks/pre-commit",
      "echo ../evil > .git/commondir",
      "mv .git .git-old",
      "mv .pith .pith-old",
      "rm -rf .mcp.json",
      "ln .git/config cfg",
      "ln -s /tmp .claude/x",
    ];
    for (const cmd of attacks) expect((await run(sb, cmd)).code, cmd).not.toBe(0);
    const commit = await run(sb, "git add a.txt && git commit -q -m 'from the sandbox' && git log --format=%s");
    expect(commit).toEqual({ code: 0, out: "from the sandbox\n" });
    expect(git(s.cwd, "log", "--format=%s").trim()).toBe("from the sandbox");
    expect(git(s.cwd, "status", "--porcelain")).toBe(""); // the stand-ins are empty folders git ignores
    expect(readFileSync(join(s.cwd, ".git/config"), "utf8")).not.toContain("[core]\n[core]");
    expect(existsSync(join(s.cwd, ".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(join(s.cwd, ".pith/settings.json"))).toBe(false);
    await sb.dispose();
    expect(readdirSync(s.cwd).sort()).toEqual([".git", "a.txt"]);
    expect(existsSync(join(s.cwd, ".git/commondir"))).toBe(false);
    expect(heldStandIns()).toEqual([]);
  });

  it("a linked worktree with its main repository writable: commits work, git's config, hooks and pointers do not change", async () => {
    const main = join(s.outside, "main");
    mkdirSync(main);
    initRepo(main);
    git(main, "commit", "-q", "--allow-empty", "-m", "first");
    git(main, "worktree", "add", "-q", "-b", "wt", join(s.cwd, "wt"));
    const wt = join(s.cwd, "wt");
    const gitDir = join(main, ".git", "worktrees", "wt");
    const sb = await prepareSandbox({ mode: "workspace-write", writableRoots: [join(main, ".git")] }, { cwd: wt });
    open.push(sb);
    const inWt = (command: string) => runWrapped(sb.wrap, wt, command);
    for (const cmd of [
      `echo ../../evil > ${gitDir}/commondir`,
      `echo '[core]' > ${gitDir}/config.worktree`,
      `echo '[core]' >> ${main}/.git/config`,
      `touch ${main}/.git/hooks/pre-commit`,
      "echo 'gitdir: /tmp/evil' > .git",
      `mv ${main}/.git/worktrees ${main}/.git/wt-old`,
    ]) {
      expect((await inWt(cmd)).code, cmd).not.toBe(0);
    }
    writeFileSync(join(wt, "b.txt"), "b\n");
    expect(await inWt("git add b.txt && git commit -q -m 'in the worktree' && git log -1 --format=%s")).toEqual({ code: 0, out: "in the worktree\n" });
    expect(git(main, "log", "-1", "--format=%s", "wt").trim()).toBe("in the worktree");
    expect(readFileSync(join(gitDir, "commondir"), "utf8")).toBe("../..\n");
  });

  it("a folder without .git: git init is refused there, ordinary files are written", async () => {
    const sb = await sandbox();
    expect((await run(sb, "git init -q .")).code).not.toBe(0);
    expect(await run(sb, "echo ok > file.txt && cat file.txt")).toEqual({ code: 0, out: "ok\n" });
    await sb.dispose();
    expect(readdirSync(s.cwd)).toEqual(["file.txt"]);
  });

  it("two sandboxes of one process share a stand-in: it stays until the last one ends", async () => {
    const a = await sandbox();
    const b = await sandbox();
    await run(a, "true");
    await run(b, "true");
    await a.dispose();
    expect(existsSync(join(s.cwd, ".mcp.json"))).toBe(true);
    expect((await run(b, "echo '{}' > .mcp.json")).code).not.toBe(0);
    await b.dispose();
    expect(existsSync(join(s.cwd, ".mcp.json"))).toBe(false);
  });

  it("files holding pith's credentials cannot be read or written inside; the rest of their folder can", async () => {
    writeFileSync(join(s.home, "key"), "sk-secret\n");
    writeFileSync(join(s.home, "other"), "visible\n");
    const sb = await prepareSandbox({ mode: "workspace-write" }, { cwd: s.cwd, hide: [join(s.home, "key"), join(s.home, "missing.json")] });
    open.push(sb);
    expect(await run(sb, `cat ${s.home}/key; cat ${s.home}/other; echo x > ${s.home}/key`)).toEqual({ code: 1, out: `cat: ${s.home}/key: Permission denied\nvisible\n/bin/bash: line 1: ${s.home}/key: Permission denied\n` });
    expect(readFileSync(join(s.home, "key"), "utf8")).toBe("sk-secret\n");
  });

  it("kernel settings are read-only even for root, and the sandbox gains no privileges", async () => {
    const sb = await sandbox();
    const r = await run(sb, "echo pwned > /proc/sys/kernel/hostname; echo rc=$?; grep NoNewPrivs /proc/self/status");
    expect(r.out).toMatch(/Read-only file system/);
    expect(r.out).toContain("rc=1");
    expect(r.out).toContain("NoNewPrivs:\t1");
  });
});
