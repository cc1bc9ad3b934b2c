// Generates src/providers/catalog.json from the model list shipped in @mariozechner/pi-ai.
// `npm run catalog`. Keeps the wire APIs pith speaks, the Model fields of
// src/shared/types.ts, and a derived `thinking` range for reasoning models.
//
// Output shape (compact: one line per model):
//   { "source": "...", "providers": { "<name>": { "api", "baseUrl", "models": [ {...} ] } } }
// A model omits `api`/`baseUrl` when equal to its provider's.
/* global console */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
const { deriveThinking } = await import("../src/providers/models/thinking.ts");

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// The package exports no ./package.json: locate it from its main entry (dist/index.js).
const piDir = dirname(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-ai"))));
const piVersion = JSON.parse(readFileSync(join(piDir, "package.json"), "utf8")).version;
const { MODELS } = await import(pathToFileURL(join(piDir, "dist/models.generated.js")).href);

const KEPT_APIS = new Set(["anthropic-messages", "openai-completions", "openai-responses", "google-generative-ai"]);

/**
 * pi APIs pith reaches through another wire API. Mistral serves OpenAI chat completions at
 * /v1; Mistral's endpoint has no `store`, `developer` role or `reasoning_effort`.
 */
const API_MAP = {
  "mistral-conversations": (m) => ({
    api: "openai-completions",
    baseUrl: m.baseUrl.replace(/\/+$/, "") + "/v1",
    compat: { supportsStore: false, supportsDeveloperRole: false, supportsReasoningEffort: false, maxTokensField: "max_tokens" },
  }),
};

/**
 * Providers dropped although their API is kept: github-copilot needs an OAuth token exchange;
 * cloudflare-* base URLs contain account placeholders pith does not fill in.
 */
const DROPPED_PROVIDERS = new Set(["github-copilot", "cloudflare-ai-gateway", "cloudflare-workers-ai"]);

function convert(m) {
  const mapped = API_MAP[m.api]?.(m);
  const api = mapped?.api ?? m.api;
  if (!KEPT_APIS.has(api)) return undefined;
  const out = {
    id: m.id,
    name: m.name,
    api,
    baseUrl: mapped?.baseUrl ?? m.baseUrl,
    reasoning: !!m.reasoning,
    input: m.input,
    cost: { input: m.cost.input, output: m.cost.output, cacheRead: m.cost.cacheRead, cacheWrite: m.cost.cacheWrite },
    contextWindow: m.contextWindow,
    maxTokens: m.maxTokens,
  };
  if (m.headers) out.headers = m.headers;
  const compat = { ...(mapped?.compat ?? {}), ...(m.compat ?? {}) };
  if (Object.keys(compat).length > 0) out.compat = compat;
  const thinking = deriveThinking({ ...out, compat: out.compat }, m.thinkingLevelMap);
  if (thinking) out.thinking = thinking;
  return out;
}

function mostCommon(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

const providers = {};
let total = 0;
for (const [provider, models] of Object.entries(MODELS)) {
  if (DROPPED_PROVIDERS.has(provider)) continue;
  const kept = Object.values(models).map(convert).filter(Boolean);
  if (kept.length === 0) continue;
  const api = mostCommon(kept.map((m) => m.api));
  const baseUrl = mostCommon(kept.filter((m) => m.api === api).map((m) => m.baseUrl));
  for (const m of kept) {
    if (m.api === api) delete m.api;
    if (m.baseUrl === baseUrl) delete m.baseUrl;
  }
  providers[provider] = { api, baseUrl, models: kept };
  total += kept.length;
}

const lines = ["{", `"source": ${JSON.stringify(`@mariozechner/pi-ai@${piVersion}`)},`, `"providers": {`];
const names = Object.keys(providers);
names.forEach((name, pi) => {
  const p = providers[name];
  lines.push(`${JSON.stringify(name)}: {"api": ${JSON.stringify(p.api)}, "baseUrl": ${JSON.stringify(p.baseUrl)}, "models": [`);
  p.models.forEach((m, i) => lines.push(JSON.stringify(m) + (i < p.models.length - 1 ? "," : "")));
  lines.push("]}" + (pi < names.length - 1 ? "," : ""));
});
lines.push("}", "}");
const outPath = join(root, "src/providers/catalog.json");
writeFileSync(outPath, lines.join("\n") + "\n");
console.log(`catalog.json: ${total} models from ${names.length} providers (pi-ai ${piVersion})`);
