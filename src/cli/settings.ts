// settings.json: typed settings with defaults (pi key names where pi has them),
// loaded from the global and project files, deep-merged project over global over defaults.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PithError } from "../shared/errors.js";
import type { ThinkingLevel } from "../shared/types.js";
import type { CacheRetention } from "../providers/types.js";
import type { SessionSettings } from "../session/index.js";
import type { TSchema } from "typebox";
import { schemaReport } from "../shared/schema/explain.js";
import { bool, count, num, oneOf, piOnly, positive, section, str, stringMap, strings } from "./setting-schema.js";
import {
  POLICY_SCHEMA,
  defaultPermissionsSetting,
  defaultSandboxSetting,
  mergePermissionLists,
  type PermissionsSetting,
  type SandboxSetting,
} from "./policy-settings.js";
import { MCP_SCHEMA, takeMcpServers, type McpServerSettings, type McpSettings } from "./mcp-settings.js";
import { LSP_SCHEMA } from "./lsp-settings.js";
import { defaultLspSettings, type LspSettings } from "../lsp/types.js";
import { GLOBAL_ONLY_TRUST_KEYS, TRUST_SCHEMA } from "./trust-settings.js";

/**
 * Offered through `call_tool` by default: tools most sessions never call (ls, which
 * find covers; subagents; the reference's specialist tools), whose schemas would otherwise ride
 * along in every request. `tools.deferred: []` offers each with its own definition.
 */
export const DEFAULT_DEFERRED_TOOLS = ["ls", "task", "python", "ast_grep", "ast_edit", "notebook", "calc", "render_mermaid", "inspect_image", "display_image", "lsp"];

type QueueMode = "all" | "one-at-a-time";

export interface Settings {
  defaultProvider?: string;
  defaultModel?: string;
  defaultThinkingLevel: ThinkingLevel;
  enabledModels: string[];
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  interruptMode: "immediate" | "wait";
  compaction: SessionSettings["compaction"];
  retry: SessionSettings["retry"];
  todo: { enabled: boolean; reminders: boolean; remindersMax: number; eager: boolean; verbose: boolean };
  tasks: { todoClearDelay: number };
  /** The `task` tool (subagents): offered by default; concurrent subagents per session (across its task calls) and nesting depth. */
  task: { enabled: boolean; maxConcurrency: number; maxRecursionDepth: number };
  ttsr: SessionSettings["ttsr"];
  thinkingBudgets: { minimal: number; low: number; medium: number; high: number; xhigh: number };
  bash: { environment: Record<string, string> };
  /** Child processes of tools and of `bash`: names to drop (globs) and names to keep anyway. */
  /** `deferred`: tools offered through `call_tool` (names; `prefix*` matches a prefix). */
  tools: { env: { exclude: string[]; passthrough: string[] }; deferred: string[] };
  shellPath?: string;
  shellCommandPrefix?: string;
  extensions: string[];
  fileCheckpoints: NonNullable<SessionSettings["fileCheckpoints"]>;
  /** Permission mode and rules (README "Permissions and sandbox"). */
  permissions: PermissionsSetting;
  /** The bubblewrap sandbox of bash commands (`--sandbox` overrides `mode`). */
  sandbox: SandboxSetting;
  /** MCP tunables (mcp-settings.ts). */
  mcp: McpSettings;
  /** `mcpServers` of each settings file, kept apart (never merged). */
  mcpServers: McpServerSettings;
  /** Prompt caching: "none", "short" (default, ~5 minutes) or "long" (~1 hour); PITH_CACHE_RETENTION wins. */
  cacheRetention?: CacheRetention;
  /** Where sessions live: a postgres:// URL, or "jsonl" (session files, the default). Global settings only. */
  sessionStore?: string;
  /** `read` prefixes each line with its number (xcsh's key); default off, like pi and xcsh. */
  readLineNumbers?: boolean;
  /** The reference's tool switches. */
  edit: { mode: "replace" | "hashline" };
  astGrep: { enabled: boolean };
  astEdit: { enabled: boolean };
  notebook: { enabled: boolean };
  calc: { enabled: boolean };
  renderMermaid: { enabled: boolean };
  inspect_image: { enabled: boolean };
  python: { toolMode: "both" | "bash-only" | "ipy-only"; interpreter?: string };
  images: { visionModel?: string };
  /** Language servers: the lsp tool and diagnostics after writes (lsp-settings.ts). */
  lsp: LspSettings;
  /** Global only: folders (absolute) whose project layer loads; a folder inside one is trusted too. */
  trustedFolders: string[];
  /** Global only (pi's key): a folder nobody decided is trusted ("always") or not ("ask", "never"). */
  defaultProjectTrust: "ask" | "always" | "never";
}

