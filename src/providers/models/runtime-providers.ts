// Providers added at run time (an extension's `pi.registerProvider`), scoped to one session:
// a layer over the process's model registry that no other session sees. An entry has pi's
// ProviderConfig shape, which is a models.json provider entry, and is built the same way:
// with `models` it replaces the provider's models; without, its baseUrl / headers / compat apply
// to the provider's existing models; `apiKey` (literal, `$VAR`, `!command`) is its credential.
// Registering the same name again merges the defined values over the previous registration.
import { PithError } from "../../shared/errors.js";
import type { Model } from "../../shared/types.js";
import { type CommandRunner, hasValue, referencedEnvNames, resolveValue } from "./config-value.js";
import { chooseDefaultModel, type DefaultModelSettings } from "./default-model.js";
import { checkProviderEntry, type ProviderConfig } from "./models-json.js";
import { applyModelsJson } from "./models-json-apply.js";
import { selectModel, type ModelRegistry, type ScopedModelRegistry } from "./model-registry.js";
import type { ModelSelector } from "../../shared/model-selector.js";

export type { ScopedModelRegistry } from "./model-registry.js";

type Env = Record<string, string | undefined>;


interface Entry {
  raw: Record<string, unknown>;
  config: ProviderConfig;
  /** The provider's whole model list; undefined leaves the process's list as it is. */
  models?: Model[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function scopeRegistry(base: ModelRegistry, env: Env, runner: CommandRunner, warn: (msg: string) => void): ScopedModelRegistry {
  return new ScopedRegistry(base, env, runner, warn);
}

class ScopedRegistry implements ScopedModelRegistry {
  private readonly entries = new Map<string, Entry>();
  private cache: { from: Model[]; list: Model[] } | undefined;

  constructor(
    private readonly base: ModelRegistry,
    private readonly env: Env,
    private readonly runner: CommandRunner,
    private readonly warn: (msg: string) => void,
  ) {}

  registerProvider(name: string, config: unknown): void {
    if (typeof name !== "string" || name.trim() === "") throw new PithError("invalid_request", "registerProvider needs a provider name");
    if (!isObject(config)) throw new PithError("invalid_request", `registerProvider("${name}") needs a config object`);
    if (typeof config.streamSimple === "function") {
      throw new PithError("unavailable", `registerProvider("${name}"): a custom streamSimple handler is not supported by pith; use an api pith speaks`);
    }
    const raw = { ...this.entries.get(name)?.raw };
    for (const [k, v] of Object.entries(config)) if (v !== undefined) raw[k] = v;
    const existing = this.base.all().filter((m) => m.provider === name);
    const { provider, problems } = checkProviderEntry(name, raw, existing.length > 0);
    if (!provider || problems.length > 0) throw new PithError("invalid_request", `registerProvider("${name}"): ${problems.join("; ")}`);
    if (provider.models.length > 0 && existing.length === 0 && provider.auth !== "none" && !hasValue(provider.apiKey, this.env)) {
      throw new PithError("invalid_request", `registerProvider("${name}"): needs an apiKey (or auth "none") to offer models`);
    }
    this.entries.set(name, { raw, config: provider, models: this.modelsOf(provider, existing) });
    this.cache = undefined;
  }

  unregisterProvider(name: string): void {
    if (this.entries.delete(name)) this.cache = undefined;
  }

  /** The provider's models built like a models.json entry: its own list, or its settings over the existing models. */
  private modelsOf(provider: ProviderConfig, existing: Model[]): Model[] | undefined {
    const changesExisting = provider.baseUrl !== undefined || provider.headers !== undefined || provider.compat !== undefined;
    if (provider.models.length === 0 && !(changesExisting && existing.length > 0)) return undefined;
    const byProvider = new Map<string, Model[]>();
    if (provider.models.length === 0) byProvider.set(provider.name, existing);
    applyModelsJson(byProvider, { providers: [provider] }, this.env, this.warn);
    return byProvider.get(provider.name) ?? [];
  }

  all(): Model[] {
    const from = this.base.all();
    if (this.entries.size === 0) return from;
    if (this.cache?.from === from) return this.cache.list;
    const replaced = (p: string) => this.entries.get(p)?.models !== undefined;
    const list = [...from.filter((m) => !replaced(m.provider)), ...[...this.entries.values()].flatMap((e) => e.models ?? [])];
    this.cache = { from, list };
    return list;
  }

  available(): Model[] {
    return this.all().filter((m) => this.hasCredentials(m.provider));
  }

  find(provider: string, id: string): Model | undefined {
    const models = this.entries.get(provider)?.models;
    return models ? models.find((m) => m.id === id) : this.base.find(provider, id);
  }

  resolve(provider: string, id: string): Model | undefined {
    return this.entries.get(provider)?.models ? this.find(provider, id) : this.base.resolve(provider, id);
  }

  select(selector: string | ModelSelector): Model | undefined {
    return selectModel(this, selector);
  }

  async getApiKey(provider: string): Promise<string | undefined> {
    const apiKey = this.entries.get(provider)?.config.apiKey;
    if (apiKey) {
      const value = await resolveValue(apiKey, this.env, this.runner);
      if (value) return value;
    }
    return this.base.getApiKey(provider);
  }

  hasCredentials(provider: string): boolean {
    const config = this.entries.get(provider)?.config;
    if (config?.auth === "none" || hasValue(config?.apiKey, this.env)) return true;
    return this.base.hasCredentials(provider);
  }

  providers(): string[] {
    return [...new Set([...this.base.providers(), ...this.entries.keys()])];
  }

  discover(signal?: AbortSignal): Promise<void> {
    return this.base.discover(signal);
  }

  defaultModel(settings?: DefaultModelSettings): Model | undefined {
    return chooseDefaultModel(this, settings);
  }

  credentialEnvNames(): string[] {
    const names = new Set(this.base.credentialEnvNames());
    for (const { config } of this.entries.values()) {
      for (const value of [config.apiKey, ...Object.values(config.headers ?? {})]) {
        if (value) for (const name of referencedEnvNames(value, this.env)) names.add(name);
      }
    }
    return [...names];
  }

  allowsUnknownModels(provider: string): boolean {
    return this.entries.get(provider)?.config.allowUnknownModels ?? this.base.allowsUnknownModels(provider);
  }

  scope(): ScopedModelRegistry {
    return scopeRegistry(this, this.env, this.runner, this.warn);
  }
}
