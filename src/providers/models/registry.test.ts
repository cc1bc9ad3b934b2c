import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CatalogFile } from "./catalog.js";
import { createModelRegistry, type ModelRegistryOptions } from "./registry.js";

const cost = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
const catalog: CatalogFile = {
  providers: {
    anthropic: {
      api: "anthropic-messages",
      baseUrl: "https://api.anthropic.com",
      models: [
        { id: "claude-opus-4-6", name: "Opus", reasoning: true, input: ["text", "image"], cost, contextWindow: 200000, maxTokens: 64000, thinking: { minLevel: "minimal", maxLevel: "xhigh", mode: "anthropic-adaptive" } },
        { id: "claude-haiku-4-5", name: "Haiku", reasoning: true, input: ["text", "image"], cost, contextWindow: 200000, maxTokens: 64000 },
      ],
    },
    openai: {
      api: "openai-responses",
      baseUrl: "https://api.openai.com/v1",
      models: [{ id: "gpt-5.4", name: "GPT-5.4", reasoning: true, input: ["text"], cost, contextWindow: 400000, maxTokens: 128000 }],
    },
    groq: {
      api: "openai-completions",
      baseUrl: "https://api.groq.com/openai/v1",
      models: [{ id: "llama", name: "Llama", reasoning: false, input: ["text"], cost, contextWindow: 1000, maxTokens: 100 }],
    },
  },
};

let home: string;
let warnings: string[];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "pith-reg-"));
  warnings = [];
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function registry(env: Record<string, string> = {}, extra: Partial<ModelRegistryOptions> = {}) {
  return createModelRegistry({ pithHome: home, env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env }, warn: (m) => warnings.push(m), catalog, cwd: home, ...extra });
}
function modelsJson(data: unknown) {
  writeFileSync(join(home, "models.json"), typeof data === "string" ? data : JSON.stringify(data));
}

