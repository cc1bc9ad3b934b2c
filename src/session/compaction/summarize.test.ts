import { describe, expect, it } from "vitest";
import type { LlmContext, StreamFn, StreamOptions } from "../../providers/types.js";
import { PithError } from "../../shared/errors.js";
import type { AssistantMessage, AssistantMessageEvent, Model } from "../../shared/types.js";
import { runCompaction, SPLIT_TURN_SEPARATOR } from "./compact.js";
import type { CompactionPreparation } from "./prepare.js";
import { generateSummary, shortSummaryOf } from "./summarize.js";
import { assistant, bash, call, failed, result, user } from "../../../test/support/compaction.js";

const model: Model = {
  id: "m",
  name: "M",
  api: "scripted",
  provider: "scripted",
  baseUrl: "http://127.0.0.1:1",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 8_000,
};

interface Call {
  context: LlmContext;
  options: StreamOptions;
}

/** A StreamFn that answers each request with the next scripted reply and records the request. */
function scripted(replies: Array<(ctx: LlmContext, opts: StreamOptions) => AssistantMessage | Promise<AssistantMessage>>) {
  const calls: Call[] = [];
  const stream: StreamFn = (_model, context, options) => {
    calls.push({ context, options });
    const reply = replies[calls.length - 1];
    return (async function* (): AsyncGenerator<AssistantMessageEvent> {
      const final = await reply(context, options);
      yield { type: "start", partial: { ...final, content: [] } };
      if (final.stopReason === "error" || final.stopReason === "aborted") yield { type: "error", reason: final.stopReason, error: final };
      else yield { type: "done", reason: "stop", message: final };
    })();
  };
  return { stream, calls };
}

const promptOf = (c: Call) => {
  const m = c.context.messages[0];
  return typeof m.content === "string" ? m.content : m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
};

const SUMMARY = "## Goal\nPort the parser to TypeScript. Then test it.\n\n## Progress\n- [x] lexer";

describe("generateSummary", () => {
  it("sends the transcript as text in one user message, no tools, with previous summary and focus", async () => {
    const { stream, calls } = scripted([() => assistant(SUMMARY)]);
    const out = await generateSummary({
      stream,
      model,
      apiKey: "k",
      messages: [user("port the parser"), assistant([call("c1", "read", { path: "/p.c" })]), result("c1", "int main"), bash("make", "ok")],
      previousSummary: "## Goal\nEARLIER SUMMARY",
      customInstructions: "the lexer edge cases",
      signal: new AbortController().signal,
      maxTokens: 1234,
    });
    expect(out).toEqual({ summary: SUMMARY, shortSummary: "Port the parser to TypeScript." });
    expect(calls).toHaveLength(1);
    const [c] = calls;
    expect(c.context.tools).toEqual([]);
    expect(c.context.messages).toHaveLength(1);
    expect(c.context.systemPrompt).toMatch(/summar/i);
    expect(c.options).toMatchObject({ apiKey: "k", maxTokens: 1234 });
    const prompt = promptOf(c);
    expect(prompt).toContain("<conversation>\n[User]: port the parser");
    expect(prompt).toContain('[Assistant tool calls]: read(path="/p.c")');
    expect(prompt).toContain("[Tool result] read: int main");
    expect(prompt).toContain("Ran `make`");
    expect(prompt).toContain("<previous-summary>\n## Goal\nEARLIER SUMMARY\n</previous-summary>");
    expect(prompt).toMatch(/Additional focus: the lexer edge cases$/);
    for (const section of ["## Goal", "## Constraints & Preferences", "## Progress", "## Key Decisions", "## Next Steps", "## Critical Context"]) {
      expect(prompt).toContain(section);
    }
  });

  it("cuts long tool results in the transcript", async () => {
    const { stream, calls } = scripted([() => assistant(SUMMARY)]);
    const messages = [user("go"), assistant([call("c1")]), result("c1", "z".repeat(5000))];
    await generateSummary({ stream, model, messages, signal: new AbortController().signal });
    expect(promptOf(calls[0])).toContain(`${"z".repeat(2000)}\n[... 3000 more characters truncated]`);
    expect(promptOf(calls[0])).not.toContain("<previous-summary>");
  });

});

