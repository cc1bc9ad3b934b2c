// Finds extension modules and loads them with jiti (imported lazily: only when there is at
// least one extension). A module that fails is reported through `onError` and skipped.
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { errorMessage } from "../shared/errors.js";
import { createExtensionApi, createExtensionRuntime, createLoadedExtension, type ExtensionRuntime } from "./api.js";
import { resolveCliFlags, type CliFlag, type FlagResolution } from "./flags.js";
import { isDirectory, MODULE_FILE_RE, readPackage, type PackageResources } from "./package-manifest.js";
import type { PiModuleServices } from "./pi-modules/services.js";
import type { LoadedResources } from "./resources.js";
import type { ExtensionErrorListener, ExtensionFactory, LoadedExtension } from "./types.js";

export interface DiscoverOptions {
  cwd: string;
  /** `<pithHome>/extensions/` is searched when given. */
  pithHome?: string;
  /** Explicit `-e` paths (files or directories), loaded after the discovered ones. */
  paths?: string[];
  /** false (`--no-extensions`): only explicit paths load. Default true. */
  discover?: boolean;
  /** `<cwd>/.pith/extensions/` is searched too (only for a trusted folder). Default false. */
  project?: boolean;
}

export interface LoadExtensionsOptions extends DiscoverOptions {
  onError?: ExtensionErrorListener;
  /** What pith's stand-ins for pi's packages need (default: `pithHome` as the agent folder). */
  services?: PiModuleServices;
  /** Options from the command line that may be the extensions' flags (`pi.getFlag` answers them). */
  cliFlags?: readonly CliFlag[];
}

export interface LoadedExtensions {
  extensions: LoadedExtension[];
  runtime: ExtensionRuntime;
  /** Skills and prompt templates the loaded packages declare. */
  resources?: LoadedResources;
  /** How the command line's options matched the declared flags (when there were any). */
  flags?: FlagResolution;
}

function expandHome(p: string): string {
  if (p === "~") return homedir();
  return p.startsWith("~/") ? join(homedir(), p.slice(2)) : p;
}

/** Direct module files and one level of package folders, sorted by name. */
function scanDirectory(dir: string, into: Collector): void {
  if (!isDirectory(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".")) continue;
    const full = join(dir, name);
    if (isDirectory(full)) into.addPackage(readPackage(full));
    else if (MODULE_FILE_RE.test(name) && !name.endsWith(".d.ts")) into.addPackage({ extensions: [full], skills: [], prompts: [] });
  }
}

interface Collector {
  addPackage(resources: PackageResources): void;
}

/** The extension entry points in a project's `.pith/extensions/` (found, not loaded). */
export function projectExtensionPaths(cwd: string): string[] {
  const found: string[] = [];
  scanDirectory(join(cwd, ".pith", "extensions"), { addPackage: (resources) => found.push(...resources.extensions) });
  return found;
}

/** Global, then project (when asked: a trusted folder), then explicit paths; each list deduplicated by resolved path. */
export function discoverResources(opts: DiscoverOptions): PackageResources {
  const out: PackageResources = { extensions: [], skills: [], prompts: [] };
  const seen = new Set<string>();
  const collector: Collector = {
    addPackage(resources) {
      for (const kind of ["extensions", "skills", "prompts"] as const) {
        for (const p of resources[kind]) {
          const abs = resolve(p);
          if (seen.has(`${kind}:${abs}`)) continue;
          seen.add(`${kind}:${abs}`);
          out[kind].push(abs);
        }
      }
    },
  };
  if (opts.discover !== false) {
    if (opts.pithHome) scanDirectory(join(opts.pithHome, "extensions"), collector);
    if (opts.project) scanDirectory(join(opts.cwd, ".pith", "extensions"), collector);
  }
  for (const p of opts.paths ?? []) {
    const expanded = expandHome(p);
    const abs = isAbsolute(expanded) ? expanded : resolve(opts.cwd, expanded);
    const resources = isDirectory(abs) ? readPackage(abs) : undefined;
    if (resources && resources.extensions.length + resources.skills.length + resources.prompts.length > 0) collector.addPackage(resources);
    else collector.addPackage({ extensions: [abs], skills: [], prompts: [] });
  }
  return out;
}

