import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CatalogFile } from "./catalog.js";
import { cachePath } from "./discovery.js";
import { createModelRegistry } from "./registry.js";

let server: Server;
let base: string;
let requests: IncomingMessage[];
let routes: Record<string, (req: IncomingMessage) => [number, unknown]>;
let home: string;
let warnings: string[];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "pith-disc-"));
  warnings = [];
  requests = [];
  routes = {};
  server = createServer((req, res) => {
    requests.push(req);
    const route = routes[req.url!.split("?")[0]];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const [status, body] = route(req);
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  rmSync(home, { recursive: true, force: true });
});

const cost = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
function catalogFor(): CatalogFile {
  return {
    providers: {
      anthropic: { api: "anthropic-messages", baseUrl: base, models: [{ id: "claude-opus-4-6", name: "Opus", reasoning: true, input: ["text", "image"], cost, contextWindow: 200000, maxTokens: 64000 }] },
      openai: { api: "openai-responses", baseUrl: `${base}/oa/v1`, models: [{ id: "gpt-5.4", name: "GPT", reasoning: true, input: ["text"], cost, contextWindow: 400000, maxTokens: 128000 }] },
      google: { api: "google-generative-ai", baseUrl: `${base}/g/v1beta`, models: [] },
    },
  };
}
function registry(env: Record<string, string>, now = () => 1_000_000) {
  return createModelRegistry({ pithHome: home, env, warn: (m) => warnings.push(m), catalog: catalogFor(), discoveryTimeoutMs: 2000, now });
}

