// The model registry: bundled catalogue + PITH_HOME/models.json + live discovery, API keys.
// Construction does no I/O: the catalogue and models.json are read on first use; discovery
// (network, cache files) runs only when the caller asks for it.
import { anySignal } from "../../shared/abort.js";
import { errorMessage } from "../../shared/errors.js";
import type { ModelSelector } from "../../shared/model-selector.js";
import type { Model } from "../../shared/types.js";
import { SCRIPTED_PROVIDER, scriptedModel } from "../scripted/model.js";
import { bundledCatalog, expandCatalog, type CatalogFile } from "./catalog.js";
import { CommandRunner, hasValue, referencedEnvNames, resolveValue } from "./config-value.js";
import { chooseDefaultModel, type DefaultModelSettings } from "./default-model.js";
import { discoverAll } from "./discover-all.js";
import { envApiKey, PROVIDER_ENV_VARS } from "./env-keys.js";
import { loadModelsJson, type ProviderConfig } from "./models-json.js";
import { applyModelsJson, DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS, ZERO_COST } from "./models-json-apply.js";
import { selectModel, type ModelRegistry, type ScopedModelRegistry } from "./model-registry.js";
import { scopeRegistry } from "./runtime-providers.js";
import { unknownModel } from "./unknown-model.js";

export type { ModelRegistry } from "./model-registry.js";

export interface ModelRegistryOptions {
  pithHome: string;
  env: Record<string, string | undefined>;
  warn(msg: string): void;
  fetch?: typeof fetch;
  /** `--api-key`: applies to `cliProvider` only. */
  cliApiKey?: string;
  cliProvider?: string;
  /** Base for relative scripted-model paths and `!command` keys. Default: process.cwd(). */
  cwd?: string;
  /** Replaces the bundled catalogue (tests). */
  catalog?: CatalogFile;
  /** Per-provider discovery timeout. Default 5000 ms. */
  discoveryTimeoutMs?: number;
  now?: () => number;
}


const key = (provider: string, id: string) => `${provider}\u0000${id}`;

class Registry implements ModelRegistry {
  private base: Map<string, Model[]> | undefined;
  private config = new Map<string, ProviderConfig>();
  private readonly discovered = new Map<string, Model[]>();
  private readonly extra = new Map<string, Model[]>();
  private list: Model[] | undefined;
  private index: Map<string, Model> | undefined;
  private readonly runner: CommandRunner;
  private readonly cwd: string;

  constructor(private readonly opts: ModelRegistryOptions) {
    this.cwd = opts.cwd ?? process.cwd();
    this.runner = new CommandRunner(opts.env, this.cwd);
  }

  private load(): Map<string, Model[]> {
    if (this.base) return this.base;
    const base = expandCatalog(this.opts.catalog ?? bundledCatalog());
    const builtIn = new Set(base.keys());
    const json = loadModelsJson(`${this.opts.pithHome}/models.json`, (p) => builtIn.has(p), this.opts.warn);
    applyModelsJson(base, json, this.opts.env, this.opts.warn);
    for (const p of json.providers) this.config.set(p.name, p);
    this.base = base;
    return base;
  }

  private invalidate(): void {
    this.list = undefined;
    this.index = undefined;
  }

  all(): Model[] {
    if (this.list) return this.list;
    const out: Model[] = [];
    for (const [provider, models] of this.load()) {
      out.push(...models, ...(this.discovered.get(provider) ?? []), ...(this.extra.get(provider) ?? []));
    }
    for (const [provider, models] of this.extra) if (!this.load().has(provider)) out.push(...models);
    this.list = out;
    this.index = new Map(out.map((m) => [key(m.provider, m.id), m]));
    return out;
  }

  available(): Model[] {
    return this.all().filter((m) => this.hasCredentials(m.provider));
  }

  providers(): string[] {
    const names = new Set(this.load().keys());
    for (const p of this.config.keys()) names.add(p);
    names.add(SCRIPTED_PROVIDER);
    return [...names];
  }

  find(provider: string, id: string): Model | undefined {
    this.all();
    const hit = this.index?.get(key(provider, id));
    if (hit || provider !== SCRIPTED_PROVIDER || !id) return hit;
    return this.remember(scriptedModel(id, this.cwd));
  }

  private remember(model: Model): Model {
    const list = this.extra.get(model.provider) ?? [];
    list.push(model);
    this.extra.set(model.provider, list);
    this.invalidate();
    return model;
  }

  /** The provider's first model, or one synthesised from its models.json / catalogue entry. */
  private template(provider: string): Model | undefined {
    const first = this.load().get(provider)?.[0] ?? this.discovered.get(provider)?.[0];
    if (first) return first;
    const cat = (this.opts.catalog ?? bundledCatalog()).providers[provider];
    const cfg = this.config.get(provider);
    const api = cfg?.api ?? cat?.api;
    const baseUrl = cfg?.baseUrl ?? cat?.baseUrl;
    if (!baseUrl || !api) return undefined;
    return {
      id: "",
      name: "",
      api,
      provider,
      baseUrl,
      reasoning: false,
      input: ["text"],
      cost: { ...ZERO_COST },
      contextWindow: DEFAULT_CONTEXT_WINDOW,
      maxTokens: DEFAULT_MAX_TOKENS,
      ...(cfg?.compat && { compat: cfg.compat }),
    };
  }