describe("generateSummary: failures", () => {
  it("throws PithError aborted when the signal fires mid-request", async () => {
    const controller = new AbortController();
    const { stream } = scripted([
      (_ctx, opts) =>
        new Promise<AssistantMessage>((resolve) => {
          opts.signal?.addEventListener("abort", () => resolve(assistant([], { stopReason: "aborted", errorMessage: "Request was aborted" })));
          controller.abort();
        }),
    ]);
    const err = await generateSummary({ stream, model, messages: [user("x")], signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PithError);
    expect(err).toMatchObject({ code: "aborted", message: "Compaction aborted" });
  });

  it("throws without calling the model when already aborted", async () => {
    const { stream, calls } = scripted([() => assistant(SUMMARY)]);
    const controller = new AbortController();
    controller.abort();
    await expect(generateSummary({ stream, model, messages: [user("x")], signal: controller.signal })).rejects.toMatchObject({ code: "aborted" });
    expect(calls).toHaveLength(0);
  });

  it("turns a provider error or an empty reply into a PithError naming the cause", async () => {
    const { stream } = scripted([() => failed("503 overloaded"), () => assistant("   ")]);
    const opts = { stream, model, messages: [user("x")], signal: new AbortController().signal };
    await expect(generateSummary(opts)).rejects.toMatchObject({ code: "unavailable", message: "Summarization failed: 503 overloaded" });
    await expect(generateSummary(opts)).rejects.toThrow(/empty summary/);
  });
});

describe("generateSummary retries", () => {
  const retry = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 };
  const stalled = "Provider stream timed out: no data for 50 ms in the middle of the reply (retry.idleTimeoutMs)";

  it("re-sends a summary request that stalled, and passes the stream limits on", async () => {
    const { stream, calls } = scripted([() => failed(stalled), () => assistant(SUMMARY)]);
    const timeouts = { firstByteTimeoutMs: 40, idleTimeoutMs: 50 };
    const out = await generateSummary({ stream, model, messages: [user("x")], signal: new AbortController().signal, retry, timeouts });
    expect(out.summary).toBe(SUMMARY);
    expect(calls).toHaveLength(2);
    expect(calls[1].options).toMatchObject(timeouts);
  });

  it("fails cleanly after the last attempt, and not at all for permanent errors", async () => {
    const { stream, calls } = scripted([() => failed(stalled), () => failed(stalled), () => failed(stalled)]);
    await expect(generateSummary({ stream, model, messages: [user("x")], signal: new AbortController().signal, retry })).rejects.toMatchObject({
      code: "unavailable",
      message: `Summarization failed: ${stalled}`,
    });
    expect(calls).toHaveLength(3);
    const auth = scripted([() => failed("401 invalid api key"), () => assistant(SUMMARY)]);
    await expect(generateSummary({ stream: auth.stream, model, messages: [user("x")], signal: new AbortController().signal, retry })).rejects.toThrow(/401/);
    expect(auth.calls).toHaveLength(1);
  });

  it("stops waiting for the next attempt when aborted", async () => {
    const { stream, calls } = scripted([() => failed(stalled), () => assistant(SUMMARY)]);
    const controller = new AbortController();
    const pending = generateSummary({ stream, model, messages: [user("x")], signal: controller.signal, retry: { ...retry, baseDelayMs: 5_000, maxDelayMs: 5_000 } });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
    expect(calls).toHaveLength(1);
  });
});

