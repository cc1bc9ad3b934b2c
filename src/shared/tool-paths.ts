// Path arguments of the built-in tools: `~` expanded, `file://` and a leading
// `@` stripped, unicode spaces normalised, relative paths resolved against the session cwd.
// Shared: the tools open these paths and the permission rules (src/policy) judge them.
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Normalises a path argument as the model wrote it, without resolving it. */
export function normalisePathArg(raw: string, home: string = homedir()): string {
  let p = raw.replace(UNICODE_SPACES, " ").trim();
  if (p.startsWith("file://")) p = p.slice("file://".length);
  if (p.startsWith("@")) p = p.slice(1);
  if (p === "~") return home;
  if (p.startsWith("~/")) return home + p.slice(1);
  return p;
}

/** The absolute path a tool argument refers to. An empty path means the cwd. */
export function resolveToolPath(raw: string | undefined, cwd: string, home?: string): string {
  const p = normalisePathArg(raw ?? "", home);
  if (p === "" || p === ".") return cwd;
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** Like resolveToolPath, but `/` alone means the cwd (search tools never walk from the root). */
export function resolveSearchPath(raw: string | undefined, cwd: string, home?: string): string {
  return resolveToolPath(searchPathArg(raw, home), cwd, home);
}

/** A search tool's path argument spelled so resolveToolPath finds what it walks: `/` alone (or none) is the cwd. */
export function searchPathArg(raw: string | undefined, home?: string): string {
  return raw === undefined || normalisePathArg(raw, home) === "/" ? "." : raw;
}
