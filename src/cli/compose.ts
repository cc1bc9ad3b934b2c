// The composition root: from parsed argv, environment and settings files to a ready
// AgentSession. Nothing below src/cli reads process.env or argv.
import { mkdirSync } from "node:fs";
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
import { PithError } from "../shared/errors.js";
import type { Model, ThinkingLevel } from "../shared/types.js";
import { childEnvironment, createBuiltinTools, createReferenceTools, findOnPath, selectTools } from "../tools/index.js";
import type { ParsedArgs } from "./args.js";
import { toSessionSettings, type Settings } from "./settings.js";
import { applyPythonMode, referenceToolsOptions } from "./tool-settings.js";
import { createVisionPort } from "./vision.js";

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
  const thinking = args.thinking ?? (settings.defaultThinkingLevel as ThinkingLevel | undefined);
  const contextFiles = await discoverContextFiles({ cwd, pithHome });
  const customPrompt = args.systemPrompt !== undefined ? resolvePromptArg(args.systemPrompt, cwd) : undefined;
  const appendPrompt = (args.appendSystemPrompt ?? []).map((p) => resolvePromptArg(p, cwd));
  const tempDir = path.join(tmpdir(), "pith");
  mkdirSync(tempDir, { recursive: true });
  const rgPath = findOnPath("rg", e.env.PATH);
  const scoped = (args.models ?? []).map((s) => resolveSelector(registry, s)).filter((m): m is Model => !!m);
  // Tools and `bash` never see the credentials pith reads (issue 16, item 6).
  const childEnv = await childEnvironment(e.env, { secrets: registry.credentialEnvNames(), ...settings.tools.env });
  // engine §3.4.1: PI_EDIT_VARIANT (replace | hashline) wins over the setting edit.mode.
  const variant = e.env.PI_EDIT_VARIANT;
  const editMode = variant === "hashline" || variant === "replace" ? variant : settings.edit.mode;
  const vision = createVisionPort({ registry, stream: createStreamFn(), current: () => session.models.current, visionModel: settings.images.visionModel });
  const session: AgentSession = new AgentSession({
    cwd,
    pithHome,
    settings: sessionSettings,
    registry,
    stream: createStreamFn(),
    storage,
    file,
    sessionDir,
    createTools: (todos) => {
      const modelAcceptsImages = () => session.models.current?.input.includes("image") ?? true;
      const all = applyPythonMode(
        [
          ...createBuiltinTools({ cwd, tempDir, rgPath, todos, modelAcceptsImages, env: childEnv, editMode }),
          ...createReferenceTools({ ...referenceToolsOptions(settings), rgPath, env: childEnv, vision }),
        ],
        settings,
      );
      return selectTools(all, { allow: args.tools, none: args.noTools });
    },
    buildSystemPrompt: (tools) => buildSystemPrompt({ tools, cwd, now: new Date(), contextFiles, customPrompt, appendPrompt }),
    initialModel: model,
    initialThinkingLevel: thinking,
    scopedModels: scoped,
    tempDir,
    childEnv,
    providerSessionId: args.providerSessionId,
    log: e.log,
  });
  return { session, registry, pithHome };
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
