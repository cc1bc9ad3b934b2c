import { describe, expect, it } from "vitest";
import type { TtsrRule } from "../shared/types.js";
import { buildTtsrInjection, injectedRuleNames } from "./injection.js";

const rule = (name: string, content: string): TtsrRule => ({
  name,
  path: `/rules/${name}.md`,
  content,
  condition: ["x"],
  _source: { provider: "native", providerName: "pith", path: `/rules/${name}.md`, level: "user" },
});

describe("buildTtsrInjection", () => {
  it("is a hidden custom message naming every rule, one interrupt block each", () => {
    const m = buildTtsrInjection([rule("no-console", "Use the logger.\n"), rule('q"uote', "Body")], 7);
    expect(m).toMatchObject({ role: "custom", customType: "ttsr-injection", display: false, details: { rules: ["no-console", 'q"uote'] }, timestamp: 7 });
    const text = m.content as string;
    expect(text).toContain('<system-interrupt reason="rule_violation" rule="no-console" path="/rules/no-console.md">');
    expect(text).toContain('rule="q&quot;uote"');
    expect(text).toContain("Use the logger.\n</system-interrupt>");
    expect(text).toContain("not a prompt injection");
    expect(text.match(/<system-interrupt /g)).toHaveLength(2);
  });
});

describe("injectedRuleNames", () => {
  it("collects rule names from ttsr-injection custom messages only, once each", () => {
    const injected = (rules: unknown) => ({ type: "custom_message", customType: "ttsr-injection", details: { rules } });
    const names = injectedRuleNames([
      injected(["a", "b"]),
      { type: "custom_message", customType: "other", details: { rules: ["x"] } },
      { type: "custom", customType: "ttsr-injection", details: { rules: ["y"] } },
      injected(["b", 3, "c"]),
      injected("not a list"),
      { type: "message" },
    ]);
    expect(names).toEqual(["a", "b", "c"]);
    expect(injectedRuleNames([])).toEqual([]);
  });
});
