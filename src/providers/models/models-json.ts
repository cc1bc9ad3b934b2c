// PITH_HOME/models.json: pi's `~/.pi/agent/models.json` format, loaded and validated.
//
//   { "providers": { "<name>": { baseUrl?, api?, apiKey?, auth?, headers?, compat?, authHeader?,
//       models?: [{ id, name?, api?, baseUrl?, reasoning?, thinkingLevelMap?, input?,
//                   contextWindow?, maxTokens?, cost?, headers?, compat? }],
//       modelOverrides?: { "<id>": { name?, reasoning?, thinkingLevelMap?, input?, cost?,
//                                    contextWindow?, maxTokens?, headers?, compat? } } } } }
//
// A problem never stops pith: an unreadable or non-JSON file is ignored with one warning;
// an invalid provider or model is skipped with a warning naming its JSON path. Unknown keys
// are ignored (pi files may carry fields pith does not use, e.g. `samplingParams`, `oauth`).
//
// Credentials (pi semantics, plus xcsh's `auth: "none"`): a provider's models are available
// when a key is configured (`apiKey`, the provider's standard env var, or `--api-key`).
// Keyless local servers either keep a dummy `apiKey` (pi's advice) or set `auth: "none"`.
import { readFileSync } from "node:fs";
import { errorMessage } from "../../shared/errors.js";
import type { Model } from "../../shared/types.js";

export const SUPPORTED_APIS: readonly string[] = [
  "anthropic-messages",
  "openai-completions",
  "openai-responses",
  "google-generative-ai",
];

export interface ModelConfig {
  id: string;
  name?: string;
  api?: string;
  baseUrl?: string;
  reasoning?: boolean;
  thinkingLevelMap?: Record<string, string | null>;
  input?: ("text" | "image")[];
  contextWindow?: number;
  maxTokens?: number;
  cost?: Partial<Model["cost"]>;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}
export type ModelOverride = Omit<ModelConfig, "id" | "api" | "baseUrl">;

export interface ProviderConfig {
  name: string;
  baseUrl?: string;
  api?: string;
  apiKey?: string;
  /** `"none"`: keyless (local servers). */
  auth?: "apiKey" | "none";
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
  /** `set_model` may pick ids this file and the catalogue do not list (default limits, zero cost). */
  allowUnknownModels?: boolean;
  /** Query the provider's `/models` even though `models` lists them (default: only when none are listed). */
  discover?: boolean;
  models: ModelConfig[];
  modelOverrides: Record<string, ModelOverride>;
}

export interface ModelsJson {
  providers: ProviderConfig[];
}

type Warn = (msg: string) => void;
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

class Invalid extends Error {}

function check(cond: boolean, path: string, what: string): void {
  if (!cond) throw new Invalid(`${path} ${what}`);
}

function optString(o: Obj, key: string, path: string): string | undefined {
  const v = o[key];
  check(v === undefined || typeof v === "string", `${path}.${key}`, "must be a string");
  return v as string | undefined;
}

function optPositive(o: Obj, key: string, path: string): number | undefined {
  const v = o[key];
  check(v === undefined || (typeof v === "number" && Number.isFinite(v) && v > 0), `${path}.${key}`, "must be a positive number");
  return v as number | undefined;
}

function optBool(o: Obj, key: string, path: string): boolean | undefined {
  const v = o[key];
  check(v === undefined || typeof v === "boolean", `${path}.${key}`, "must be true or false");
  return v as boolean | undefined;
}

function optStringMap(o: Obj, key: string, path: string): Record<string, string> | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  check(isObj(v) && Object.values(v).every((x) => typeof x === "string"), `${path}.${key}`, "must be an object of strings");
  return v as Record<string, string>;
}

function optObject(o: Obj, key: string, path: string): Obj | undefined {
  const v = o[key];
  check(v === undefined || isObj(v), `${path}.${key}`, "must be an object");
  return v as Obj | undefined;
}

function parseOverride(o: Obj, path: string): ModelOverride {
  const reasoning = o.reasoning;
  check(reasoning === undefined || typeof reasoning === "boolean", `${path}.reasoning`, "must be a boolean");
  const input = o.input;
  check(
    input === undefined || (Array.isArray(input) && input.length > 0 && input.every((x) => x === "text" || x === "image")),
    `${path}.input`,
    'must be an array of "text" | "image"',
  );
  const cost = optObject(o, "cost", path);
  if (cost) for (const k of ["input", "output", "cacheRead", "cacheWrite", "cacheWrite1h"]) {
    check(cost[k] === undefined || (typeof cost[k] === "number" && (cost[k] as number) >= 0), `${path}.cost.${k}`, "must be a non-negative number");
  }
  const map = optObject(o, "thinkingLevelMap", path);
  if (map) check(Object.values(map).every((x) => x === null || typeof x === "string"), `${path}.thinkingLevelMap`, "values must be strings or null");
  return {
    name: optString(o, "name", path),
    reasoning: reasoning as boolean | undefined,
    thinkingLevelMap: map as ModelOverride["thinkingLevelMap"],
    input: input as ModelOverride["input"],
    contextWindow: optPositive(o, "contextWindow", path),
    maxTokens: optPositive(o, "maxTokens", path),
    cost: cost as ModelOverride["cost"],
    headers: optStringMap(o, "headers", path),
    compat: optObject(o, "compat", path),
  };
}

