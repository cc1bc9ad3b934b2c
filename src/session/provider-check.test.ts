// get_integrations' model check: each state, with a fake fetch (no network).
import { describe, expect, it } from "vitest";
import { TEST_MODEL } from "../../test/support/agent.js";
import type { Model } from "../shared/types.js";
import { checkProvider } from "./provider-check.js";
import { modelsRegistry } from "../../test/support/session.js";

const remote: Model = { ...TEST_MODEL, provider: "acme", api: "openai-completions", baseUrl: "http://127.0.0.1:9/v1" };
const reply = (status: number, body: unknown = { data: [{ id: "m" }] }) =>
  (async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })) as unknown as typeof fetch;

describe("checkProvider", () => {
  it("says no_provider without a model or without credentials", async () => {
    expect(await checkProvider(undefined, modelsRegistry(), { timeoutMs: 100 })).toEqual({ state: "no_provider" });
    const noKey = { ...modelsRegistry([remote]), hasCredentials: () => false };
    expect(await checkProvider(remote, noKey, { timeoutMs: 100 })).toEqual({ state: "no_provider", provider: "acme" });
  });

  it("is connected with the round trip, sending the key only as a header", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      seen.push({ url, headers: init.headers as Record<string, string> });
      return new Response(JSON.stringify({ data: [{ id: "m" }] }), { status: 200 });
    }) as unknown as typeof fetch;
    let t = 1000;
    const res = await checkProvider(remote, modelsRegistry([remote]), { timeoutMs: 100, fetch: fetchFn, now: () => (t += 40) });
    expect(res).toEqual({ state: "connected", provider: "acme", latencyMs: 40 });
    expect(seen[0].url).toBe("http://127.0.0.1:9/v1/models");
    expect(seen[0].headers.authorization).toBe("Bearer test-key");
    expect(seen[0].url).not.toContain("test-key");
  });

  it("maps 401/403 to auth_error and anything else to unavailable with a hint", async () => {
    const reg = modelsRegistry([remote]);
    expect(await checkProvider(remote, reg, { timeoutMs: 100, fetch: reply(401) })).toMatchObject({ state: "auth_error", provider: "acme", hint: expect.stringContaining("401") });
    expect(await checkProvider(remote, reg, { timeoutMs: 100, fetch: reply(403) })).toMatchObject({ state: "auth_error" });
    expect(await checkProvider(remote, reg, { timeoutMs: 100, fetch: reply(500) })).toMatchObject({ state: "unavailable", hint: expect.stringContaining("500") });
    const hang = ((_u: string, init: RequestInit) =>
      new Promise((_r, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)))) as unknown as typeof fetch;
    expect(await checkProvider(remote, reg, { timeoutMs: 30, fetch: hang })).toEqual({ state: "unavailable", provider: "acme", hint: "no answer within 30 ms" });
    const bedrock = { ...remote, api: "bedrock-converse-stream" };
    expect(await checkProvider(bedrock, modelsRegistry([bedrock]), { timeoutMs: 30 })).toMatchObject({ state: "unavailable", hint: expect.stringContaining("bedrock") });
  });

  it("treats the offline scripted provider as connected", async () => {
    expect(await checkProvider(TEST_MODEL, modelsRegistry(), { timeoutMs: 30 })).toEqual({ state: "connected", provider: "scripted", latencyMs: 0 });
  });
});
