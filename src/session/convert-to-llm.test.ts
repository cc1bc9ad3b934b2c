import { describe, expect, it } from "vitest";
import type { AgentMessage, LlmMessage, ToolResultMessage, UserMessage } from "../shared/types.js";
import { assistant, bash, call, custom, result, user } from "../../test/support/compaction.js";
import { convertToLlm, INTERRUPTED_TOOL_TEXT, PRUNED_OUTPUT_TEXT } from "./convert-to-llm.js";

function textOf(m: LlmMessage): string {
  if (m.role === "assistant") return m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  const content = m.content;
  return typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "<img>")).join("|");
}

function shape(messages: LlmMessage[]): string[] {
  return messages.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}` : m.role));
}

describe("convertToLlm: projection table", () => {
  it("passes user, developer, assistant and tool results through by reference", () => {
    const u = user("hi");
    const d: AgentMessage = { role: "developer", content: "Continue if you have next steps.", timestamp: 5 };
    const a = assistant([call("c1")]);
    const r = result("c1");
    const out = convertToLlm([u, a, r, d]);
    expect(out[0]).toBe(u);
    expect(out[1]).toBe(a);
    expect(out[2]).toBe(r);
    expect(out[3]).toBe(d);
  });

  it("turns custom messages into user messages (string → one text block, attribution kept)", () => {
    const out = convertToLlm([custom("remember the todo", { attribution: "agent" })]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ role: "user", attribution: "agent", content: [{ type: "text", text: "remember the todo" }] });
    const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const withImage = convertToLlm([custom("x", { content: [{ type: "text", text: "see" }, img] })]);
    expect((withImage[0] as UserMessage).content).toEqual([{ type: "text", text: "see" }, img]);
  });

  it("renders bash executions: fenced output, no output, exit code, cancel, truncation", () => {
    const ok = textOf(convertToLlm([bash("ls", "a\nb")])[0]);
    expect(ok).toBe("Ran `ls`\n```\na\nb\n```");
    expect(textOf(convertToLlm([bash("true", "")])[0])).toBe("Ran `true`\n(no output)");
    expect(textOf(convertToLlm([bash("false", "boom", { exitCode: 2 })])[0])).toContain("\n\nCommand exited with code 2");
    const cancelled = textOf(convertToLlm([bash("sleep 9", "", { cancelled: true, exitCode: undefined })])[0]);
    expect(cancelled).toBe("Ran `sleep 9`\n(no output)\n\n(command cancelled)");
    const truncated = bash("cat big", "tail", {
      truncated: true,
      meta: {
        truncation: { direction: "tail", truncatedBy: "lines", totalLines: 5000, totalBytes: 90000, outputLines: 2000, outputBytes: 40000, fullOutputPath: "/tmp/out.log" },
      },
    });
    const t = textOf(convertToLlm([truncated])[0]);
    expect(t).toContain("[Output truncated: showing the last 2000 of 5000 lines");
    expect(t).toContain("/tmp/out.log");
    expect(textOf(convertToLlm([bash("x", "y", { truncated: true })])[0])).toMatch(/\[Output truncated\]$/);
  });

  it("uses a longer fence when the output itself contains a code fence", () => {
    const t = textOf(convertToLlm([bash("cat README.md", "```js\nx\n```")])[0]);
    expect(t.startsWith("Ran `cat README.md`\n````\n")).toBe(true);
    expect(t.endsWith("\n````")).toBe(true);
  });

});

describe("convertToLlm: projection table (derived roles)", () => {
  it("omits bash executions excluded from context", () => {
    expect(convertToLlm([bash("secret", "x", { excludeFromContext: true })])).toEqual([]);
  });

  it("wraps compaction and branch summaries in <summary> after a preamble", () => {
    const [c] = convertToLlm([{ role: "compactionSummary", summary: "## Goal\nship it", tokensBefore: 9000, timestamp: 1 }]);
    expect(c.role).toBe("user");
    expect(textOf(c)).toMatch(/^[^<]+\n\n<summary>\n## Goal\nship it\n<\/summary>$/);
    const [b] = convertToLlm([{ role: "branchSummary", summary: "tried X", fromId: "e1", timestamp: 1 }]);
    expect(textOf(b)).toMatch(/branch[^<]*\n\n<summary>\ntried X\n<\/summary>$/);
  });

  it("collapses pruned tool results to their text, or a notice when they had none", () => {
    const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const pruned = result("c1", "[Output truncated - 900 tokens]", { prunedAt: 7, content: [{ type: "text", text: "[Output truncated - 900 tokens]" }, img] });
    const onlyImage = result("c2", "", { prunedAt: 7, content: [img] });
    const out = convertToLlm([assistant([call("c1"), call("c2")]), pruned, onlyImage]);
    expect((out[1] as ToolResultMessage).content).toEqual([{ type: "text", text: "[Output truncated - 900 tokens]" }]);
    expect((out[2] as ToolResultMessage).content).toEqual([{ type: "text", text: PRUNED_OUTPUT_TEXT }]);
    expect(pruned.content).toHaveLength(2); // input untouched
  });

  it("returns the same projection object for the same derived message across calls", () => {
    const b = bash("ls", "a");
    const history: AgentMessage[] = [b, assistant("ok")];
    expect(convertToLlm(history)[0]).toBe(convertToLlm(history)[0]);
  });
});

describe("convertToLlm: tool pairing repair", () => {
  it("leaves a well-formed history unchanged", () => {
    const history = [user("go"), assistant([call("a"), call("b")]), result("b"), result("a"), assistant("done")];
    const out = convertToLlm(history);
    expect(out).toEqual(history);
    expect(shape(out)).toEqual(["user", "assistant", "result:b", "result:a", "assistant"]);
  });

  it("moves messages wedged between a call and its results after the results", () => {
    const out = convertToLlm([user("go"), assistant([call("a")]), custom("steer"), result("a"), assistant("done")]);
    expect(shape(out)).toEqual(["user", "assistant", "result:a", "user", "assistant"]);
  });

  it("moves a result found later in the history into place", () => {
    const out = convertToLlm([assistant([call("a"), call("b")]), result("a"), user("hm"), assistant("x"), result("b")]);
    expect(shape(out)).toEqual(["assistant", "result:a", "result:b", "user", "assistant"]);
  });

  it("synthesises an error result for a call whose result is missing", () => {
    const out = convertToLlm([user("go"), assistant([call("a", "bash", { command: "ls" })]), user("next")]);
    expect(shape(out)).toEqual(["user", "assistant", "result:a", "user"]);
    expect(out[2]).toMatchObject({ role: "toolResult", toolCallId: "a", toolName: "bash", isError: true, content: [{ type: "text", text: INTERRUPTED_TOOL_TEXT }] });
  });

  it("drops results without a call, and duplicate results", () => {
    const out = convertToLlm([user("go"), result("ghost"), assistant([call("a")]), result("a"), result("a", "again"), assistant("ok")]);
    expect(shape(out)).toEqual(["user", "assistant", "result:a", "assistant"]);
    expect(textOf(out[2])).toBe("result of a");
  });

  it("pairs calls of an aborted reply too (synthesised when the loop did not)", () => {
    const aborted = assistant([call("a")], { stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(shape(convertToLlm([user("go"), aborted]))).toEqual(["user", "assistant", "result:a"]);
  });
});

describe("convertToLlm: merging user text", () => {
  it("merges consecutive all-text user messages (custom and bash included)", () => {
    const out = convertToLlm([user("one"), custom("two"), bash("ls", ""), assistant("ok"), user("three"), { role: "user", content: "four", timestamp: 1 }]);
    expect(shape(out)).toEqual(["user", "assistant", "user"]);
    expect(textOf(out[0])).toBe("one|two|Ran `ls`\n(no output)");
    expect(textOf(out[2])).toBe("three|four");
  });

  it("does not merge user messages holding images, nor developer messages", () => {
    const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const withImage: UserMessage = { role: "user", content: [{ type: "text", text: "look" }, img], timestamp: 1 };
    const dev: AgentMessage = { role: "developer", content: "hint", timestamp: 2 };
    expect(shape(convertToLlm([user("a"), withImage, user("b"), dev, user("c")]))).toEqual(["user", "user", "user", "developer", "user"]);
  });

  it("never mutates the messages it merges", () => {
    const a = user("a");
    const b = user("b");
    convertToLlm([a, b]);
    expect(a.content).toEqual([{ type: "text", text: "a" }]);
  });
});

describe("convertToLlm: cost", () => {
  it("handles an 80,000-message history in one pass (a quadratic repair would time out)", () => {
    const history: AgentMessage[] = [];
    for (let i = 0; i < 20_000; i++) history.push(user(`q${i}`), assistant([call(`c${i}`)]), result(`c${i}`), assistant(`a${i}`));
    const out = convertToLlm(history);
    expect(out).toHaveLength(history.length);
    expect(out[history.length - 1]).toBe(history[history.length - 1]);
  });
});
