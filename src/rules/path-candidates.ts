// The file paths a tool call is about: string arguments named `path`/`*path` and
// string-array arguments named `paths`/`*paths`, each in several spellings so globs written
// relative, absolute or as a basename all match.
import { isAbsolute, relative, resolve } from "node:path";

function push(out: Set<string>, p: string): void {
  if (p !== "") out.add(p.replace(/\\/g, "/"));
}

/** As given, without a leading `./`, absolute, and relative to `cwd` (when `cwd` is known). */
export function pathCandidates(args: Record<string, unknown> | undefined, cwd: string | undefined): string[] {
  if (!args) return [];
  const raw: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (/path$/i.test(key) && typeof value === "string") raw.push(value);
    else if (/paths$/i.test(key) && Array.isArray(value)) raw.push(...value.filter((v): v is string => typeof v === "string"));
  }
  const out = new Set<string>();
  for (const p of raw) {
    const given = p.trim();
    push(out, given);
    push(out, given.replace(/^(\.\/)+/, ""));
    if (cwd === undefined) continue;
    const abs = isAbsolute(given) ? given : resolve(cwd, given);
    push(out, abs);
    push(out, relative(cwd, abs));
  }
  return [...out];
}