export function defaultSettings(): Settings {
  return {
    defaultThinkingLevel: "medium",
    enabledModels: [],
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    interruptMode: "wait",
    compaction: {
      enabled: true,
      strategy: "context-full",
      reserveTokens: 16384,
      keepRecentTokens: 20000,
      thresholdPercent: -1,
      thresholdTokens: -1,
      autoContinue: true,
    },
    retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000, firstByteTimeoutMs: 60000, idleTimeoutMs: 120000 },
    // pith: the eager todo prelude (a forced todo_write before the first reply) is opt-in.
    todo: { enabled: true, reminders: true, remindersMax: 3, eager: false, verbose: false },
    tasks: { todoClearDelay: 60 },
    task: { enabled: true, maxConcurrency: 4, maxRecursionDepth: 2 },
    ttsr: { enabled: true, contextMode: "discard", interruptMode: "always", repeatMode: "once", repeatGap: 10 },
    thinkingBudgets: { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768 },
    bash: { environment: {} },
    tools: { env: { exclude: [], passthrough: [] }, deferred: [...DEFAULT_DEFERRED_TOOLS] },
    extensions: [],
    fileCheckpoints: { enabled: false, maxFileBytes: 10 * 1024 * 1024, maxFiles: 50_000, retentionDays: 14 },
    permissions: defaultPermissionsSetting(),
    sandbox: defaultSandboxSetting(),
    mcp: {},
    mcpServers: {},
    edit: { mode: "replace" },
    astGrep: { enabled: true },
    astEdit: { enabled: true },
    notebook: { enabled: true },
    calc: { enabled: true },
    renderMermaid: { enabled: true },
    inspect_image: { enabled: true },
    python: { toolMode: "both" },
    images: {},
    lsp: defaultLspSettings(),
    trustedFolders: [],
    defaultProjectTrust: "ask",
  };
}

// ── the settings schema ──────────────────────────────────────────────────────

const PI_ONLY = Object.fromEntries(
  [
    "modelThinkingLevels", "hideThinkingBlock", "showCacheMissNotices", "cacheWarming", "externalEditor", "doubleEscapeAction",
    "treeFilterMode", "defaultTools", "sessionDir", "branchSummary", "theme", "quietStartup", "tuiMode",
    "fullscreenExitOutput", "fullscreenScrollbar", "fullscreenCopyOnSelect", "editorPaddingX", "outputPad", "autocompleteMaxVisible",
    "showHardwareCursor", "terminal", "markdown", "transport", "httpProxy", "httpIdleTimeoutMs", "websocketConnectTimeoutMs",
    "npmCommand", "packages", "skills", "prompts", "themes", "enableSkillCommands", "collapseChangelog", "enableInstallTelemetry",
    "enableAnalytics", "warnings", "lastChangelogVersion",
  ].map((key) => [key, piOnly()]),
);
const queueMode = () => oneOf(["all", "one-at-a-time"]);
const enabled = () => section({ enabled: bool() });