describe("model discovery", () => {
  it("lists Anthropic models with x-api-key and merges unknown ids with defaults", async () => {
    routes["/v1/models"] = () => [200, { data: [{ id: "claude-opus-4-6" }, { id: "claude-opus-4-8", display_name: "Claude Opus 4.8" }], has_more: false }];
    const r = registry({ ANTHROPIC_API_KEY: "sk-ant-test" });
    await r.discover();
    expect(requests).toHaveLength(1);
    expect(requests[0].headers["x-api-key"]).toBe("sk-ant-test");
    expect(requests[0].headers["anthropic-version"]).toBe("2023-06-01");
    expect(r.available().map((m) => m.id)).toEqual(["claude-opus-4-6", "claude-opus-4-8"]);
    expect(r.find("anthropic", "claude-opus-4-8")).toMatchObject({ name: "Claude Opus 4.8", api: "anthropic-messages", baseUrl: base, contextWindow: 128000, maxTokens: 16384, reasoning: true });
    const cached = JSON.parse(readFileSync(cachePath(home, "anthropic"), "utf8"));
    expect(cached).toMatchObject({ fetchedAt: 1_000_000, baseUrl: base });
    expect(JSON.stringify(cached)).not.toContain("sk-ant-test");
  });

  it("uses a fresh cache without the network and refetches after 24 h", async () => {
    mkdirSync(join(home, "cache"), { recursive: true });
    writeFileSync(cachePath(home, "anthropic"), JSON.stringify({ fetchedAt: 1_000_000, baseUrl: base, models: [{ id: "claude-cached" }] }));
    routes["/v1/models"] = () => [200, { data: [{ id: "claude-live" }] }];
    const fresh = registry({ ANTHROPIC_API_KEY: "k" }, () => 1_000_000 + 60_000);
    await fresh.discover();
    expect(requests).toHaveLength(0);
    expect(fresh.find("anthropic", "claude-cached")).toBeDefined();
    const stale = registry({ ANTHROPIC_API_KEY: "k" }, () => 1_000_000 + 25 * 3600_000);
    await stale.discover();
    expect(requests).toHaveLength(1);
    expect(stale.find("anthropic", "claude-live")).toBeDefined();
    expect(stale.find("anthropic", "claude-cached")).toBeUndefined();
  });

  it("lists OpenAI-style and Google models, skipping non-chat ids", async () => {
    routes["/oa/v1/models"] = () => [200, { data: [{ id: "gpt-5.4" }, { id: "gpt-6" }, { id: "text-embedding-3-small" }] }];
    routes["/g/v1beta/models"] = () => [200, { models: [
      { name: "models/gemini-9-pro", displayName: "Gemini 9 Pro", inputTokenLimit: 2000000, outputTokenLimit: 65536, supportedGenerationMethods: ["generateContent"] },
      { name: "models/embedding-001", supportedGenerationMethods: ["embedContent"] },
    ] }];
    const r = registry({ OPENAI_API_KEY: "sk-o", GEMINI_API_KEY: "g-key" });
    await r.discover();
    const oa = requests.find((q) => q.url!.startsWith("/oa/"))!;
    expect(oa.headers.authorization).toBe("Bearer sk-o");
    const g = requests.find((q) => q.url!.startsWith("/g/"))!;
    expect(g.headers["x-goog-api-key"]).toBe("g-key");
    expect(g.url).not.toContain("g-key");
    expect(r.available().map((m) => `${m.provider}/${m.id}`)).toEqual(["openai/gpt-5.4", "openai/gpt-6", "google/gemini-9-pro"]);
    expect(r.find("google", "gemini-9-pro")).toMatchObject({ name: "Gemini 9 Pro", contextWindow: 2000000, maxTokens: 65536, api: "google-generative-ai" });
  });

  it("discovers keyless custom providers from models.json when their entry asks for it (discover: true)", async () => {
    routes["/local/v1/models"] = () => [200, { data: [{ id: "qwen3:8b" }, { id: "llama3:8b" }] }];
    writeFileSync(
      join(home, "models.json"),
      JSON.stringify({ providers: { ollama: { baseUrl: `${base}/local/v1`, api: "openai-completions", auth: "none", discover: true, models: [{ id: "qwen3:8b" }] } } }),
    );
    const r = registry({});
    await r.discover();
    expect(requests[0].headers.authorization).toBeUndefined();
    expect(r.available().map((m) => m.id)).toEqual(["qwen3:8b", "llama3:8b"]);
  });

  it("a models.json entry that lists its models is not queried live, and lists only those", async () => {
    routes["/local/v1/models"] = () => [200, { data: [{ id: "qwen3:8b" }, { id: "llama3:8b" }] }];
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { ollama: { baseUrl: `${base}/local/v1`, api: "openai-completions", auth: "none", models: [{ id: "qwen3:8b" }] } } }));
    const r = registry({});
    await r.discover();
    expect(requests).toHaveLength(0);
    expect(warnings).toEqual([]);
    expect(r.available().map((m) => m.id)).toEqual(["qwen3:8b"]);
  });

  it("a custom provider with no models listed is still discovered", async () => {
    routes["/local/v1/models"] = () => [200, { data: [{ id: "llama3:8b" }] }];
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { ollama: { baseUrl: `${base}/local/v1`, api: "openai-completions", auth: "none" } } }));
    const r = registry({});
    await r.discover();
    expect(r.available().map((m) => m.id)).toEqual(["llama3:8b"]);
  });

  it("turns failures into warnings, never throwing", async () => {
    routes["/v1/models"] = () => [401, { error: "bad key" }];
    const r = registry({ ANTHROPIC_API_KEY: "secret-key-1" });
    await expect(r.discover()).resolves.toBeUndefined();
    expect(warnings.join("\n")).toMatch(/model discovery for provider "anthropic" failed: HTTP 401/);
    expect(warnings.join("\n")).not.toContain("secret-key-1");
    expect(r.available().map((m) => m.id)).toEqual(["claude-opus-4-6"]);
  });

  it("is bounded by its timeout and stays quiet when the caller aborts", async () => {
    server.removeAllListeners("request");
    server.on("request", () => {}); // never answers
    const r = createModelRegistry({ pithHome: home, env: { ANTHROPIC_API_KEY: "k" }, warn: (m) => warnings.push(m), catalog: catalogFor(), discoveryTimeoutMs: 50 });
    await r.discover();
    expect(warnings.join("\n")).toMatch(/anthropic.*failed/);
    warnings = [];
    const ac = new AbortController();
    const p = r.discover(ac.signal);
    ac.abort();
    await p;
    expect(warnings).toEqual([]);
    server.closeAllConnections();
  });
});
