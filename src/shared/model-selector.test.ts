import { describe, expect, it } from "vitest";
import { parseModelSelector } from "./model-selector.js";

describe("parseModelSelector", () => {
  it("splits provider/id at the first slash so ids keep their own slashes", () => {
    expect(parseModelSelector("anthropic/claude-sonnet-4-5")).toEqual({ provider: "anthropic", id: "claude-sonnet-4-5" });
    expect(parseModelSelector("openrouter/qwen/qwen3-coder")).toEqual({ provider: "openrouter", id: "qwen/qwen3-coder" });
    expect(parseModelSelector("scripted//tmp/run.json")).toEqual({ provider: "scripted", id: "/tmp/run.json" });
  });

  it("reads a selector without a provider as a bare id", () => {
    expect(parseModelSelector("gpt-4o")).toEqual({ id: "gpt-4o" });
    expect(parseModelSelector("/abs/path")).toEqual({ id: "/abs/path" });
    expect(parseModelSelector("")).toEqual({ id: "" });
  });

  it("keeps an empty id after a provider (the caller decides whether that is an error)", () => {
    expect(parseModelSelector("anthropic/")).toEqual({ provider: "anthropic", id: "" });
  });
});