describe("model registry", () => {
  it("lists the catalogue and filters available by credentials", () => {
    const r = registry({ OPENAI_API_KEY: "sk-o" });
    expect(r.all().map((m) => `${m.provider}/${m.id}`)).toEqual(["anthropic/claude-opus-4-6", "anthropic/claude-haiku-4-5", "openai/gpt-5.4", "groq/llama"]);
    expect(r.available().map((m) => m.id)).toEqual(["gpt-5.4"]);
    expect(r.hasCredentials("anthropic")).toBe(false);
    expect(r.hasCredentials("scripted")).toBe(true);
  });

  it("finds exactly and resolves unknown ids of known providers with defaults and a warning", () => {
    const r = registry({ ANTHROPIC_API_KEY: "k" });
    expect(r.find("anthropic", "claude-opus-4-6")?.name).toBe("Opus");
    expect(r.find("anthropic", "claude-opus-4-9")).toBeUndefined();
    expect(r.resolve("nope", "x")).toBeUndefined();
    const m = r.resolve("anthropic", "claude-opus-4-9")!;
    expect(m).toMatchObject({ id: "claude-opus-4-9", api: "anthropic-messages", baseUrl: "https://api.anthropic.com", contextWindow: 128000, maxTokens: 16384, reasoning: true });
    expect(m.cost).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(m.thinking?.maxLevel).toBe("xhigh"); // inherited from the nearest sibling
    expect(warnings.join("\n")).toMatch(/anthropic\/claude-opus-4-9 is not in the catalogue/);
    // Remembered: now listed and found exactly.
    expect(r.available().some((x) => x.id === "claude-opus-4-9")).toBe(true);
    expect(r.find("anthropic", "claude-opus-4-9")).toBe(m);
  });

  it("resolves any scripted id to a keyless scripted model", () => {
    const r = registry();
    const m = r.resolve("scripted", "script.json")!;
    expect(m).toMatchObject({ provider: "scripted", api: "scripted", name: "Scripted: script.json", reasoning: true, contextWindow: 200000, maxTokens: 32000 });
    expect(m.baseUrl).toBe(`file://${join(home, "script.json")}`);
    expect(r.available()).toContain(m);
  });

  it("selects by provider/id, {provider, id}, a bare id, or a scripted script path", () => {
    const r = registry({ ANTHROPIC_API_KEY: "k" });
    expect(r.select("anthropic/claude-haiku-4-5")?.name).toBe("Haiku");
    expect(r.select({ provider: "openai", id: "gpt-5.4" })?.name).toBe("GPT-5.4");
    expect(r.select("llama")).toMatchObject({ provider: "groq", id: "llama" });
    expect(r.select("nope/x")).toBeUndefined();
    expect(r.select("no-such-id")).toBeUndefined();
    // an unknown id of a known provider resolves with default limits, as resolve() does
    expect(r.select("anthropic/claude-next")).toMatchObject({ id: "claude-next", contextWindow: 128000 });
    expect(warnings.join("\n")).toMatch(/anthropic\/claude-next is not in the catalogue/);
    // a scripted path keeps its slashes
    expect(r.select("scripted/runs/a.json")).toMatchObject({ provider: "scripted", id: "runs/a.json", baseUrl: `file://${join(home, "runs/a.json")}` });
  });

  it("resolves API keys: --api-key for the CLI provider, models.json apiKey, then env", async () => {
    modelsJson({ providers: { openai: { apiKey: "MY_OPENAI" }, groq: { apiKey: "!echo from-command" } } });
    const r = registry({ MY_OPENAI: "sk-env-named", OPENAI_API_KEY: "sk-std", ANTHROPIC_API_KEY: "sk-ant", GROQ_API_KEY: "g" }, { cliApiKey: "sk-cli", cliProvider: "anthropic" });
    expect(await r.getApiKey("anthropic")).toBe("sk-cli");
    expect(await r.getApiKey("openai")).toBe("sk-env-named");
    expect(await r.getApiKey("groq")).toBe("from-command");
    expect(await r.getApiKey("google")).toBeUndefined();
    const r2 = registry({ GEMINI_API_KEY: "gem" });
    expect(await r2.getApiKey("google")).toBe("gem");
  });

  it("falls back to the env key when the apiKey command fails, with a warning", async () => {
    modelsJson({ providers: { openai: { apiKey: "!exit 1" } } });
    const r = registry({ OPENAI_API_KEY: "sk-std" });
    expect(await r.getApiKey("openai")).toBe("sk-std");
    expect(warnings.join("\n")).toMatch(/apiKey command for provider "openai" failed/);
  });

  it("merges models.json: overrides, custom providers, keyless auth", () => {
    modelsJson({
      providers: {
        anthropic: { baseUrl: "https://proxy.example", headers: { "X-Team": "$TEAM" }, modelOverrides: { "claude-haiku-4-5": { contextWindow: 300000, cost: { input: 9 } }, unknown: { name: "ignored" } } },
        ollama: { baseUrl: "http://127.0.0.1:11434/v1", api: "openai-completions", auth: "none", compat: { supportsDeveloperRole: false }, models: [{ id: "qwen3:8b", reasoning: true, thinkingLevelMap: { xhigh: null } }] },
        locked: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", models: [{ id: "m1" }] },
      },
    });
    const r = registry({ ANTHROPIC_API_KEY: "k", TEAM: "core" });
    const haiku = r.find("anthropic", "claude-haiku-4-5")!;
    expect(haiku).toMatchObject({ baseUrl: "https://proxy.example", contextWindow: 300000, headers: { "X-Team": "core" } });
    expect(haiku.cost).toEqual({ input: 9, output: 2, cacheRead: 0, cacheWrite: 0 });
    const qwen = r.find("ollama", "qwen3:8b")!;
    expect(qwen).toMatchObject({ name: "qwen3:8b", api: "openai-completions", input: ["text"], contextWindow: 128000, maxTokens: 16384, compat: { supportsDeveloperRole: false } });
    expect(qwen.thinking).toEqual({ minLevel: "minimal", maxLevel: "high", mode: "effort" });
    const avail = r.available().map((m) => `${m.provider}/${m.id}`);
    expect(avail).toContain("ollama/qwen3:8b");
    expect(avail).not.toContain("locked/m1");
    expect(r.all().some((m) => m.id === "m1")).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("keeps running on an invalid models.json, naming the problem", () => {
    modelsJson("{ not json");
    expect(registry({ OPENAI_API_KEY: "k" }).available()).toHaveLength(1);
    expect(warnings[0]).toMatch(/models\.json: not valid JSON/);
    warnings = [];
    modelsJson({ providers: { custom: { models: [{ id: "a" }] }, good: { baseUrl: "http://h/v1", api: "openai-completions", apiKey: "x", models: [{ id: "b", contextWindow: -1 }, { id: "c" }] } } });
    const r = registry();
    expect(r.all().filter((m) => m.provider === "good").map((m) => m.id)).toEqual(["c"]);
    expect(warnings.join("\n")).toMatch(/providers\.custom\.models\[0\] needs a baseUrl/);
    expect(warnings.join("\n")).toMatch(/providers\.good\.models\[0\]\.contextWindow must be a positive number/);
  });

  it("chooses the default model", () => {
    expect(registry().defaultModel()).toBeUndefined();
    expect(registry({ OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" }).defaultModel()?.id).toBe("claude-opus-4-6");
    expect(registry({ OPENAI_API_KEY: "k" }).defaultModel()?.id).toBe("gpt-5.4");
    expect(registry({ GROQ_API_KEY: "k" }).defaultModel()?.id).toBe("llama"); // provider default absent → first of provider
    const r = registry({ OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" });
    expect(r.defaultModel({ defaultProvider: "anthropic", defaultModel: "claude-haiku-4-5" })?.id).toBe("claude-haiku-4-5");
    expect(r.defaultModel({ defaultProvider: "groq", defaultModel: "llama" })?.id).toBe("claude-opus-4-6"); // no key for groq
    expect(r.defaultModel({ defaultProvider: "openai" })?.id).toBe("gpt-5.4");
    expect(registry().defaultModel({ defaultProvider: "scripted", defaultModel: "s.json" })?.provider).toBe("scripted");
  });

  it("constructs without reading anything", () => {
    const r = createModelRegistry({ pithHome: join(home, "does-not-exist"), env: {}, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(r.all().length).toBeGreaterThan(300); // bundled catalogue, read on first use
  });
});

describe("credentialEnvNames", () => {
  it("lists the catalogue's key variables and those models.json reads for keys and headers", () => {
    const providers = {
      proxy: { baseUrl: "http://p/v1", api: "openai-completions", apiKey: "PROXY_KEY", headers: { "x-team": "${TEAM_TOKEN}" }, models: [{ id: "m", headers: { "x-extra": "Bearer $EXTRA_SECRET" } }] },
      literal: { baseUrl: "http://l/v1", api: "openai-completions", apiKey: "sk-literal-not-a-name", models: [{ id: "m" }] },
      command: { baseUrl: "http://c/v1", api: "openai-completions", apiKey: "!cat /key", models: [{ id: "m" }] },
    };
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers }));
    const names = registry({ PROXY_KEY: "k" }).credentialEnvNames();
    for (const n of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "PROXY_KEY", "TEAM_TOKEN", "EXTRA_SECRET"]) expect(names).toContain(n);
    expect(names).not.toContain("sk-literal-not-a-name");
    expect(names.some((n) => n.includes("cat"))).toBe(false);
  });
});