// pi's documented keys (its docs/settings.md) are accepted too, so one settings file serves both.
const SettingsSchema = section({
  ...PI_ONLY,
  defaultProvider: str(),
  defaultModel: str(),
  defaultThinkingLevel: oneOf(["off", "minimal", "low", "medium", "high", "xhigh"]),
  enabledModels: strings(),
  steeringMode: queueMode(),
  followUpMode: queueMode(),
  interruptMode: oneOf(["immediate", "wait"]),
  compaction: section({
    modelOverrides: piOnly(),
    enabled: bool(),
    strategy: oneOf(["context-full", "off"]),
    reserveTokens: count(),
    keepRecentTokens: count(),
    thresholdPercent: num(),
    thresholdTokens: num(),
    autoContinue: bool(),
  }),
  retry: section({
    enabled: bool(),
    maxRetries: count(),
    baseDelayMs: count(),
    maxDelayMs: count(),
    firstByteTimeoutMs: count(),
    idleTimeoutMs: count(),
    maxAgentDelayMs: piOnly(),
    provider: piOnly(),
  }),
  images: section({ autoResize: piOnly(), blockImages: piOnly(), visionModel: str() }),
  edit: section({ mode: oneOf(["replace", "hashline"]) }),
  astGrep: enabled(),
  astEdit: enabled(),
  notebook: enabled(),
  calc: enabled(),
  renderMermaid: enabled(),
  inspect_image: enabled(),
  python: section({ toolMode: oneOf(["both", "bash-only", "ipy-only"]), interpreter: str() }),
  todo: section({ enabled: bool(), reminders: bool(), remindersMax: count(), eager: bool(), verbose: bool() }),
  tasks: section({ todoClearDelay: num() }),
  task: section({ enabled: bool(), maxConcurrency: positive(), maxRecursionDepth: count() }),
  ttsr: section({
    enabled: bool(),
    contextMode: oneOf(["discard", "keep"]),
    interruptMode: oneOf(["never", "prose-only", "tool-only", "always"]),
    repeatMode: oneOf(["once", "after-gap"]),
    repeatGap: count(),
  }),
  thinkingBudgets: section({ minimal: count(), low: count(), medium: count(), high: count(), xhigh: count() }),
  bash: section({ environment: stringMap() }),
  tools: section({ env: section({ exclude: strings(), passthrough: strings() }), deferred: strings() }),
  shellPath: str(),
  shellCommandPrefix: str(),
  extensions: strings(),
  fileCheckpoints: section({ enabled: bool(), maxFileBytes: positive(), maxFiles: positive(), retentionDays: positive() }),
  ...POLICY_SCHEMA,
  ...MCP_SCHEMA,
  ...LSP_SCHEMA,
  cacheRetention: oneOf(["none", "short", "long"]),
  readLineNumbers: bool(),
  ...TRUST_SCHEMA,
  sessionStore: str(),
});

/**
 * Keeps the known keys of one settings object. Unknown keys → warn; invalid values → PithError
 * ("config") naming the dotted key, the file and what was expected.
 */
export function validateSettings(value: unknown, file: string, warn: (message: string) => void): Record<string, unknown> {
  if (!isObj(value)) throw new PithError("config", `Invalid settings file ${file}: expected a JSON object`);
  const { unknown, problem } = schemaReport(SettingsSchema, value);
  for (const key of unknown) warn(`Unknown setting ${key} in ${file}`);
  if (problem?.said !== undefined) throw new PithError("config", `Invalid setting in ${file}: ${problem.said}`);
  if (problem) throw new PithError("config", `Invalid setting ${problem.path} in ${file}: expected ${problem.expected ?? "a value"}`);
  return knownKeys(value, SettingsSchema);
}

/** `value` without the keys its schema does not list or lists as pi's only (never kept). */
function knownKeys(value: Record<string, unknown>, schema: { properties?: Record<string, TSchema> }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const rule = schema.properties && Object.hasOwn(schema.properties, key) ? (schema.properties[key] as TSchema & { piOnly?: boolean; properties?: Record<string, TSchema>; additionalProperties?: unknown }) : undefined;
    if (!rule || rule.piOnly) continue;
    out[key] = rule.additionalProperties === false && isObj(item) ? knownKeys(item, rule) : item;
  }
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Objects merge key by key; arrays and scalars are replaced. Inputs are not modified. */
export function mergeSettings<T>(base: T, override: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isObj(current) && isObj(value) ? mergeSettings(current, value) : value;
  }
  return out as T;
}

function readSettingsFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new PithError("config", `Cannot read settings file ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new PithError("config", `Invalid JSON in settings file ${file}: ${(err as Error).message}`, { cause: err });
  }
}

export interface LoadSettingsOptions {
  globalPath?: string;
  projectPath?: string;
  warn: (message: string) => void;
}

/** Where the global (`PITH_HOME/settings.json`) and project (`<cwd>/.pith/settings.json`) settings live. */
export function settingsPaths(pithHome: string, cwd: string): { globalPath: string; projectPath: string } {
  return { globalPath: path.join(pithHome, "settings.json"), projectPath: path.join(cwd, ".pith", "settings.json") };
}

/** One settings file, validated: the keys it sets, with its `mcpServers` kept apart (never merged). */
export interface SettingsLayer {
  level: "global" | "project";
  values: Record<string, unknown>;
  servers?: unknown;
}

/** Reads and validates one settings file; undefined when it does not exist. */
export function readSettingsLayer(level: SettingsLayer["level"], file: string, warn: (message: string) => void): SettingsLayer | undefined {
  if (!existsSync(file)) return undefined;
  const { rest, servers } = takeMcpServers(validateSettings(readSettingsFile(file), file, warn), level, file, warn);
  if (level === "project") {
    // a project must not send its sessions (or anyone's) to a database of its choosing
    for (const key of [...GLOBAL_ONLY_TRUST_KEYS, "sessionStore"]) {
      if (!(key in rest)) continue;
      delete rest[key];
      warn(`Ignored setting ${key} in ${file}: only the global settings can set it`);
    }
  }
  return servers === undefined ? { level, values: rest } : { level, values: rest, servers };
}

/** Defaults ← each layer in order (global, then project). */
export function mergeSettingsLayers(layers: ReadonlyArray<SettingsLayer | undefined>): Settings {
  let settings = defaultSettings();
  for (const layer of layers) {
    if (!layer) continue;
    const permissions = mergePermissionLists(settings.permissions, layer.values.permissions as Partial<PermissionsSetting> | undefined);
    settings = { ...mergeSettings(settings, layer.values), permissions };
    if (layer.servers !== undefined) settings = { ...settings, mcpServers: { ...settings.mcpServers, [layer.level]: layer.servers } };
  }
  return settings;
}

/** Defaults ← global file ← project file. Missing files are skipped. */
export function loadSettings(options: LoadSettingsOptions): Settings {
  return mergeSettingsLayers([
    options.globalPath ? readSettingsLayer("global", options.globalPath, options.warn) : undefined,
    options.projectPath ? readSettingsLayer("project", options.projectPath, options.warn) : undefined,
  ]);
}

/** RPC mode resets the workflow-altering todo settings to their defaults. */
export function applyRpcOverrides(settings: Settings): Settings {
  const defaults = defaultSettings().todo;
  return {
    ...settings,
    todo: {
      ...settings.todo,
      enabled: defaults.enabled,
      reminders: defaults.reminders,
      remindersMax: defaults.remindersMax,
      eager: defaults.eager,
    },
  };
}

/** The subset the session reads. */
export function toSessionSettings(settings: Settings): SessionSettings {
  const out: SessionSettings = {
    defaultThinkingLevel: settings.defaultThinkingLevel,
    steeringMode: settings.steeringMode,
    followUpMode: settings.followUpMode,
    interruptMode: settings.interruptMode,
    compaction: { ...settings.compaction },
    retry: { ...settings.retry },
    todo: {
      enabled: settings.todo.enabled,
      reminders: settings.todo.reminders,
      remindersMax: settings.todo.remindersMax,
      eager: settings.todo.eager,
      clearDelaySeconds: settings.tasks.todoClearDelay,
    },
    ttsr: {
      enabled: settings.ttsr.enabled,
      interruptMode: settings.ttsr.interruptMode,
      repeatMode: settings.ttsr.repeatMode,
      repeatGap: settings.ttsr.repeatGap,
      contextMode: settings.ttsr.contextMode,
    },
    bashEnvironment: { ...settings.bash.environment },
    deferredTools: [...settings.tools.deferred],
  };
  if (settings.shellPath !== undefined) out.shellPath = settings.shellPath;
  out.fileCheckpoints = { ...settings.fileCheckpoints };
  const p = settings.permissions;
  out.permissions = { mode: p.mode, allow: [...p.allow], ask: [...p.ask], deny: [...p.deny] };
  if (p.timeoutMs > 0) out.permissions.timeoutMs = p.timeoutMs;
  return out;
}
