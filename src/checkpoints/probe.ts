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
  let output: string;
  try {
    const run = await spawnGit(gitPath, ["--version"], { cwd: "/", env: { PATH: opts.pathEnv ?? "", LC_ALL: "C" }, timeoutMs: opts.timeoutMs ?? 10_000 });
    output = run.stdout.toString("utf8").trim();
  } catch (err) {
    return { available: false, reason: `${gitPath} --version failed: ${errorMessage(err)}` };
  }
  const match = /git version (\d+)\.(\d+)/.exec(output);
  if (!match) return { available: false, reason: `${gitPath} --version printed "${output}", not a git version` };
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const [needMajor, needMinor] = MIN_GIT_VERSION;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    return { available: false, reason: `git ${major}.${minor} is too old (checkpoints need ${needMajor}.${needMinor} or later)` };
  }
  return { available: true, gitPath, version: `${major}.${minor}${output.slice(match[0].length).split(" ")[0]}` };
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