/** The extension modules `discoverResources` finds. */
export function discoverExtensionPaths(opts: DiscoverOptions): string[] {
  return discoverResources(opts).extensions;
}

type Importer = (path: string) => Promise<unknown>;

// A non-literal specifier keeps esbuild from bundling jiti into dist/: bundled, jiti cannot
// find its lazily required `../dist/babel.cjs` transformer, so every TS extension not already
// in jiti's disk cache failed with "Cannot find module '../dist/babel.cjs'".
const JITI_MODULE: string = "jiti";

/**
 * One jiti instance per load. pi's own packages are virtual modules (pith's implementation), and
 * every file goes through jiti (no native import), so an ES module in a package's node_modules
 * that imports pi gets pith's copy too.
 */
async function createImporter(services: PiModuleServices): Promise<Importer> {
  const [{ createJiti }, { piVirtualModules }] = await Promise.all([import(JITI_MODULE) as Promise<typeof import("jiti")>, import("./pi-modules/index.js")]);
  const jiti = createJiti(import.meta.url, { virtualModules: piVirtualModules(services), tryNative: false });
  return (path) => jiti.import(path, { default: true });
}

export async function loadExtensionFactory(
  path: string,
  factory: unknown,
  runtime: ExtensionRuntime,
): Promise<LoadedExtension> {
  if (typeof factory !== "function") throw new Error(`Extension does not export a valid factory function: ${path}`);
  const extension = createLoadedExtension(path);
  await (factory as ExtensionFactory)(createExtensionApi(extension, runtime));
  return extension;
}

/**
 * Loads `paths` in order; failures go to `onError` with `event: "load"`. `runtime`: the one of
 * extensions already running, so the newcomers share their event bus and pi-module services (a
 * folder trusted later).
 */
export async function loadExtensionPaths(
  paths: string[],
  onError: ExtensionErrorListener = () => {},
  runtime = createExtensionRuntime(onError),
  services: PiModuleServices = runtime.services ?? defaultServices(),
): Promise<LoadedExtensions> {
  runtime.services = services;
  const extensions: LoadedExtension[] = [];
  if (paths.length === 0) return { extensions, runtime };
  const importModule = await createImporter(services);
  for (const path of paths) {
    let factory: unknown;
    try {
      factory = await importModule(path);
    } catch (err) {
      onError({ extensionPath: path, event: "load", error: `Failed to load extension: ${errorMessage(err)}` });
      continue;
    }
    try {
      extensions.push(await loadExtensionFactory(path, factory, runtime));
    } catch (err) {
      const message = errorMessage(err);
      const error = message.startsWith("Extension does not export") ? message : `Failed to load extension: ${message}`;
      onError({ extensionPath: path, event: "load", error });
    }
  }
  return { extensions, runtime };
}

/** Discovery plus loading: what the composition root calls. */
export async function loadExtensions(opts: LoadExtensionsOptions): Promise<LoadedExtensions> {
  const found = discoverResources(opts);
  const services = opts.services ?? defaultServices(opts.pithHome);
  const loaded = await loadExtensionPaths(found.extensions, opts.onError, undefined, services);
  if (opts.cliFlags && opts.cliFlags.length > 0) {
    loaded.flags = resolveCliFlags(loaded.extensions, opts.cliFlags);
    for (const [name, value] of loaded.flags.values) loaded.runtime.flagValues.set(name, value);
  }
  if (found.skills.length + found.prompts.length > 0) loaded.resources = await (await import("./resources.js")).loadPackageResources(found, opts.onError ?? (() => {}));
  return loaded;
}

/** Without a composition root: pith's home as the agent folder, messages passed on as they are. */
function defaultServices(pithHome = join(homedir(), ".pith")): PiModuleServices {
  return { agentDir: pithHome, convertToLlm: (messages) => messages };
}
