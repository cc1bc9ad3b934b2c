// Helpers for the checkpoint tests (not used by production code): temp folders, a store on the
// real git, a manifest of every file (hash, executable bit, symlink target), a project git repo.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { probeGit } from "../../src/checkpoints/probe.js";
import { openCheckpointStore, type CheckpointStore } from "../../src/checkpoints/store.js";
import type { CheckpointStoreOptions } from "../../src/checkpoints/types.js";

export interface Sandbox {
  root: string;
  project: string;
  home: string;
  cleanup(): void;
}

export function makeSandbox(prefix = "pith-cp-"): Sandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(project);
  mkdirSync(home);
  return { root, project, home, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

let gitPath: string | undefined;

export async function realGit(): Promise<string> {
  if (gitPath) return gitPath;
  const probe = await probeGit({ pathEnv: process.env.PATH });
  if (!probe.available) throw new Error(`these tests need git: ${probe.reason}`);
  gitPath = probe.gitPath;
  return gitPath;
}

export async function makeStore(sb: Sandbox, over: Partial<CheckpointStoreOptions> = {}): Promise<CheckpointStore> {
  return openCheckpointStore({ home: sb.home, cwd: sb.project, gitPath: await realGit(), pathEnv: process.env.PATH, ...over });
}

/** Writes files (relative path → content) below `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/**
 * Every file and symlink below `root` (folders only through their files), `.git` left out:
 * path → "file <x|-> <sha256>" or "link <target>".
 */
export function manifest(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === ".git") continue;
      const abs = join(root, path);
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(path);
      else if (st.isSymbolicLink()) out[path] = `link ${readlinkSync(abs)}`;
      else out[path] = `file ${st.mode & 0o111 ? "x" : "-"} ${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk("");
  return out;
}

/** Every file under a folder (a project's `.git`): path → sha256 of the bytes and the mode. */
export function folderHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isDirectory()) walk(path);
      else out[path] = `${st.mode.toString(8)} ${st.isSymbolicLink() ? readlinkSync(join(dir, path)) : createHash("sha256").update(readFileSync(join(dir, path))).digest("hex")}`;
    }
  };
  walk("");
  return out;
}

/** Runs the real git on a project with no user or system config of this machine. */
export function projectGit(cwd: string, args: string[]): string {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: cwd,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    // git here must not refresh the project's index: the tests compare .git byte for byte.
    GIT_OPTIONAL_LOCKS: "0",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.invalid",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.invalid",
  };
  return execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** A project repository with a commit, a stash entry and a staged change. */
export function makeProjectRepo(project: string): void {
  projectGit(project, ["init", "-q", "-b", "main"]);
  projectGit(project, ["add", "-A"]);
  projectGit(project, ["commit", "-q", "-m", "initial"]);
  writeFileSync(join(project, "README.md"), "stashed change\n");
  projectGit(project, ["stash", "push", "-q", "-m", "a stash"]);
  writeFileSync(join(project, "staged.txt"), "staged\n");
  projectGit(project, ["add", "staged.txt"]);
}

/** What a project's git shows about itself: every file of .git hashed, plus HEAD, refs and stash. */
export function projectGitState(project: string): { files: Record<string, string>; head: string; refs: string; stash: string; staged: string } {
  return {
    files: folderHashes(join(project, ".git")),
    head: projectGit(project, ["rev-parse", "HEAD"]),
    refs: projectGit(project, ["for-each-ref"]),
    stash: projectGit(project, ["stash", "list"]),
    staged: projectGit(project, ["diff", "--cached", "--name-status"]),
  };
}

/** Bytes no text heuristic takes for text. */
export function binaryBytes(seed: number, length = 2048): Buffer {
  const buf = Buffer.alloc(length);
  for (let i = 0; i < length; i++) buf[i] = (i * 31 + seed * 17) & 0xff;
  buf[0] = 0;
  return buf;
}
