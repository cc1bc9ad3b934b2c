// The composition root: from parsed argv, environment and settings files to a ready
// AgentSession. Nothing below src/cli reads process.env or argv.
import { mkdirSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { createModelRegistry, type ModelRegistry } from "../providers/models/registry.js";
import { createStreamFn } from "../providers/stream.js";
import {
  AgentSession,
  buildSystemPrompt,
  createJsonlStorage,
  discoverContextFiles,
  resolvePromptArg,
  resolveSessionArg,
  sessionDirFor,
  type SessionLog,
  type SessionSettings,
  type SessionStorage,
} from "../session/index.js";
import type { CreateSessionParams } from "../protocol/index.js";
import { PithError } from "../shared/errors.js";
import type { Model, ThinkingLevel } from "../shared/types.js";
import { childEnvironment, createBuiltinTools, findOnPath, selectTools } from "../tools/index.js";
import type { ParsedArgs } from "./args.js";
import { toSessionSettings, type Settings } from "./settings.js";

export interface Environment {
  env: Record<string, string | undefined>;
  cwd: string;
  log(message: string): void;
}

export function pithHomeOf(env: Record<string, string | undefined>): string {
  return env.PITH_HOME && env.PITH_HOME.trim() ? path.resolve(env.PITH_HOME) : path.join(homedir(), ".pith");
}

export interface Composed {
  session: AgentSession;
  registry: ModelRegistry;
  pithHome: string;
  /** Builds further sessions in this process (`create_session`), sharing registry, settings and storage. */
  createSession(params: CreateSessionParams, current: AgentSession): Promise<AgentSession>;
}

/** What every session of the process shares. */
interface Shared {
  args: ParsedArgs;
  e: Environment;
  pithHome: string;
  registry: ModelRegistry;
  storage: SessionStorage;
  sessionSettings: SessionSettings;
  thinking: ThinkingLevel | undefined;
  scoped: Model[];
  tempDir: string;
  rgPath: ReturnType<typeof findOnPath>;
  childEnv: Record<string, string>;
}

/** Builds the session for any mode. `requireModel` (print/json) fails early without a model. */
export async function composeSession(args: ParsedArgs, settings: Settings, e: Environment): Promise<Composed> {
  const cwd = args.cwd ? path.resolve(e.cwd, args.cwd) : e.cwd;
  const pithHome = pithHomeOf(e.env);
  const registry = createModelRegistry({
    pithHome,
    env: e.env,
    warn: e.log,
    cliApiKey: args.apiKey,
    cliProvider: args.provider,
    cwd,
  });
  const sessionSettings: SessionSettings = toSessionSettings(settings);
  if (args.noRules) sessionSettings.ttsr.enabled = false;
  const sessionDir = args.noSession ? undefined : args.sessionDir ? path.resolve(cwd, args.sessionDir) : sessionDirFor(pithHome, cwd);
  const storage = createJsonlStorage();
  const file = openSessionFile(storage, args, sessionDir, cwd, path.join(pithHome, "sessions"));
  for (const w of file.warnings) e.log(w);
  const model = pickModel(args, settings, registry);
  const tempDir = path.join(tmpdir(), "pith");
  mkdirSync(tempDir, { recursive: true });
  const shared: Shared = {
    args,
    e,
    pithHome,
    registry,
    storage,
    sessionSettings,
    thinking: args.thinking ?? (settings.defaultThinkingLevel as ThinkingLevel | undefined),
    scoped: (args.models ?? []).map((s) => resolveSelector(registry, s)).filter((m): m is Model => !!m),
    tempDir,
    rgPath: findOnPath("rg", e.env.PATH),
    // Tools and `bash` never see the credentials pith reads (issue 16, item 6).
    childEnv: await childEnvironment(e.env, { secrets: registry.credentialEnvNames(), ...settings.tools.env }),
  };
  const session = await buildSession(shared, { cwd, file, sessionDir, model });
  return { session, registry, pithHome, createSession: (params, current) => createAnotherSession(shared, cwd, params, current) };
}

/** One AgentSession around an open session file. */
async function buildSession(sh: Shared, o: { cwd: string; file: SessionLog; sessionDir: string | undefined; model: Model | undefined }): Promise<AgentSession> {
  const args = sh.args;
  const cwd = o.cwd;
  const contextFiles = await discoverContextFiles({ cwd, pithHome: sh.pithHome });
  const customPrompt = args.systemPrompt !== undefined ? resolvePromptArg(args.systemPrompt, cwd) : undefined;
  const appendPrompt = (args.appendSystemPrompt ?? []).map((p) => resolvePromptArg(p, cwd));
  const session: AgentSession = new AgentSession({
    cwd,
    pithHome: sh.pithHome,
    settings: sh.sessionSettings,
    registry: sh.registry,
    stream: createStreamFn(),
    storage: sh.storage,
    file: o.file,
    sessionDir: o.sessionDir,
    createTools: (todos) => {
      const modelAcceptsImages = () => session.models.current?.input.includes("image") ?? true;
      const all = createBuiltinTools({ cwd, tempDir: sh.tempDir, rgPath: sh.rgPath, todos, modelAcceptsImages, env: sh.childEnv });
      return selectTools(all, { allow: args.tools, none: args.noTools });
    },
    buildSystemPrompt: (tools) => buildSystemPrompt({ tools, cwd, now: new Date(), contextFiles, customPrompt, appendPrompt }),
    initialModel: o.model,
    initialThinkingLevel: sh.thinking,
    scopedModels: sh.scoped,
    tempDir: sh.tempDir,
    childEnv: sh.childEnv,
    providerSessionId: args.providerSessionId,
    log: sh.e.log,
  });
  return session;
}

/**
 * `create_session`: another session in this process. Omitted fields follow the process: its cwd,
 * the current model of the session that asked, and the cwd's session folder (or `--session-dir`).
 */
async function createAnotherSession(sh: Shared, processCwd: string, p: CreateSessionParams, current: AgentSession): Promise<AgentSession> {
  const cwd = p.cwd !== undefined ? path.resolve(processCwd, p.cwd) : processCwd;
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new PithError("invalid_request", `Invalid "cwd": not a folder: ${cwd}`);
  if ((p.provider === undefined) !== (p.modelId === undefined)) throw new PithError("invalid_request", "create_session needs both provider and modelId, or neither");
  let model = current.models.current;
  if (p.provider !== undefined && p.modelId !== undefined) {
    model = sh.registry.find(p.provider, p.modelId) ?? sh.registry.resolve(p.provider, p.modelId);
    if (!model) throw new PithError("not_found", `Model not found: ${p.provider}/${p.modelId}`);
  }
  const noSession = p.noSession ?? sh.args.noSession ?? false;
  const sessionDir = noSession ? undefined : sh.args.sessionDir ? path.resolve(processCwd, sh.args.sessionDir) : sessionDirFor(sh.pithHome, cwd);
  let file: SessionLog;
  if (p.sessionPath !== undefined) {
    if (noSession) throw new PithError("invalid_request", "create_session: sessionPath and noSession exclude each other");
    const abs = path.resolve(cwd, p.sessionPath);
    file = sh.storage.exists(abs) ? sh.storage.open(abs, { cwd }) : sh.storage.createAt(abs, { cwd });
  } else {
    file = sh.storage.create({ dir: sessionDir, cwd });
  }
  for (const w of file.warnings) sh.e.log(w);
  try {
    return await buildSession(sh, { cwd, file, sessionDir, model });
  } catch (err) {
    file.close();
    throw err;
  }
}

/** The session file the process starts with (engine.md §1.8): --session, --continue, or a new one. */
function openSessionFile(storage: SessionStorage, args: ParsedArgs, sessionDir: string | undefined, cwd: string, sessionsRoot: string): SessionLog {
  if (!sessionDir) return storage.create({ dir: undefined, cwd });
  if (args.session) {
    // a path-like argument resolves against the working directory even when it does not exist
    const file = resolveSessionArg(args.session, sessionDir, cwd, args.sessionDir ? undefined : sessionsRoot);
    // engine.md §1.5: a session file that does not exist yet is created at that exact path
    if (!storage.exists(file)) return storage.createAt(file, { cwd });
    return storage.open(file, { cwd });
  }
  if (args.continue) {
    const recent = storage.mostRecent(sessionDir);
    if (recent) return storage.open(recent, { cwd });
  }
  return storage.create({ dir: sessionDir, cwd });
}

/** `provider/id`, or an id searched across providers. */
function resolveSelector(registry: ModelRegistry, selector: string): Model | undefined {
  const slash = selector.indexOf("/");
  if (slash > 0) {
    const provider = selector.slice(0, slash);
    const id = selector.slice(slash + 1);
    return registry.find(provider, id) ?? registry.resolve(provider, id);
  }
  return registry.all().find((m) => m.id === selector);
}

function pickModel(args: ParsedArgs, settings: Settings, registry: ModelRegistry): Model | undefined {
  if (args.provider && args.model) {
    const model = registry.find(args.provider, args.model) ?? registry.resolve(args.provider, args.model);
    if (!model) throw new PithError("config", `Model not found: ${args.provider}/${args.model}`);
    return model;
  }
  if (args.model) {
    const model = resolveSelector(registry, args.model);
    if (!model) throw new PithError("config", `Model not found: ${args.model}`);
    return model;
  }
  if (args.provider) {
    const model = registry.available().find((m) => m.provider === args.provider);
    if (!model) throw new PithError("config", `No available model for provider ${args.provider}`);
    return model;
  }
  return registry.defaultModel({ defaultProvider: settings.defaultProvider, defaultModel: settings.defaultModel });
}
