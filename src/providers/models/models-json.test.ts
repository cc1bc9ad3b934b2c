import { describe, expect, it } from "vitest";
import { parseModelsJson } from "./models-json.js";

const builtIn = (p: string) => p === "anthropic" || p === "openrouter";

describe("models.json parsing", () => {
  it("loads a file written for pi unchanged, ignoring fields pith does not use", () => {
    const warnings: string[] = [];
    const pi = {
      providers: {
        ollama: {
          baseUrl: "http://localhost:11434/v1",
          api: "openai-completions",
          apiKey: "ollama",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [
            { id: "llama3.1:8b" },
            {
              id: "gpt-oss:20b", name: "GPT OSS", reasoning: true, input: ["text", "image"], contextWindow: 131072, maxTokens: 32000,
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, tiers: [{ inputTokensAbove: 1000, input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }] },
              samplingParams: { temperature: 1 }, thinkingLevelMap: { off: null, high: "high" },
            },
          ],
        },
        "custom-proxy": { baseUrl: "https://proxy.example.com/v1", apiKey: "$MY_API_KEY", api: "anthropic-messages", authHeader: true, headers: { "x-secret": "$SECRET" }, models: [{ id: "claude-x", api: "anthropic-messages" }] },
        anthropic: { baseUrl: "https://my-proxy.example.com/v1" },
        openrouter: { modelOverrides: { "anthropic/claude-sonnet-4": { name: "Sonnet via Bedrock", compat: { openRouterRouting: { only: ["amazon-bedrock"] } } } } },
      },
    };
    const cfg = parseModelsJson(JSON.stringify(pi), builtIn, (m) => warnings.push(m));
    expect(warnings).toEqual([]);
    expect(cfg.providers.map((p) => p.name)).toEqual(["ollama", "custom-proxy", "anthropic", "openrouter"]);
    expect(cfg.providers[0].models.map((m) => m.id)).toEqual(["llama3.1:8b", "gpt-oss:20b"]);
    expect(cfg.providers[0].models[1]).toMatchObject({ reasoning: true, contextWindow: 131072, thinkingLevelMap: { off: null, high: "high" } });
    expect(cfg.providers[3].modelOverrides["anthropic/claude-sonnet-4"].name).toBe("Sonnet via Bedrock");
  });

  it("names each problem and keeps the rest", () => {
    const warnings: string[] = [];
    const cfg = parseModelsJson(
      JSON.stringify({
        providers: {
          a: "nope",
          b: { baseUrl: "http://h", api: "bedrock-converse-stream", models: [{ id: "m" }] },
          c: { baseUrl: "http://h", api: "openai-completions", models: [{ id: "ok" }, { id: "bad", input: ["audio"] }, { name: "no id" }] },
          d: { baseUrl: "http://h", models: [{ id: "x" }] },
          e: { auth: "maybe" },
        },
      }),
      builtIn,
      (m) => warnings.push(m),
    );
    expect(cfg.providers.map((p) => p.name)).toEqual(["b", "c", "d"]);
    expect(cfg.providers[1].models.map((m) => m.id)).toEqual(["ok"]);
    expect(warnings).toEqual([
      "models.json: providers.a must be an object; skipped",
      'models.json: providers.b.models[0].api "bedrock-converse-stream" is not supported (use one of anthropic-messages, openai-completions, openai-responses, google-generative-ai); skipped',
      'models.json: providers.c.models[1].input must be an array of "text" | "image"; skipped',
      "models.json: providers.c.models[2].id must be a non-empty string; skipped",
      "models.json: providers.d.models[0] needs an api (model- or provider-level); skipped",
      'models.json: providers.e.auth must be "apiKey" or "none"; skipped',
    ]);
  });

  it("rejects a non-object root", () => {
    const warnings: string[] = [];
    expect(parseModelsJson("[]", builtIn, (m) => warnings.push(m)).providers).toEqual([]);
    expect(warnings[0]).toMatch(/expected an object with a "providers" object/);
  });
});
