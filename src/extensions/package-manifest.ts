// What a folder given as an extension (or found in an extensions folder) holds, read as pi reads a
// package: its package.json's `pi` field (`pith` is read first) lists extensions, skills and
// prompt templates; without a manifest, the conventional `extensions/`, `skills/` and `prompts/`
// folders, and for extensions `index.ts` / `index.js`. Themes are not loaded: nothing is drawn.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export interface PackageResources {
  extensions: string[];
  skills: string[];
  prompts: string[];
}

type ResourceKind = keyof PackageResources;

export const MODULE_FILE_RE = /\.(ts|js|mjs)$/;

export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch (err) {
    void err;
    return false;
  }
}

function readPiField(dir: string): Record<string, unknown> | undefined {
  const file = join(dir, "package.json");
  if (!existsSync(file)) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const field = pkg.pith ?? pkg.pi;
    return field && typeof field === "object" && !Array.isArray(field) ? (field as Record<string, unknown>) : undefined;
  } catch (err) {
    // An unreadable manifest is treated as no manifest: the conventional folders still load.
    void err;
    return undefined;
  }
}

/** The entries of one manifest list; a `*` in the last path part matches names (pi's globs, simplified). */
function expandEntries(dir: string, list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const raw of list) {
    if (typeof raw !== "string" || raw.startsWith("!")) continue;
    const full = resolve(dir, raw);
    const slash = full.lastIndexOf("/");
    const base = full.slice(slash + 1);
    if (!base.includes("*")) {
      out.push(full);
      continue;
    }
    const folder = full.slice(0, slash);
    const re = new RegExp(`^${base.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
    if (isDirectory(folder)) for (const name of readdirSync(folder).sort()) if (re.test(name)) out.push(join(folder, name));
  }
  return out;
}

function conventional(dir: string, kind: ResourceKind): string[] {
  const folder = join(dir, kind);
  if (isDirectory(folder)) return kind === "extensions" ? moduleFiles(folder) : [folder];
  if (kind !== "extensions") return [];
  for (const name of ["index.ts", "index.js"]) if (existsSync(join(dir, name))) return [join(dir, name)];
  return [];
}

/** The direct `*.ts|*.js|*.mjs` files of a folder (not `.d.ts`), sorted by name. */
export function moduleFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .filter((n) => !n.startsWith(".") && MODULE_FILE_RE.test(n) && !n.endsWith(".d.ts"))
    .map((n) => join(folder, n));
}

/** A package folder's resources: the manifest's lists where it has them, else the conventional places. */
export function readPackage(dir: string): PackageResources {
  const field = readPiField(dir);
  const pick = (kind: ResourceKind) => (field && Array.isArray(field[kind]) ? expandEntries(dir, field[kind]) : conventional(dir, kind));
  return { extensions: pick("extensions"), skills: pick("skills"), prompts: pick("prompts") };
}
