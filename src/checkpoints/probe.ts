// Is `git` usable here? Finds it on the PATH the caller passes and asks its version, so the
// feature can report itself off (with the reason) instead of failing prompt by prompt.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { errorMessage } from "../shared/errors.js";
import { spawnGit } from "./git-runner.js";

export type GitProbe = { available: true; gitPath: string; version: string } | { available: false; reason: string };

/** The oldest git whose plumbing and config keys the engine relies on. */
export const MIN_GIT_VERSION: readonly [number, number] = [2, 20];

export interface ProbeOptions {
  /** The PATH to search (the cli passes process.env.PATH). */
  pathEnv: string | undefined;
  timeoutMs?: number;
}

export async function probeGit(opts: ProbeOptions): Promise<GitProbe> {
  let gitPath: string | undefined;
  try {
    gitPath = await findExecutable("git", opts.pathEnv);
  } catch (err) {
    return { available: false, reason: `could not search PATH for git: ${errorMessage(err)}` };
  }
  if (!gitPath) return { available: false, reason: "git was not found on PATH" };
  let version: GitVersion;
  try {
    version = await gitVersion(gitPath, opts.pathEnv ?? "", opts.timeoutMs ?? 10_000);
  } catch (err) {
    return { available: false, reason: err instanceof NotGit ? err.message : `${gitPath} --version failed: ${errorMessage(err)}` };
  }
  const [needMajor, needMinor] = MIN_GIT_VERSION;
  if (!atLeast(version, MIN_GIT_VERSION)) {
    return { available: false, reason: `git ${version.major}.${version.minor} is too old (checkpoints need ${needMajor}.${needMinor} or later)` };
  }
  return { available: true, gitPath, version: version.text };
}

export interface GitVersion {
  major: number;
  minor: number;
  /** As git prints it, e.g. "2.39.5". */
  text: string;
}

class NotGit extends Error {}

/** `git --version`, parsed; throws when the program is not git. */
export async function gitVersion(gitPath: string, pathEnv: string, timeoutMs: number): Promise<GitVersion> {
  const run = await spawnGit(gitPath, ["--version"], { cwd: "/", env: { PATH: pathEnv, LC_ALL: "C" }, timeoutMs });
  const output = run.stdout.toString("utf8").trim();
  const match = /git version (\d+)\.(\d+)(\S*)/.exec(output);
  if (!match) throw new NotGit(`${gitPath} --version printed "${output}", not a git version`);
  return { major: Number(match[1]), minor: Number(match[2]), text: `${match[1]}.${match[2]}${match[3]}` };
}

export function atLeast(v: GitVersion, [major, minor]: readonly [number, number]): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

async function findExecutable(name: string, pathEnv: string | undefined): Promise<string | undefined> {
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch (err) {
      if (!["ENOENT", "EACCES", "ENOTDIR"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
    }
  }
  return undefined;
}
