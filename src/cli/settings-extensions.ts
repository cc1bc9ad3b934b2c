// The settings' `extensions` list (files or pi package folders, as with `-e`): each path is
// relative to its settings file's folder (PITH_HOME for the global file, the project's `.pith`
// for the project file); `~/` is the home folder. The project file's list counts only when the
// folder is trusted, like the rest of the project layer.
import path from "node:path";
import { readSettingsLayer, settingsPaths, type SettingsLayer } from "./settings.js";

/** One layer's list, resolved against `base`. */
export function layerExtensionPaths(layer: SettingsLayer | undefined, base: string): string[] {
  const list = layer?.values.extensions;
  if (!Array.isArray(list)) return [];
  return list.filter((p): p is string => typeof p === "string" && p.trim() !== "").map((p) => (p === "~" || p.startsWith("~/") ? p : path.resolve(base, p)));
}

/** The global list, then (trusted folders only) the project's. */
export function settingsExtensionPaths(global: SettingsLayer | undefined, pithHome: string, cwd: string, trusted: boolean): string[] {
  const paths = layerExtensionPaths(global, pithHome);
  if (!trusted) return paths;
  // Problems in the project file were reported when the settings were read; not again here.
  const project = readSettingsLayer("project", settingsPaths(pithHome, cwd).projectPath, () => undefined);
  return [...paths, ...layerExtensionPaths(project, path.join(cwd, ".pith"))];
}
