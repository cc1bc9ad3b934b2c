import { describe, expect, it } from "vitest";
import type { TtsrRule } from "../shared/types.js";
import { TtsrMatcher } from "./matcher.js";

function rule(name: string, condition: string[], extra: Partial<TtsrRule> = {}): TtsrRule {
  return { name, path: `/r/${name}.md`, content: `rule ${name}`, condition, _source: { provider: "native", providerName: "pith", path: `/r/${name}.md`, level: "user" }, ...extra };
}
const names = (rules: TtsrRule[] | undefined) => rules?.map((r) => r.name);

/** Feeds `text` one character at a time; returns the index of each delta that fired. */
function feedChars(m: TtsrMatcher, kind: "text" | "thinking" | "toolcall", text: string, tool?: Parameters<TtsrMatcher["feed"]>[2]): Array<[number, string[]]> {
  const hits: Array<[number, string[]]> = [];
  for (let i = 0; i < text.length; i++) {
    const fired = m.feed(kind, text[i], tool);
    if (fired) hits.push([i, names(fired) ?? []]);
  }
  return hits;
}

describe("TtsrMatcher", () => {
  it("fires once, on the delta that completes a pattern split across many deltas", () => {
    const m = new TtsrMatcher([rule("no-console", ["console\\.log\\("])]);
    const text = "Sure, I will add console.log(x) and console.log(y).";
    expect(feedChars(m, "text", text)).toEqual([[text.indexOf("(") , ["no-console"]]]);
  });

  it("with repeatMode once, a rule never fires again in the session, even across prompts", () => {
    const m = new TtsrMatcher([rule("r", ["bad"])]);
    expect(names(m.feed("text", "bad"))).toEqual(["r"]);
    m.resetStream();
    expect(m.feed("text", "bad")).toBeUndefined();
    m.resetForPrompt();
    m.resetStream();
    expect(m.feed("text", "bad")).toBeUndefined();
    expect(m.injectedRuleNames()).toEqual(["r"]);
    m.restoreInjected([]);
    expect(names(m.feed("text", "bad again"))).toEqual(["r"]);
  });

  it("restoreInjected blocks rules a loaded session already injected", () => {
    const m = new TtsrMatcher([rule("r", ["bad"]), rule("s", ["bad"])]);
    m.restoreInjected(["r"]);
    expect(names(m.feed("text", "bad"))).toEqual(["s"]);
  });

  it("with repeatMode after-gap, a rule fires again after repeatGap messages", () => {
    const m = new TtsrMatcher([rule("r", ["bad"])], { repeatMode: "after-gap", repeatGap: 2 });
    expect(names(m.feed("text", "bad"))).toEqual(["r"]);
    expect(m.feed("text", " bad")).toBeUndefined(); // same message
    m.resetStream();
    expect(m.feed("text", "bad")).toBeUndefined();
    m.resetStream();
    expect(names(m.feed("text", "bad"))).toEqual(["r"]);
  });

  it("resetStream drops partial matches", () => {
    const m = new TtsrMatcher([rule("r", ["abc"])]);
    m.feed("text", "ab");
    m.resetStream();
    expect(m.feed("text", "c")).toBeUndefined();
    m.feed("text", "ab");
    m.resetForPrompt();
    expect(m.feed("text", "c")).toBeUndefined();
  });

  it("keeps one buffer per stream", () => {
    const m = new TtsrMatcher([rule("r", ["abc"], { scope: ["text", "thinking", "tool"] })]);
    m.feed("text", "ab");
    expect(m.feed("thinking", "c")).toBeUndefined();
    m.feed("toolcall", "ab", { id: "1" });
    expect(m.feed("toolcall", "c", { id: "2" })).toBeUndefined();
    expect(names(m.feed("toolcall", "c", { id: "1" }))).toEqual(["r"]);
  });

  describe("scope", () => {
    it("default: text and tool arguments, not thinking", () => {
      const make = () => new TtsrMatcher([rule("r", ["x"])]);
      expect(make().feed("thinking", "x")).toBeUndefined();
      expect(names(make().feed("text", "x"))).toEqual(["r"]);
      expect(names(make().feed("toolcall", "x"))).toEqual(["r"]);
    });

    it("thinking only", () => {
      const make = () => new TtsrMatcher([rule("r", ["x"], { scope: ["thinking"] })]);
      expect(names(make().feed("thinking", "x"))).toEqual(["r"]);
      expect(make().feed("text", "x")).toBeUndefined();
      expect(make().feed("toolcall", "x")).toBeUndefined();
    });

    it("by tool name (case-insensitive) and by path glob", () => {
      const byName = () => new TtsrMatcher([rule("r", ["x"], { scope: ["tool:Edit"] })]);
      expect(byName().feed("toolcall", "x", { name: "bash" })).toBeUndefined();
      expect(byName().feed("toolcall", "x")).toBeUndefined();
      expect(byName().feed("text", "x")).toBeUndefined();
      expect(names(byName().feed("toolcall", "x", { name: "edit" }))).toEqual(["r"]);

      const byPath = () => new TtsrMatcher([rule("r", ["unsafe"], { scope: ["tool:edit(src/**/*.rs)"] })], { cwd: "/proj" });
      expect(byPath().feed("toolcall", "unsafe", { name: "edit", args: { path: "src/a.ts" } })).toBeUndefined();
      expect(names(byPath().feed("toolcall", "unsafe", { name: "edit", args: { path: "./src/x/a.rs" } }))).toEqual(["r"]);
      expect(names(byPath().feed("toolcall", "unsafe", { name: "edit", args: { path: "/proj/src/a.rs" } }))).toEqual(["r"]);
      expect(byPath().feed("toolcall", "unsafe", { name: "write", args: { path: "src/a.rs" } })).toBeUndefined();

      const anyTool = new TtsrMatcher([rule("r", ["x"], { scope: ["tool(*.md)"] })]);
      expect(names(anyTool.feed("toolcall", "x", { name: "write", args: { paths: ["docs/README.md"] } }))).toEqual(["r"]);
    });

    it("a glob condition fires as soon as edit/write targets a matching file", () => {
      const m = new TtsrMatcher([rule("rs", [".*"], { scope: ["tool:edit(*.rs)", "tool:write(*.rs)"] })]);
      expect(m.feed("toolcall", "{", { name: "edit", args: {} })).toBeUndefined();
      expect(names(m.feed("toolcall", '"path":"lib.rs"', { name: "edit", args: { path: "crates/a/lib.rs" } }))).toEqual(["rs"]);
    });

    it("globs restrict a rule to tool calls on matching paths", () => {
      const make = () => new TtsrMatcher([rule("r", ["x"], { globs: ["*.py"] })]);
      expect(make().feed("text", "x")).toBeUndefined();
      expect(make().feed("toolcall", "x", { name: "edit", args: { path: "a.ts" } })).toBeUndefined();
      expect(names(make().feed("toolcall", "x", { name: "edit", args: { file_path: "pkg/a.py" } }))).toEqual(["r"]);
    });
  });

  describe("interruptMode", () => {
    it("prose-only interrupts on text and defers tool matches", () => {
      const m = new TtsrMatcher([rule("r", ["x"], { interruptMode: "prose-only" })]);
      expect(m.feed("toolcall", "x")).toBeUndefined();
      expect(names(m.takeDeferred())).toEqual(["r"]);
      expect(m.takeDeferred()).toEqual([]);
      const t = new TtsrMatcher([rule("r", ["x"], { interruptMode: "prose-only" })]);
      expect(names(t.feed("text", "x"))).toEqual(["r"]);
    });

    it("tool-only interrupts on tool arguments and defers text matches", () => {
      const m = new TtsrMatcher([rule("r", ["x"], { interruptMode: "tool-only" })]);
      expect(m.feed("text", "x")).toBeUndefined();
      expect(names(m.takeDeferred())).toEqual(["r"]);
      const t = new TtsrMatcher([rule("r", ["x"], { interruptMode: "tool-only" })]);
      expect(names(t.feed("toolcall", "x"))).toEqual(["r"]);
    });

    it("never only defers; the global mode applies to rules without their own", () => {
      const m = new TtsrMatcher([rule("a", ["x"]), rule("b", ["x"], { interruptMode: "always" })], { interruptMode: "never" });
      expect(names(m.feed("text", "x"))).toEqual(["a", "b"]);
      expect(names(m.takeDeferred())).toEqual([]);
      const n = new TtsrMatcher([rule("a", ["x"])], { interruptMode: "never" });
      expect(n.feed("text", "x")).toBeUndefined();
      expect(names(n.takeDeferred())).toEqual(["a"]);
    });

    it("an interrupting match also carries the rules deferred earlier in the message", () => {
      const m = new TtsrMatcher([rule("soft", ["foo"], { interruptMode: "never" }), rule("hard", ["bar"])]);
      expect(m.feed("text", "foo ")).toBeUndefined();
      expect(names(m.feed("text", "bar"))).toEqual(["soft", "hard"]);
      expect(m.takeDeferred()).toEqual([]);
    });
  });

  describe("window", () => {
    it("only the recent window of a stream is matched", () => {
      const m = new TtsrMatcher([rule("r", ["start[\\s\\S]*end"])], { windowChars: 16 });
      m.feed("text", "start");
      for (let i = 0; i < 40; i++) m.feed("text", "-");
      expect(m.feed("text", "end")).toBeUndefined();
      const near = new TtsrMatcher([rule("r", ["start[\\s\\S]*end"])], { windowChars: 16 });
      near.feed("text", "start----");
      expect(names(near.feed("text", "end"))).toEqual(["r"]);
    });

    it("the default window keeps at least 4 KB and at most 8 KB", () => {
      const far = new TtsrMatcher([rule("r", ["start[\\s\\S]*end"])]);
      far.feed("text", "start");
      for (let i = 0; i < 3; i++) far.feed("text", "-".repeat(3000));
      expect(far.feed("text", "end")).toBeUndefined();
      const near = new TtsrMatcher([rule("r", ["start[\\s\\S]*end"])]);
      near.feed("text", "start");
      for (let i = 0; i < 4; i++) near.feed("text", "-".repeat(1000));
      expect(names(near.feed("text", "end"))).toEqual(["r"]);
    });

    it("20,000 deltas: bounded and rescanned conditions both fire exactly once, late", () => {
      const m = new TtsrMatcher([rule("bounded", ["needle"]), rule("rescanned", ["\\bneedle\\b"])]);
      const hits: Array<[number, string[]]> = [];
      for (let i = 0; i < 20_000; i++) {
        const fired = m.feed("text", i === 19_990 ? " needle " : "x ");
        if (fired) hits.push([i, names(fired) ?? []]);
      }
      expect(hits).toEqual([[19_990, ["bounded", "rescanned"]]]);
    });

    it("a bounded condition split over deltas larger than the window still fires", () => {
      const m = new TtsrMatcher([rule("r", ["abcdef"])], { windowChars: 4 });
      expect(m.feed("text", "x".repeat(100) + "abc")).toBeUndefined();
      expect(names(m.feed("text", "def" + "y".repeat(100)))).toEqual(["r"]);
    });

    it("a tool rule that becomes eligible mid-call scans what was streamed before", () => {
      const m = new TtsrMatcher([rule("r", ["unsafe"], { scope: ["tool:edit(*.rs)"] })]);
      expect(m.feed("toolcall", '{"edits":"unsafe {', { id: "1", name: "edit", args: {} })).toBeUndefined();
      expect(names(m.feed("toolcall", '","path":"a.rs"}', { id: "1", name: "edit", args: { path: "a.rs" } }))).toEqual(["r"]);
    });
  });

  it("has no rules when none is usable; duplicate names keep the first", () => {
    expect(new TtsrMatcher([]).hasRules).toBe(false);
    expect(new TtsrMatcher([rule("bad", ["(unclosed"]), rule("none", [])]).hasRules).toBe(false);
    const m = new TtsrMatcher([rule("r", ["a"]), rule("r", ["b"])]);
    expect(m.hasRules).toBe(true);
    expect(m.feed("text", "b")).toBeUndefined();
    expect(names(m.feed("text", "a"))).toEqual(["r"]);
    expect(m.feed("text", "")).toBeUndefined();
  });
});
