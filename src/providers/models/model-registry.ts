// What the model registry offers: the process's registry and a session's layer over it.
import type { Model } from "../../shared/types.js";
import type { DefaultModelSettings } from "./default-model.js";
import { parseModelSelector, type ModelSelector } from "../../shared/model-selector.js";

export interface ModelRegistry {
  /** Catalogue + models.json + discovered models (+ models resolved so far), registry order. */
  all(): Model[];
  /** Models whose provider has credentials or is keyless. */
  available(): Model[];
  /** Exact provider + id match. A `scripted` id always matches (it names a script file). */
  find(provider: string, id: string): Model | undefined;
  /** Exact match, else an unknown id of a known provider → default limits and a warning. */
  resolve(provider: string, id: string): Model | undefined;
  /**
   * The model a selector names: "provider/id" (or `{provider, id}`) resolves as `resolve` does;
   * a bare id is the first model with that id in registry order.
   */
  select(selector: string | ModelSelector): Model | undefined;
  getApiKey(provider: string): Promise<string | undefined>;
  hasCredentials(provider: string): boolean;
  /** Names of all known providers, registry order. */
  providers(): string[];
  /** Live discovery for providers with credentials; never throws. */
  discover(signal?: AbortSignal): Promise<void>;
  defaultModel(settings?: DefaultModelSettings): Model | undefined;
  /** Every environment variable pith reads credentials from: the catalogue's and models.json's (`apiKey`, headers). */
  credentialEnvNames(): string[];
  /** The provider's models.json entry sets `allowUnknownModels`: ids nobody lists may be used. */
  allowsUnknownModels(provider: string): boolean;
  /** A layer for one session: providers registered on it (extensions) stay in that session. */
  scope(): ScopedModelRegistry;
}

/** A session's registry: the process's models plus the providers its extensions registered. */
export interface ScopedModelRegistry extends ModelRegistry {
  /** Adds or updates a provider (pi's ProviderConfig); throws a clear error for an unusable one. */
  registerProvider(name: string, config: unknown): void;
  /** Removes a registered provider: its models go, the process's own come back. No-op when unknown. */
  unregisterProvider(name: string): void;
}

/** A selector looked up in a registry: "provider/id" resolves, a bare id is the first model with that id. */
export function selectModel(r: Pick<ModelRegistry, "resolve" | "all">, selector: string | ModelSelector): Model | undefined {
  const { provider, id } = typeof selector === "string" ? parseModelSelector(selector) : selector;
  if (provider !== undefined) return r.resolve(provider, id);
  return r.all().find((m) => m.id === id);
}
