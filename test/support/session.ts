// Test helpers: an AgentSession built in-process around a given stream function, with the
// CLI's default settings, a one-model registry and session files in a temp folder (or memory).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultSettings, toSessionSettings } from "../../src/cli/settings.js";
import { CommandRunner } from "../../src/providers/models/config-value.js";
import type { ModelRegistry } from "../../src/providers/models/registry.js";
import { scopeRegistry } from "../../src/providers/models/runtime-providers.js";
import type { StreamFn } from "../../src/providers/types.js";
import { parseModelSelector } from "../../src/shared/model-selector.js";
import type { AgentSessionEvent, Model } from "../../src/shared/types.js";
import type { Tool } from "../../src/tools/types.js";
import { TEST_MODEL } from "./agent.js";
import { AgentSession, createJsonlStorage, type AgentSessionOptions, type McpWiring, type SessionSettings } from "../../src/session/index.js";

/** The CLI's defaults as the session sees them, with `edit` applied. */
export function testSettings(edit?: (s: SessionSettings) => void): SessionSettings {
  const s = toSessionSettings(defaultSettings());
  s.retry.baseDelayMs = 1;
  edit?.(s);
  return s;
}

/** A registry that knows exactly `models`, all with credentials. */
export function modelsRegistry(models: Model[] = [TEST_MODEL]): ModelRegistry {
  const find = (provider: string, id: string) => models.find((m) => m.provider === provider && m.id === id);
  const registry: ModelRegistry = {
    all: () => models,
    available: () => models,
    find,
    resolve: find,
    select: (selector) => {
      const { provider, id } = typeof selector === "string" ? parseModelSelector(selector) : selector;
      return provider === undefined ? models.find((m) => m.id === id) : find(provider, id);
    },
    getApiKey: async () => "test-key",
    hasCredentials: () => true,
    providers: () => [...new Set(models.map((m) => m.provider))],
    discover: async () => undefined,
    defaultModel: () => models[0],
    credentialEnvNames: () => [],
    allowsUnknownModels: () => false,
    scope: () => scopeRegistry(registry, {}, new CommandRunner({}), () => undefined),
  };
  return registry;
}

export interface TestSessionOptions {
  stream: StreamFn;
  /** Session files go here; undefined: a fresh temp folder; null: in memory. */
  sessionDir?: string | null;
  cwd?: string;
  settings?: SessionSettings;
  registry?: ModelRegistry;
  model?: Model;
  tools?: Tool[];
  /** MCP servers (session-mcp.ts); none by default. */
  mcp?: McpWiring;
  log?: (message: string) => void;
  /** Any other AgentSession option (pithHome, pathEnv, ...). */
  extra?: Partial<AgentSessionOptions>;
}

export interface TestSession {
  session: AgentSession;
  events: AgentSessionEvent[];
  sessionDir: string | undefined;
  logs: string[];
}

export function testSession(o: TestSessionOptions): TestSession {
  const sessionDir = o.sessionDir === null ? undefined : (o.sessionDir ?? mkdtempSync(path.join(tmpdir(), "pith-session-")));
  const cwd = o.cwd ?? mkdtempSync(path.join(tmpdir(), "pith-cwd-"));
  const storage = createJsonlStorage();
  const logs: string[] = [];
  const registry = o.registry ?? modelsRegistry(o.model ? [o.model] : undefined);
  const session = new AgentSession({
    cwd,
    pithHome: path.join(tmpdir(), "pith-home-unused"),
    settings: o.settings ?? testSettings(),
    registry,
    stream: o.stream,
    storage,
    file: storage.create({ dir: sessionDir, cwd }),
    sessionDir,
    createTools: () => o.tools ?? [],
    buildSystemPrompt: (tools) => `system prompt for ${tools.map((t) => t.name).join(",") || "no tools"}`,
    initialModel: o.model ?? registry.available()[0],
    initialThinkingLevel: "off",
    tempDir: tmpdir(),
    mcp: o.mcp,
    log: o.log ?? ((m) => logs.push(m)),
    ...o.extra,
  });
  const events: AgentSessionEvent[] = [];
  session.subscribe((e) => events.push(e));
  return { session, events, sessionDir, logs };
}
