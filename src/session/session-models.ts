// Model and thinking-level selection. Changes are recorded in
// the session file; they never touch the user's settings.
import { noApiKeyMessage, noModelMessage } from "../providers/models/env-keys.js";
import { nextModel, sameModel } from "../providers/models/model-cycle.js";
import type { ScopedModelRegistry } from "../providers/models/runtime-providers.js";
import { cycleThinkingLevel, resolveThinkingLevel, supportedEfforts } from "../providers/models/thinking.js";
import { PithError } from "../shared/errors.js";
import type { Model, ThinkingLevel } from "../shared/types.js";
import type { Conversation } from "./conversation.js";
import { checkProvider, type ProviderCheck, type ProviderCheckOptions } from "./provider-check.js";

export class ModelNotFoundError extends PithError {
  constructor(provider: string, modelId: string) {
    super("not_found", `Model not found: ${provider}/${modelId}`);
  }
}

export interface CycledModel {
  model: Model;
  thinkingLevel?: ThinkingLevel;
  isScoped: boolean;
}

export interface SessionModelsOptions {
  conversation: Conversation;
  /** The session's own layer over the process's registry (providers its extensions register). */
  registry: ScopedModelRegistry;
  /** `--models` scope for cycle_model. */
  scopedModels?: Model[];
  /** Named in the no-model and no-key errors. */
  pithHome: string;
  /** Told about every change of model or thinking level the session makes on request (extensions' `model_select`, `thinking_level_select`). */
  observer?: SelectionObserver;
}

/** Hears the selections (not a session file restoring its own). */
export interface SelectionObserver {
  modelSelected(model: Model, previous: Model | undefined, source: "set" | "cycle"): Promise<void>;
  thinkingLevelSelected(level: ThinkingLevel, previous: ThinkingLevel): void;
}

export class SessionModels {
  private readonly conversation: Conversation;
  readonly registry: ScopedModelRegistry;
  /** `--models` scope (empty: every available model). */
  readonly scoped: Model[];
  private readonly pithHome: string;
  private readonly observer: SelectionObserver | undefined;
  /** Live model discovery started by the front door; `discovered()` waits for it (bounded). */
  private discovery: Promise<void> | undefined;

  constructor(options: SessionModelsOptions) {
    this.conversation = options.conversation;
    this.registry = options.registry;
    this.scoped = options.scopedModels ?? [];
    this.pithHome = options.pithHome;
    this.observer = options.observer;
  }

  get current(): Model | undefined {
    return this.conversation.model;
  }
  get thinkingLevel(): ThinkingLevel | undefined {
    return this.conversation.thinkingLevel;
  }

  /** Models with credentials. */
  available(): Model[] {
    return this.registry.available();
  }

  /** Hands over a running live discovery; `discovered()` waits for it. */
  trackDiscovery(discovery: Promise<void>): void {
    this.discovery = discovery;
  }

  /** Available models once live discovery has finished (or after at most `waitMs`). */
  async discovered(waitMs = 3000): Promise<Model[]> {
    if (this.discovery) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      await Promise.race([this.discovery, timeout]);
      clearTimeout(timer);
    }
    return this.available();
  }

  /**
   * `set_model`: a model the catalogue, models.json or a finished discovery knows (a scripted model
   * resolves by its script path); an id nobody lists only where the provider's models.json entry
   * sets `allowUnknownModels`. A discovery still running is waited for (bounded) before refusing.
   */
  async set(provider: string, modelId: string): Promise<Model> {
    const known = () => this.registry.find(provider, modelId);
    let model = known();
    if (!model && this.discovery) {
      await this.discovered();
      model = known();
    }
    if (!model && this.registry.allowsUnknownModels(provider)) model = this.registry.resolve(provider, modelId);
    if (!model || !this.registry.hasCredentials(model.provider)) throw new ModelNotFoundError(provider, modelId);
    const previous = this.current;
    this.apply(model);
    await this.announceModel(model, previous, "set");
    return model;
  }

  /** `cycle_model`: the next scoped (or available) model, or null with fewer than two. */
  cycle(): CycledModel | null {
    const scoped = this.scoped.filter((m) => this.registry.hasCredentials(m.provider));
    const isScoped = scoped.length > 0;
    const previous = this.current;
    const next = nextModel(isScoped ? scoped : this.available(), previous);
    if (!next) return null;
    this.apply(next);
    void this.announceModel(next, previous, "cycle");
    const result: CycledModel = { model: next, isScoped };
    if (this.thinkingLevel !== undefined) result.thinkingLevel = this.thinkingLevel;
    return result;
  }

  /** `set_thinking_level`: resolved against the current model; recorded when it changes. */
  setThinkingLevel(input: unknown): void {
    this.changeLevel(resolveThinkingLevel(this.current, input));
  }

  /** pi's `get_available_thinking_levels`: `off` plus the efforts of the current model. */
  availableThinkingLevels(): ThinkingLevel[] {
    const model = this.current;
    return model ? ["off", ...supportedEfforts(model)] : ["off"];
  }

  /** `cycle_thinking_level`: null when the model cannot reason. */
  cycleThinkingLevel(): { level: ThinkingLevel } | null {
    const level = cycleThinkingLevel(this.current, this.thinkingLevel);
    if (level === null) return null;
    this.changeLevel(level);
    return { level };
  }

  /** The current model, or the error that tells the host what to configure. */
  require(): Model {
    if (this.current) return this.current;
    throw new PithError("no_model", noModelMessage(this.pithHome));
  }

  /** The key for `model`'s provider, or the error that says how to configure one. */
  async requireApiKey(model: Model): Promise<string | undefined> {
    if (this.registry.hasCredentials(model.provider)) return this.registry.getApiKey(model.provider);
    throw new PithError("no_api_key", noApiKeyMessage(model.provider, this.pithHome));
  }

  /** get_integrations: asks the current model's provider for its model list (bounded by `timeoutMs`). */
  checkProvider(options: ProviderCheckOptions): Promise<ProviderCheck> {
    return checkProvider(this.current, this.registry, options);
  }

  /** The key for a provider (undefined when it needs none). */
  apiKey(provider: string): Promise<string | undefined> {
    return this.registry.getApiKey(provider);
  }

  private apply(model: Model): void {
    const level = this.thinkingLevel;
    this.conversation.setModel(model);
    if (level !== undefined) this.changeLevel(resolveThinkingLevel(model, level));
  }

  /** Records a new thinking level; extensions hear of a change (no level reads as "off"). */
  private changeLevel(level: ThinkingLevel | undefined): void {
    const previous = this.thinkingLevel;
    this.conversation.setThinkingLevel(level);
    if (level !== previous) this.observer?.thinkingLevelSelected(level ?? "off", previous ?? "off");
  }

  /** `model_select` when the model really changed (pi compares provider and id). */
  private async announceModel(model: Model, previous: Model | undefined, source: "set" | "cycle"): Promise<void> {
    if (sameModel(previous, model)) return;
    await this.observer?.modelSelected(model, previous, source);
  }
}
