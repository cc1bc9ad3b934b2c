// pi's `resources_discover`: after `session_start` (startup, reload) every handler may answer
// `{skillPaths, promptPaths, themePaths}`; the skills and prompt templates they name load beside
// the packages' own (a name already loaded keeps its first definition). Themes are not loaded
// (nothing is drawn). Relative paths are relative to the session's folder.
import { isAbsolute, resolve } from "node:path";
import { errorMessage } from "../shared/errors.js";
import type { LoadedResources } from "./resources.js";
import type { ExtensionContext, ExtensionErrorListener, LoadedExtension } from "./types.js";

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === "string" && p !== "") : []);

/** Asks every `resources_discover` handler, in load order, and loads what they name. */
export async function discoverResources(
  extensions: readonly LoadedExtension[],
  ctx: ExtensionContext,
  reason: "startup" | "reload",
  onError: ExtensionErrorListener,
): Promise<LoadedResources | undefined> {
  const found = { skills: [] as string[], prompts: [] as string[] };
  const at = (p: string) => (isAbsolute(p) ? p : resolve(ctx.cwd, p));
  for (const ext of extensions) {
    for (const handler of ext.handlers.get("resources_discover") ?? []) {
      try {
        const answer = (await handler({ type: "resources_discover", cwd: ctx.cwd, reason }, ctx)) as Record<string, unknown> | undefined;
        if (typeof answer !== "object" || answer === null) continue;
        found.skills.push(...strings(answer.skillPaths).map(at));
        found.prompts.push(...strings(answer.promptPaths).map(at));
      } catch (err) {
        onError({ extensionPath: ext.path, event: "resources_discover", error: errorMessage(err) });
      }
    }
  }
  if (found.skills.length + found.prompts.length === 0) return undefined;
  const { loadPackageResources } = await import("./resources.js");
  return loadPackageResources(found, onError);
}

/** `more` added to `into`: a skill or template whose name is already there is left out. */
export function mergeResources(into: LoadedResources | undefined, more: LoadedResources): LoadedResources {
  const base = into ?? { skills: [], prompts: [] };
  const skills = new Set(base.skills.map((s) => s.name));
  const prompts = new Set(base.prompts.map((p) => p.name));
  return {
    skills: [...base.skills, ...more.skills.filter((s) => !skills.has(s.name))],
    prompts: [...base.prompts, ...more.prompts.filter((p) => !prompts.has(p.name))],
  };
}
