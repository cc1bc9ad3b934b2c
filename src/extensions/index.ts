// Public surface of the extensions layer (what the session and the composition root use).
export { ExtensionRunner } from "./runner.js";
export { discoverExtensionPaths, discoverResources, loadExtensionPaths, loadExtensions, loadExtensionFactory } from "./loader.js";
export type { DiscoverOptions, LoadExtensionsOptions, LoadedExtensions } from "./loader.js";
export { createExtensionRuntime, NOT_INITIALIZED } from "./api.js";
export type { ExtensionRuntime } from "./api.js";
export type { ExtensionHost } from "./host.js";
export { createNoopUi } from "./ui.js";
export type { DialogOptions, EditorOptions, ExtensionUi, NotifyType, WidgetOptions, WidgetPlacement } from "./ui.js";
export { parseSlashCommand } from "./command.js";
export type { ExtensionCommandInfo, ParsedCommand } from "./command.js";
export { DEFAULT_BLOCK_REASON } from "./reducers.js";
export type * from "./events.js";
export type * from "./types.js";
export type { PiSessionEntry, PiSessionHeader, PiSessionTreeNode, ReadonlySessionManager } from "./session-view.js";
export type { PiModuleServices } from "./pi-modules/services.js";
export type { LoadedResources, PromptTemplate, SkillInfo } from "./resources.js";
export { headlessTheme, HeadlessTheme } from "./theme.js";