describe("shortSummaryOf", () => {
  it("takes the first prose sentence, skipping headings and list markers, at most 100 chars", () => {
    expect(shortSummaryOf("## Goal\n\n- **Fix** the login bug. Also docs.")).toBe("Fix the login bug.");
    const long = shortSummaryOf(`# Title\n${"word ".repeat(60)}`) as string;
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long.endsWith("…")).toBe(true);
    expect(shortSummaryOf("## Only headings")).toBeUndefined();
  });
});

describe("runCompaction", () => {
  const base: CompactionPreparation = {
    firstKeptEntryId: "e7",
    messagesToSummarize: [user("old work")],
    turnPrefixMessages: [],
    keptMessages: [],
    splitTurn: false,
    tokensBefore: 12_345,
    previousSummary: "prev",
    fileOperations: { readFiles: ["/r.ts"], modifiedFiles: ["/m.ts"] },
    keepRecentTokens: 20_000,
  };

  it("summarises history and returns a CompactionResult with file lists", async () => {
    const { stream, calls } = scripted([() => assistant(SUMMARY)]);
    const res = await runCompaction(base, { stream, model, signal: new AbortController().signal, reserveTokens: 16_384, customInstructions: "focus" });
    expect(res).toMatchObject({ firstKeptEntryId: "e7", tokensBefore: 12_345, details: base.fileOperations, shortSummary: "Port the parser to TypeScript." });
    expect(res.summary).toBe(`${SUMMARY}\n\n<read-files>\n/r.ts\n</read-files>\n\n<modified-files>\n/m.ts\n</modified-files>`);
    expect(calls[0].options.maxTokens).toBe(13_107);
    expect(promptOf(calls[0])).toContain("<previous-summary>\nprev\n</previous-summary>");
  });

  it("folds a split turn's prefix summary after the history summary", async () => {
    const { stream, calls } = scripted([() => assistant("HISTORY"), () => assistant("PREFIX")]);
    const prep = { ...base, splitTurn: true, turnPrefixMessages: [user("the turn"), assistant("started")], fileOperations: { readFiles: [], modifiedFiles: [] } };
    const res = await runCompaction(prep, { stream, model, signal: new AbortController().signal, reserveTokens: 1000 });
    expect(res.summary).toBe(`HISTORY${SPLIT_TURN_SEPARATOR}PREFIX`);
    expect(calls.map((c) => c.options.maxTokens)).toEqual([800, 500]);
    expect(promptOf(calls[1])).toContain("## Original Request");
    expect(promptOf(calls[1])).not.toContain("<previous-summary>");
  });

  it("keeps the previous summary as the history part when only a turn prefix is new", async () => {
    const { stream, calls } = scripted([() => assistant("PREFIX")]);
    const prep = { ...base, messagesToSummarize: [], splitTurn: true, turnPrefixMessages: [user("t")], fileOperations: { readFiles: [], modifiedFiles: [] } };
    const res = await runCompaction(prep, { stream, model, signal: new AbortController().signal, reserveTokens: 1000 });
    expect(calls).toHaveLength(1);
    expect(res.summary).toBe(`prev${SPLIT_TURN_SEPARATOR}PREFIX`);
  });

  it("fails as a whole when one of the two requests fails, and stops the other", async () => {
    let otherAborted = false;
    const { stream } = scripted([
      (_ctx, opts) =>
        new Promise<AssistantMessage>((resolve) => {
          opts.signal?.addEventListener("abort", () => {
            otherAborted = true;
            resolve(assistant([], { stopReason: "aborted", errorMessage: "Request was aborted" }));
          });
        }),
      () => failed("500 internal error"),
    ]);
    const prep = { ...base, splitTurn: true, turnPrefixMessages: [user("t")] };
    await expect(runCompaction(prep, { stream, model, signal: new AbortController().signal, reserveTokens: 1000 })).rejects.toMatchObject({
      code: "unavailable",
      message: "Summarization failed: 500 internal error",
    });
    expect(otherAborted).toBe(true);
  });
});
