// Live model discovery: each provider's list-models endpoint, with a file cache.
//   openai-completions / openai-responses  GET <baseUrl>/models          Authorization: Bearer
//   anthropic-messages                     GET <baseUrl>/v1/models       x-api-key + anthropic-version
//   google-generative-ai                   GET <baseUrl>/models          x-goog-api-key
// Keys travel in headers only, never in URLs (so URLs are safe to name in warnings).
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Model } from "../../shared/types.js";

export interface DiscoveryTarget {
  provider: string;
  api: string;
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/** What a list endpoint told us about one model; everything but `id` is optional. */
export interface DiscoveredModel {
  id: string;
  name?: string;
  contextWindow?: number;
  maxTokens?: number;
  input?: Model["input"];
  cost?: Model["cost"];
}

interface CacheFile {
  fetchedAt: number;
  baseUrl: string;
  models: DiscoveredModel[];
}

export const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_PAGES = 10;

/** Ids in list endpoints that are not chat models (embeddings, audio, images, ...). */
const NON_CHAT = /(embed|tts|whisper|dall-e|moderation|transcribe|audio|realtime|image|davinci|babbage|sora|rerank)/i;

const trim = (url: string) => url.replace(/\/+$/, "");
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined);
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

async function getJson(fetchFn: typeof fetch, url: string, headers: Record<string, string>, signal: AbortSignal): Promise<Record<string, unknown>> {
  const res = await fetchFn(url, { headers, signal });
  if (!res.ok) throw new Error(`HTTP ${res.status} from ${url}`);
  const body: unknown = await res.json();
  if (typeof body !== "object" || body === null) throw new Error(`unexpected response from ${url}`);
  return body as Record<string, unknown>;
}

function entries(body: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const list = body[key];
  return Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null) : [];
}

/** OpenAI shape `{data:[{id}]}`; OpenRouter adds name, context_length and per-token pricing. */
function parseOpenAi(e: Record<string, unknown>): DiscoveredModel | undefined {
  const id = str(e.id);
  if (!id) return undefined;
  const pricing = e.pricing as Record<string, unknown> | undefined;
  const perM = (v: unknown) => (typeof v === "string" || typeof v === "number" ? Number(v) * 1e6 : NaN);
  const input = pricing ? perM(pricing.prompt) : NaN;
  const output = pricing ? perM(pricing.completion) : NaN;
  const top = e.top_provider as Record<string, unknown> | undefined;
  return {
    id,
    name: str(e.name),
    contextWindow: num(e.context_length),
    maxTokens: num(top?.max_completion_tokens),
    cost: Number.isFinite(input) && Number.isFinite(output) && input >= 0 && output >= 0
      ? { input, output, cacheRead: 0, cacheWrite: 0 }
      : undefined,
  };
}

async function listOpenAi(t: DiscoveryTarget, fetchFn: typeof fetch, signal: AbortSignal): Promise<DiscoveredModel[]> {
  const headers: Record<string, string> = { ...t.headers };
  if (t.apiKey) headers.authorization = `Bearer ${t.apiKey}`;
  const body = await getJson(fetchFn, `${trim(t.baseUrl)}/models`, headers, signal);
  return entries(body, "data").map(parseOpenAi).filter((m): m is DiscoveredModel => !!m);
}

async function listAnthropic(t: DiscoveryTarget, fetchFn: typeof fetch, signal: AbortSignal): Promise<DiscoveredModel[]> {
  const base = trim(t.baseUrl).replace(/\/v1$/, "");
  const headers: Record<string, string> = { ...t.headers, "anthropic-version": "2023-06-01" };
  if (t.apiKey) headers["x-api-key"] = t.apiKey;
  const out: DiscoveredModel[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${base}/v1/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ""}`;
    const body = await getJson(fetchFn, url, headers, signal);
    for (const e of entries(body, "data")) {
      const id = str(e.id);
      if (id) out.push({ id, name: str(e.display_name) });
    }
    after = str(body.last_id);
    if (body.has_more !== true || !after) break;
  }
  return out;
}

async function listGoogle(t: DiscoveryTarget, fetchFn: typeof fetch, signal: AbortSignal): Promise<DiscoveredModel[]> {
  const headers: Record<string, string> = { ...t.headers };
  if (t.apiKey) headers["x-goog-api-key"] = t.apiKey;
  const out: DiscoveredModel[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${trim(t.baseUrl)}/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`;
    const body = await getJson(fetchFn, url, headers, signal);
    for (const e of entries(body, "models")) {
      const methods = Array.isArray(e.supportedGenerationMethods) ? e.supportedGenerationMethods : [];
      const id = str(e.name)?.replace(/^models\//, "");
      if (!id || !methods.includes("generateContent")) continue;
      out.push({ id, name: str(e.displayName), contextWindow: num(e.inputTokenLimit), maxTokens: num(e.outputTokenLimit) });
    }
    token = str(body.nextPageToken);
    if (!token) break;
  }
  return out;
}

/** True when pith knows how to list models for `api`. */
export function canDiscover(api: string): boolean {
  return ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"].includes(api);
}

/** Asks the provider for its models. Throws on HTTP or network failure. */
export async function fetchModelList(t: DiscoveryTarget, fetchFn: typeof fetch, signal: AbortSignal): Promise<DiscoveredModel[]> {
  let list: DiscoveredModel[];
  if (t.api === "anthropic-messages") list = await listAnthropic(t, fetchFn, signal);
  else if (t.api === "google-generative-ai") list = await listGoogle(t, fetchFn, signal);
  else list = await listOpenAi(t, fetchFn, signal);
  return list.filter((m) => !NON_CHAT.test(m.id));
}

export function cachePath(pithHome: string, provider: string): string {
  return join(pithHome, "cache", `models-${provider.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
}

/** A fresh cached list for this provider and base URL, else undefined. */
export async function readDiscoveryCache(path: string, baseUrl: string, now: number, ttlMs = DISCOVERY_TTL_MS): Promise<DiscoveredModel[] | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const data = JSON.parse(text) as Partial<CacheFile>;
  if (typeof data.fetchedAt !== "number" || data.baseUrl !== baseUrl || !Array.isArray(data.models)) return undefined;
  if (now - data.fetchedAt > ttlMs || data.fetchedAt > now) return undefined;
  return data.models.filter((m) => typeof m?.id === "string");
}

/** Writes the cache atomically (temp file + rename). */
export async function writeDiscoveryCache(path: string, baseUrl: string, models: DiscoveredModel[], now: number): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const body: CacheFile = { fetchedAt: now, baseUrl, models };
  await writeFile(tmp, JSON.stringify(body) + "\n");
  await rename(tmp, path);
}