function parseModel(v: unknown, path: string): ModelConfig {
  check(isObj(v), path, "must be an object");
  const o = v as Obj;
  check(typeof o.id === "string" && o.id !== "", `${path}.id`, "must be a non-empty string");
  return { id: o.id as string, api: optString(o, "api", path), baseUrl: optString(o, "baseUrl", path), ...parseOverride(o, path) };
}

function parseAuth(o: Obj, path: string): ProviderConfig["auth"] {
  const auth = o.auth;
  check(auth === undefined || auth === "apiKey" || auth === "none", `${path}.auth`, 'must be "apiKey" or "none"');
  return auth as ProviderConfig["auth"];
}

/** Validates one provider; models with problems are dropped with a warning. */
function parseProvider(name: string, v: unknown, builtIn: boolean, warn: Warn): ProviderConfig {
  const path = `providers.${name}`;
  check(isObj(v), path, "must be an object");
  const o = v as Obj;
  const p: ProviderConfig = {
    name,
    baseUrl: optString(o, "baseUrl", path),
    api: optString(o, "api", path),
    apiKey: optString(o, "apiKey", path),
    auth: parseAuth(o, path),
    headers: optStringMap(o, "headers", path),
    compat: optObject(o, "compat", path),
    allowUnknownModels: optBool(o, "allowUnknownModels", path),
    discover: optBool(o, "discover", path),
    models: [],
    modelOverrides: {},
  };
  check(o.models === undefined || Array.isArray(o.models), `${path}.models`, "must be an array");
  const overrides = optObject(o, "modelOverrides", path) ?? {};
  for (const [id, ov] of Object.entries(overrides)) {
    tryParse(warn, () => {
      check(isObj(ov), `${path}.modelOverrides.${id}`, "must be an object");
      p.modelOverrides[id] = parseOverride(ov as Obj, `${path}.modelOverrides.${id}`);
    });
  }
  ((o.models as unknown[] | undefined) ?? []).forEach((m, i) => {
    tryParse(warn, () => {
      const mp = `${path}.models[${i}]`;
      const model = parseModel(m, mp);
      const api = model.api ?? p.api;
      if (!builtIn) {
        check(!!(model.baseUrl ?? p.baseUrl), mp, `needs a baseUrl (provider "${name}" is not built in)`);
        check(!!api, mp, "needs an api (model- or provider-level)");
      }
      check(api === undefined || SUPPORTED_APIS.includes(api), `${mp}.api`, `"${api}" is not supported (use one of ${SUPPORTED_APIS.join(", ")})`);
      p.models.push(model);
    });
  });
  return p;
}

function tryParse(warn: Warn, fn: () => void): boolean {
  try {
    fn();
    return true;
  } catch (err) {
    if (!(err instanceof Invalid)) throw err;
    warn(`models.json: ${err.message}; skipped`);
    return false;
  }
}

/**
 * One provider entry checked on its own (an extension's `registerProvider`): the entry with the
 * models that passed, and every problem found (an invalid entry has no `provider`).
 */
export function checkProviderEntry(name: string, value: unknown, builtIn: boolean): { provider?: ProviderConfig; problems: string[] } {
  const problems: string[] = [];
  const collect: Warn = (msg) => problems.push(msg.replace(/^models\.json: /, "").replace(/; skipped$/, ""));
  let provider: ProviderConfig | undefined;
  tryParse(collect, () => (provider = parseProvider(name, value, builtIn, collect)));
  return provider ? { provider, problems } : { problems };
}

/** Parses the text of a models.json. `isBuiltIn` tells providers that need no baseUrl. */
export function parseModelsJson(text: string, isBuiltIn: (provider: string) => boolean, warn: Warn): ModelsJson {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    warn(`models.json: not valid JSON (${errorMessage(err)}); ignored`);
    return { providers: [] };
  }
  if (!isObj(data) || (data.providers !== undefined && !isObj(data.providers))) {
    warn('models.json: expected an object with a "providers" object; ignored');
    return { providers: [] };
  }
  const providers: ProviderConfig[] = [];
  for (const [name, v] of Object.entries((data.providers as Obj | undefined) ?? {})) {
    tryParse(warn, () => providers.push(parseProvider(name, v, isBuiltIn(name), warn)));
  }
  return { providers };
}

/** Reads `path`; a missing file is an empty config, an unreadable one a warning. */
export function loadModelsJson(path: string, isBuiltIn: (provider: string) => boolean, warn: Warn): ModelsJson {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") warn(`models.json: cannot read ${path} (${errorMessage(err)}); ignored`);
    return { providers: [] };
  }
  return parseModelsJson(text, isBuiltIn, warn);
}