  resolve(provider: string, id: string): Model | undefined {
    const hit = this.find(provider, id);
    if (hit || !id) return hit;
    const template = this.template(provider);
    if (!template) return undefined;
    const model = unknownModel(template, this.siblings(provider), { id });
    this.opts.warn(
      `Model ${provider}/${id} is not in the catalogue; using it with default limits (context ${model.contextWindow}, max output ${model.maxTokens}, zero cost)`,
    );
    return this.remember(model);
  }

  select(selector: string | ModelSelector): Model | undefined {
    return selectModel(this, selector);
  }

  private siblings(provider: string): Model[] {
    return [...(this.load().get(provider) ?? []), ...(this.discovered.get(provider) ?? [])];
  }

  hasCredentials(provider: string): boolean {
    if (provider === SCRIPTED_PROVIDER) return true;
    if (this.opts.cliApiKey && provider === this.opts.cliProvider) return true;
    this.load();
    const cfg = this.config.get(provider);
    if (cfg?.auth === "none") return true;
    if (cfg?.apiKey !== undefined && hasValue(cfg.apiKey, this.opts.env)) return true;
    return envApiKey(provider, this.opts.env) !== undefined;
  }

  async getApiKey(provider: string): Promise<string | undefined> {
    if (this.opts.cliApiKey && provider === this.opts.cliProvider) return this.opts.cliApiKey;
    this.load();
    const cfg = this.config.get(provider);
    if (cfg?.apiKey) {
      try {
        const value = await resolveValue(cfg.apiKey, this.opts.env, this.runner);
        if (value) return value;
      } catch (err) {
        this.opts.warn(`models.json: apiKey command for provider "${provider}" failed: ${errorMessage(err)}`);
      }
    }
    return envApiKey(provider, this.opts.env);
  }

  allowsUnknownModels(provider: string): boolean {
    this.load();
    return this.config.get(provider)?.allowUnknownModels === true;
  }

  async discover(signal?: AbortSignal): Promise<void> {
    const targets = this.providers().filter((p) => {
      if (p === SCRIPTED_PROVIDER) return false;
      const cfg = this.config.get(p);
      // A models.json entry that lists its models is the user's whole list, unless it asks for more.
      if (cfg && cfg.models.length > 0 && cfg.discover !== true) return false;
      const custom = cfg?.baseUrl !== undefined && !bundledHas(this.opts.catalog, p);
      return custom || this.hasCredentials(p);
    });
    const timeout = this.opts.discoveryTimeoutMs ?? 5000;
    const results = await discoverAll({
      providers: targets.map((p) => ({ provider: p, template: this.template(p) })),
      pithHome: this.opts.pithHome,
      fetch: this.opts.fetch ?? fetch,
      getApiKey: (p) => this.getApiKey(p),
      signalFor: () => anySignal([signal, AbortSignal.timeout(timeout)]),
      aborted: () => signal?.aborted === true,
      now: this.opts.now ?? Date.now,
      warn: this.opts.warn,
    });
    for (const [provider, infos] of results) {
      const template = this.template(provider);
      if (!template) continue;
      const known = new Set((this.load().get(provider) ?? []).map((m) => m.id));
      const extraIds = new Set((this.extra.get(provider) ?? []).map((m) => m.id));
      const fresh = infos.filter((i) => !known.has(i.id) && !extraIds.has(i.id));
      this.discovered.set(provider, fresh.map((i) => unknownModel(template, this.load().get(provider) ?? [], i)));
    }
    this.invalidate();
  }

  defaultModel(settings?: DefaultModelSettings): Model | undefined {
    return chooseDefaultModel(this, settings);
  }

  scope(): ScopedModelRegistry {
    return scopeRegistry(this, this.opts.env, this.runner, this.opts.warn);
  }

  credentialEnvNames(): string[] {
    this.load();
    const names = new Set(Object.values(PROVIDER_ENV_VARS).flat());
    for (const cfg of this.config.values()) {
      const values = [cfg.apiKey, ...Object.values(cfg.headers ?? {}), ...cfg.models.flatMap((m) => Object.values(m.headers ?? {}))];
      for (const value of values) if (value) for (const name of referencedEnvNames(value, this.opts.env)) names.add(name);
    }
    return [...names];
  }
}

function bundledHas(catalog: CatalogFile | undefined, provider: string): boolean {
  return provider in (catalog ?? bundledCatalog()).providers;
}

export function createModelRegistry(opts: ModelRegistryOptions): ModelRegistry {
  return new Registry(opts);
}
