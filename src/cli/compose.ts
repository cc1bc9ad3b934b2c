// The composition root: from parsed argv, environment and settings files to a ready
// AgentSession. Nothing below src/cli reads process.env or argv.
import { statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { createModelRegistry, type ModelRegistry } from "../providers/models/registry.js";
import { createStreamFn } from "../providers/stream.js";
import {
  AgentSession,
  buildSystemPrompt,
  discoverContextFiles,
  resolvePromptArg,
  type McpWiring,
  type SessionLog,
  type SessionSettings,
  type SessionStorage,
  sessionWiring,
} from "../session/index.js";
import type { CreateSessionParams } from "../protocol/index.js";
import { PithError, errorMessage } from "../shared/errors.js";
import { noApiKeyMessage, noModelMessage } from "../providers/models/env-keys.js";
import type { Model, ThinkingLevel } from "../shared/types.js";
import {
  agentMcpFilter,
  createNodeFsOps,
  createTaskTool,
  findOnPath,
  loadAgents,
  selectTools,
  type AgentDefinition,
  type FsOps,
  type Tool,
} from "../tools/index.js";
import { openProjectGrants } from "../policy/index.js";
import { createSubagentFactory } from "./subagents.js";
import type { ParsedArgs } from "./args.js";
import { setUpSandbox, type SessionSandboxSetup } from "./sandbox-setup.js";
import { borrowMcp, setUpMcp, type ProjectMcpWiring } from "./mcp.js";
import { lspWiring, setUpLsp } from "./lsp.js";
import type { LspRuntime } from "../lsp/index.js";
import { attachExtensions, headlessBindings, loadProjectExtensions } from "./extensions.js";
import { sessionTempDir, userTempDir, type SessionTemp } from "./private-temp.js";
import { resolveCacheRetention } from "./cache-retention.js";
import { toSessionSettings, type Settings } from "./settings.js";
import { ProjectLayer, settingsFor, type LayerContext, type SettingsSource } from "./project-layer.js";
import { toolsOf } from "./compose-tools.js";
import { createVisionPort } from "./vision.js";
import { sessionStorageFor, storeSecretEnv } from "./session-store.js";

export interface Environment {
  env: Record<string, string | undefined>;
  cwd: string;
  log(message: string): void;
  /** Called once the credential variables are known: hides them (and `--api-key`) from the process's /proc entries. */
  hideSecrets?(credentialEnvNames: Iterable<string>): void;
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

/** Parts a front door substitutes (ACP: the editor's files). */
export interface ComposeParts {
  fs?: FsOps;
}

/**
 * What every session of the process shares. Settings are each session's own: the global file,
 * and its folder's project file when that folder is trusted (`ProjectLayer`).
 */
interface Shared {
  args: ParsedArgs;
  e: Environment;
  parts: ComposeParts;
  pithHome: string;
  registry: ModelRegistry;
  storage: SessionStorage;
  scoped: Model[];
  tempDir: string;
  rgPath: ReturnType<typeof findOnPath>;
  layers: LayerContext;
  /** stderr, each distinct line once (a warning met again at every `task` call). */
  logOnce(message: string): void;
}

/** Builds the session for any mode. `requireModel` (print/json) fails early without a model. */
export async function composeSession(args: ParsedArgs, source: SettingsSource, e: Environment, parts: ComposeParts = {}): Promise<Composed> {
  const { sh, cwd, layer } = await composeProcess(args, source, e, parts);
  const sessionDir = args.noSession ? undefined : args.sessionDir ? path.resolve(cwd, args.sessionDir) : sh.storage.dirFor(sh.pithHome, cwd);
  const file = openSessionFile(sh.storage, args, sessionDir, cwd, sh.pithHome);
  for (const w of file.warnings) e.log(w);
  const model = pickModel(args, layer.settings, sh.registry);
  const session = await buildSession(sh, { cwd, file, sessionDir, model, layer });
  return { session, registry: sh.registry, pithHome: sh.pithHome, createSession: (params, current) => createAnotherSession(sh, cwd, params, current) };
}

/** What a process serving many hosts shares: no session yet, each host's first one made on demand. */
export interface ComposedServer {
  registry: ModelRegistry;
  pithHome: string;
  /** A new session in the process's folder, as a fresh `--mode rpc` process starts one (a new file, the flags' and settings' model). */
  newSession(): Promise<AgentSession>;
  /** `create_session` of a host's connection. */
  createSession(params: CreateSessionParams, current: AgentSession): Promise<AgentSession>;
}

/** The process's shared parts for `pith serve`; the model the flags name is checked now (a bad one fails startup). */
export async function composeServer(args: ParsedArgs, source: SettingsSource, e: Environment): Promise<ComposedServer> {
  const { sh, cwd, layer } = await composeProcess(args, source, e, {});
  pickModel(args, layer.settings, sh.registry);
  return {
    registry: sh.registry,
    pithHome: sh.pithHome,
    newSession: () => createAnotherSession(sh, cwd, {}, undefined),
    createSession: (params, current) => createAnotherSession(sh, cwd, params, current),
  };
}

/** The parts every session of the process shares, and the process folder's project layer. */
async function composeProcess(args: ParsedArgs, source: SettingsSource, e: Environment, parts: ComposeParts): Promise<{ sh: Shared; cwd: string; layer: ProjectLayer }> {
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
  const storage = await sessionStorageFor(args, source, e.env);
  const secrets = () => [...registry.credentialEnvNames(), ...storeSecretEnv(storage)];
  e.hideSecrets?.(secrets());
  const tempDir = userTempDir(tmpdir(), e.log);
  // tools and `bash` never see the credentials pith reads, nor the session database's URL or password
  const layers: LayerContext = { args, source, pithHome, env: e.env, log: e.log, secrets };
  const layer = await ProjectLayer.create(layers, cwd);
  const sh: Shared = {
    args,
    e,
    parts,
    pithHome,
    registry,
    storage,
    scoped: (args.models ?? []).map((s) => registry.select(s)).filter((m): m is Model => !!m),
    tempDir,
    rgPath: findOnPath("rg", e.env.PATH),
    layers,
    logOnce: onceLogger(e.log),
  };
  return { sh, cwd, layer };
}

function onceLogger(log: (message: string) => void): (message: string) => void {
  const said = new Set<string>();
  return (message) => {
    if (said.has(message)) return;
    said.add(message);
    log(message);
  };
}

/** The settings a session reads, with the command line's and environment's overrides. */
function sessionSettingsOf(settings: Settings, args: ParsedArgs, env: Environment["env"]): SessionSettings {
  const out = toSessionSettings(settings);
  if (args.noRules) out.ttsr.enabled = false;
  if (args.fileCheckpoints && out.fileCheckpoints) out.fileCheckpoints.enabled = true;
  out.cacheRetention = resolveCacheRetention(settings.cacheRetention, env);
  return out;
}

/** One AgentSession around an open session file: its sandbox, MCP servers and tools. */
interface BuildOptions {
  cwd: string;
  /** The folder's trust and settings (a subagent shares its parent's). */
  layer: ProjectLayer;
  file: SessionLog;
  sessionDir: string | undefined;
  model: Model | undefined;
  /** Subagent nesting depth (0 = a top-level session) and the agent definition a subagent runs. */
  depth?: number;
  agent?: AgentDefinition;
  /** A subagent's thinking level (its agent's, else its parent's); absent: the CLI's / settings'. */
  thinkingLevel?: ThinkingLevel;
  /**
   * What a subagent inherits: its parent's MCP servers (used instead of starting its own) and the
   * parent's own tools (a subagent gets none beyond them, whatever its agent lists).
   */
  parent?: Inherited;
}

interface Inherited {
  mcp: McpWiring;
  /** The parent's language servers (a subagent starts none of its own). */
  lsp: LspRuntime | undefined;
  /** The parent's tools when the subagent is built (built-in, extension, host and MCP). */
  toolNames: ReadonlySet<string>;
}

async function buildSession(sh: Shared, o: BuildOptions): Promise<AgentSession> {
  const { args, e } = sh;
  const { cwd, layer } = o;
  const settings = layer.settings;
  // The bubblewrap probe runs beside the rest of the set-up; pith refuses to start (before the
  // session exists and `ready` is written) when bubblewrap cannot sandbox here. The sandbox is
  // made once, from the settings the session starts with.
  const sandboxMode = args.sandbox ?? settings.sandbox.mode;
  const boxing: Promise<SessionSandboxSetup> | undefined =
    sandboxMode === "off"
      ? undefined
      : setUpSandbox({ ...settings.sandbox, mode: sandboxMode }, { cwd, pithHome: sh.pithHome, bwrap: e.env.PITH_BWRAP || undefined, credentialFiles: credentialFiles(sh) });
  boxing?.catch(() => undefined); // awaited below; a failure before that must not be unhandled
  let temp: SessionTemp | undefined;
  try {
    temp = await sessionTempDir(sh.tempDir);
    return await assemble(sh, o, boxing, temp);
  } catch (err) {
    // a session that could not be built leaves no folder, sandbox or stand-in behind
    await Promise.all([temp?.release(), boxing?.then((b) => b.sandbox.dispose(), () => undefined)]);
    throw err;
  }
}

/** Files that hold pith's credentials: the `--api-key-file` and models.json (literal keys, headers). */
function credentialFiles(sh: Shared): string[] {
  return [...(sh.args.apiKeyFile ? [path.resolve(sh.e.cwd, sh.args.apiKeyFile)] : []), path.join(sh.pithHome, "models.json")];
}

/** The session itself, once its sandbox is being set up and its private temp folder exists. */
async function assemble(sh: Shared, o: BuildOptions, boxing: Promise<SessionSandboxSetup> | undefined, temp: SessionTemp): Promise<AgentSession> {
  const { args, e, registry } = sh;
  const { cwd, layer } = o;
  const settings = layer.settings;
  const tempDir = temp.dir;
  const contextFiles = await discoverContextFiles({ cwd, pithHome: sh.pithHome });
  const customPrompt = args.systemPrompt !== undefined ? resolvePromptArg(args.systemPrompt, cwd) : undefined;
  const appendPrompt = (args.appendSystemPrompt ?? []).map((p) => resolvePromptArg(p, cwd));
  if (o.agent?.systemPrompt) appendPrompt.push(o.agent.systemPrompt);
  // made with the tools (its agent list is read then): again when the folder is trusted later
  const taskTool = () => taskToolFor(sh, o, () => session, () => ({ mcp, lsp, toolNames: new Set(sessionWiring(session).tools.active().map((t) => t.name)) }));
  const boxed = await boxing;
  const modelAcceptsImages = () => session.model?.input.includes("image") ?? true;
  // Servers connect in the background; the first prompt waits for those still starting. A
  // subagent uses its parent's servers, limited to the MCP tools its agent definition names.
  const ownMcp = o.parent ? undefined : await setUpMcp({ settings, cwd, pithHome: sh.pithHome, env: e.env, log: e.log, modelAcceptsImages, trusted: layer.trusted, wrapCommand: boxed?.sandbox.wrap });
  const mcp = ownMcp ?? borrowMcp(o.parent!.mcp, o.agent && agentMcpFilter(o.agent));
  const fs = sh.parts.fs ?? createNodeFsOps();
  const lsp = o.parent ? o.parent.lsp : await setUpLsp({ settings, cwd, pathEnv: e.env.PATH, childEnv: layer.childEnv, boxed, fs, guardWrite: boxed?.guardWrite });
  const vision = createVisionPort({ registry, stream: createStreamFn(), current: () => session.model, visionModel: settings.images.visionModel, timeouts: { firstByteTimeoutMs: settings.retry.firstByteTimeoutMs, idleTimeoutMs: settings.retry.idleTimeoutMs } });
  const session: AgentSession = new AgentSession({
    cwd,
    pithHome: sh.pithHome,
    settings: sessionSettingsOf(settings, args, e.env),
    registry,
    stream: createStreamFn(),
    storage: sh.storage,
    file: o.file,
    sessionDir: o.sessionDir,
    // built again (with the layer's settings of the moment) when the folder is trusted later
    createTools: (todos) =>
      chooseTools(
        toolsOf({ cwd, layer, env: e.env, tempDir, rgPath: sh.rgPath, fs, todos, boxed, vision, modelAcceptsImages, taskTool, lsp, approveFileWrites: (paths, call) => sessionWiring(session).approveFileWrites(paths, call) }),
        args,
        o,
        e.log,
      ),
    buildSystemPrompt: (tools) => buildSystemPrompt({ tools, cwd, now: new Date(), contextFiles, customPrompt, appendPrompt }),
    initialModel: o.model,
    initialThinkingLevel: o.thinkingLevel ?? args.thinking ?? settings.defaultThinkingLevel,
    scopedModels: sh.scoped,
    tempDir,
    shellStateDir: boxed?.shellDir,
    releaseTempDir: temp.release,
    childEnv: layer.childEnv,
    sandbox: boxed?.sandbox,
    providerSessionId: args.providerSessionId,
    pathEnv: e.env.PATH,
    mcp,
    lsp: lspWiring(lsp, o.parent !== undefined),
    allowExtensionTool: extensionToolFilter(o),
    // "Allow always" grants live with the user, per project: never in (or from) a session file
    grants: openProjectGrants({ pithHome: sh.pithHome, cwd, warn: e.log }),
    projectTrust: layer.port(!o.parent),
    log: e.log,
  });
  if (ownMcp) loadLayerLater(layer, session, ownMcp, args, e);
  return session;
}

/** A top-level session's folder trusted while it runs: its MCP servers, settings and extensions join. */
function loadLayerLater(layer: ProjectLayer, session: AgentSession, mcp: ProjectMcpWiring, args: ParsedArgs, e: Environment): void {
  layer.own(session);
  layer.onTrusted(async (next) => {
    await mcp.trustProject(next);
    await sessionWiring(session).reconfigure(sessionSettingsOf(next, args, e.env));
    await loadProjectExtensions(args, session, e.log);
  });
}

/**
 * The tools a session gets: those its agent definition lists (a subagent), else `--tools`; a
 * subagent gets none its parent does not have, and no `todo_write`.
 */
function chooseTools(all: Tool[], args: ParsedArgs, o: BuildOptions, log: (message: string) => void): Tool[] {
  let chosen: Tool[];
  if (o.agent?.tools) {
    const known = new Set(all.map((t) => t.name));
    const missing = o.agent.tools.filter((n) => !known.has(n) && !n.startsWith("mcp__"));
    if (missing.length > 0) log(`pith: agent "${o.agent.name}" names tools this session does not have, left out: ${missing.join(", ")}`);
    chosen = selectTools(all, { allow: o.agent.tools.filter((n) => known.has(n)) });
  } else {
    chosen = selectTools(all, { allow: args.tools, none: args.noTools });
  }
  const parent = o.parent;
  // The todo list is the parent's to keep (as the reference): a subagent's own would go unseen.
  return parent ? chosen.filter((t) => parent.toolNames.has(t.name) && !PARENT_OWNED_TOOLS.has(t.name)) : chosen;
}

/** Tools a subagent never gets (the reference's parent-owned tools). */
const PARENT_OWNED_TOOLS: ReadonlySet<string> = new Set(["todo_write"]);

/** A subagent's extension tools: those its parent has and, when its agent lists tools, those it names. */
function extensionToolFilter(o: BuildOptions): ((name: string) => boolean) | undefined {
  const parent = o.parent;
  if (!parent) return undefined;
  const named = o.agent?.tools && new Set(o.agent.tools);
  return (name) => parent.toolNames.has(name) && (!named || named.has(name));
}

/** The `task` tool of one session (undefined when `task.enabled` is off). */
function taskToolFor(sh: Shared, o: BuildOptions, parent: () => AgentSession, inherit: () => Inherited): Tool | undefined {
  const t = o.layer.settings.task;
  if (!t.enabled) return undefined;
  const factory = createSubagentFactory({
    depth: o.depth ?? 0,
    maxConcurrency: Math.max(1, Math.floor(t.maxConcurrency)),
    maxRecursionDepth: t.maxRecursionDepth,
    // read at each call: a folder trusted later brings its agents along
    agents: () => loadAgents({ pithHome: sh.pithHome, cwd: o.cwd, project: o.layer.trusted, warn: sh.logOnce }),
    storage: sh.storage,
    sessionDir: o.sessionDir,
    cwd: o.cwd,
    parent,
    resolveModel: (selector) => sh.registry.select(selector),
    build: async (b) => {
      const session = await buildSession(sh, { ...b, cwd: o.cwd, layer: o.layer, sessionDir: o.sessionDir, parent: inherit() });
      // A subagent runs the extensions every session of this process runs, so their tool_call
      // hooks guard its calls too; it has no UI of its own (as the reference's subagents).
      await attachExtensions(sh.args, session, sh.pithHome, sh.e.log, headlessBindings(sh.e.log), { settle: false });
      return session;
    },
  });
  return createTaskTool(factory);
}

/**
 * `create_session`: another session in this process. Omitted fields follow the process: its cwd,
 * the current model of the session that asked, and the cwd's session folder (or `--session-dir`).
 */
async function createAnotherSession(sh: Shared, processCwd: string, p: CreateSessionParams, current: AgentSession | undefined): Promise<AgentSession> {
  const cwd = p.cwd !== undefined ? path.resolve(processCwd, p.cwd) : processCwd;
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new PithError("invalid_request", `Invalid "cwd": not a folder: ${cwd}`);
  if ((p.provider === undefined) !== (p.modelId === undefined)) throw new PithError("invalid_request", "create_session needs both provider and modelId, or neither");
  let model = current?.model;
  if (p.provider !== undefined && p.modelId !== undefined) {
    model = sh.registry.select({ provider: p.provider, id: p.modelId });
    if (!model) throw new PithError("not_found", `Model not found: ${p.provider}/${p.modelId}`);
  }
  const noSession = p.noSession ?? sh.args.noSession ?? false;
  const sessionDir = noSession ? undefined : sh.args.sessionDir ? path.resolve(processCwd, sh.args.sessionDir) : sh.storage.dirFor(sh.pithHome, cwd);
  let file: SessionLog;
  if (p.sessionPath !== undefined) {
    if (noSession) throw new PithError("invalid_request", "create_session: sessionPath and noSession exclude each other");
    const ref = sh.storage.resolve(p.sessionPath, cwd);
    file = sh.storage.exists(ref) ? sh.storage.open(ref, { cwd }) : sh.storage.createAt(ref, { cwd });
  } else {
    file = sh.storage.create({ dir: sessionDir, cwd });
  }
  for (const w of file.warnings) sh.e.log(w);
  try {
    // the new session's own folder decides its trust (and so its settings)
    const layer = await ProjectLayer.create(sh.layers, cwd);
    // no session asked: the model a fresh process would start with (flags, then the folder's settings)
    if (!current && p.provider === undefined) model = pickModel(sh.args, layer.settings, sh.registry);
    return await buildSession(sh, { cwd, file, sessionDir, model, layer });
  } catch (err) {
    file.close();
    throw err;
  }
}

/**
 * The model a new session would start with, and why it could not answer yet (no model, or no
 * key for its provider), without building a session: ACP's `initialize` reports it.
 */
export function probeModel(args: ParsedArgs, source: SettingsSource, e: Environment): { model?: Model; problem?: string } {
  const pithHome = pithHomeOf(e.env);
  try {
    // the model defaults of the global settings: a folder's own are known once its session exists
    const settings = settingsFor({ source, pithHome, log: () => undefined }, e.cwd, false);
    const registry = createModelRegistry({ pithHome, env: e.env, warn: () => {}, cliApiKey: args.apiKey, cliProvider: args.provider, cwd: e.cwd });
    const model = pickModel(args, settings, registry);
    if (!model) return { problem: noModelMessage(pithHome) };
    if (registry.hasCredentials(model.provider)) return { model };
    return { model, problem: noApiKeyMessage(model.provider, pithHome) };
  } catch (err) {
    return { problem: errorMessage(err) };
  }
}

/** The session file the process starts with: --session, --continue, or a new one. */
function openSessionFile(storage: SessionStorage, args: ParsedArgs, sessionDir: string | undefined, cwd: string, pithHome: string): SessionLog {
  if (!sessionDir) return storage.create({ dir: undefined, cwd });
  if (args.session) {
    // a path-like argument resolves against the working directory even when it does not exist
    const file = storage.find(args.session, { dir: sessionDir, cwd, pithHome: args.sessionDir ? undefined : pithHome });
    // A session file that does not exist yet is created at that exact path
    if (!storage.exists(file)) return storage.createAt(file, { cwd });
    return storage.open(file, { cwd });
  }
  if (args.continue) {
    const recent = storage.mostRecent(sessionDir);
    if (recent) return storage.open(recent, { cwd });
  }
  return storage.create({ dir: sessionDir, cwd });
}

function pickModel(args: ParsedArgs, settings: Settings, registry: ModelRegistry): Model | undefined {
  if (args.provider && args.model) {
    const model = registry.select({ provider: args.provider, id: args.model });
    if (!model) throw new PithError("config", `Model not found: ${args.provider}/${args.model}`);
    return model;
  }
  if (args.model) {
    const model = registry.select(args.model);
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
