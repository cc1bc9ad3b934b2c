// TTSR end to end (`ttsr_triggered`): a rule file whose condition
// matches streamed output cuts the stream, is announced once, and the re-issued request carries
// the rule text instead of the interrupted reply.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, trackPiths, useFakeLlm, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

const PROSE_RULE = [
  "---",
  "description: No forbidden words",
  'condition: "forbidden_word"',
  "---",
  "Never write the forbidden word; say 'the word' instead.",
  "",
].join("\n");

const BASH_RULE = ["---", "condition: rm -rf", "scope: tool:bash", "---", "Do not delete directories recursively; move them to trash.", ""].join("\n");

const calls = () => llm.requests.filter((r) => r.method === "POST");
const body = (r: FakeRequest | undefined) => JSON.stringify(r?.body ?? null);

async function start(provider: string, model: string, setup: (home: string, cwd: string) => void): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  const cwd = tempDir("pith-cwd-");
  setup(pithHome, cwd);
  // the test's own folder is trusted: its .pith/rules load
  const p = await Pith.start({ pithHome, cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", provider, "--model", model, "--trust-project"] });
  open.push(p);
  return p;
}

function writeRule(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.md`);
  writeFileSync(file, text);
  return file;
}

const PROVIDERS: Array<[string, string, string]> = [
  ["openai-completions", "fake-openai", "fake-gpt"],
  ["anthropic-messages", "fake-anthropic", "fake-claude"],
];

describe.each(PROVIDERS)("TTSR over %s", (_api, provider, model) => {
  it("a user rule fires on streamed text: one ttsr_triggered, the stream is cut, the retry carries the rule", async () => {
    let ruleFile = "";
    const p = await start(provider, model, (home) => {
      ruleFile = writeRule(path.join(home, "rules"), "no-forbidden", PROSE_RULE);
    });
    const before = calls().length;
    // The first reply would hang forever after its deltas: only the rule's abort ends it.
    llm.enqueue({ text: ["Sure, ", "I will use forbidden_", "word here", " and more"], hang: true }, { text: "Understood, the word it is." });
    const frames = await p.promptAndWait("Say it");
    const triggered = frames.filter((f) => f.type === "ttsr_triggered");
    expect(triggered).toHaveLength(1);
    expect(triggered[0].rules).toHaveLength(1);
    expect(triggered[0].rules[0]).toMatchObject({
      name: "no-forbidden",
      path: ruleFile,
      content: "Never write the forbidden word; say 'the word' instead.",
      condition: ["forbidden_word"],
      description: "No forbidden words",
      _source: { level: "user", path: ruleFile },
    });
    // The interrupted reply ended aborted; the triggering delta never reached the host.
    const ends = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant");
    expect(ends.map((f) => f.message.stopReason)).toEqual(["aborted", "stop"]);
    const deltas = frames.filter((f) => f.type === "message_update" && f.assistantMessageEvent.type === "text_delta").map((f) => f.assistantMessageEvent.delta);
    expect(deltas.join("")).not.toContain("word here");
    expect(frames.filter((f) => f.type === "agent_start")).toHaveLength(2);
    // Exactly two model calls; the second carries the rule and not the discarded partial reply.
    expect(calls().length - before).toBe(2);
    const retry = body(calls()[before + 1]);
    expect(retry).toContain("Never write the forbidden word");
    expect(retry).toContain('rule=\\"no-forbidden\\"');
    expect(retry).toContain("Say it");
    expect(retry).not.toContain("I will use forbidden_");
    // The injection is hidden: no message events for it, but it is in the live context.
    expect(frames.filter((f) => f.type === "message_start").map((f) => f.message.role)).toEqual(["user", "assistant", "assistant"]);
    const msgs = (await p.request({ type: "get_messages" })).data.messages as Frame[];
    expect(msgs.map((m) => m.role)).toEqual(["user", "custom", "assistant"]);
    expect(msgs[1]).toMatchObject({ customType: "ttsr-injection", display: false, details: { rules: ["no-forbidden"] } });
    // The file keeps the interrupted reply and the injection.
    const sessionFile = (await p.request({ type: "get_state" })).data.sessionFile as string;
    const entries = readFileSync(sessionFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(entries.some((e) => e.type === "message" && e.message.role === "assistant" && e.message.stopReason === "aborted")).toBe(true);
    expect(entries.some((e) => e.type === "custom_message" && e.customType === "ttsr-injection")).toBe(true);
  });
});

describe("TTSR rules", () => {
  it("a project rule scoped to a tool fires on streamed tool arguments; the tool never runs", async () => {
    let ruleFile = "";
    const p = await start("fake-openai", "fake-gpt", (_home, cwd) => {
      ruleFile = writeRule(path.join(cwd, ".pith", "rules"), "no-rm", BASH_RULE);
      mkdirSync(path.join(cwd, "build"));
      writeFileSync(path.join(cwd, "build", "keep.txt"), "still here\n");
    });
    const before = calls().length;
    llm.enqueue({ toolCalls: [{ id: "call_rm", name: "bash", arguments: { command: "rm -rf build && echo gone" } }], hang: true }, { text: "I will move it to trash instead." });
    const frames = await p.promptAndWait("Clean up");
    const triggered = frames.filter((f) => f.type === "ttsr_triggered");
    expect(triggered).toHaveLength(1);
    expect(triggered[0].rules[0]).toMatchObject({ name: "no-rm", scope: ["tool:bash"], _source: { level: "project", path: ruleFile } });
    // The cut call only gets the loop's synthetic "aborted" result: the command never ran.
    const toolEnds = frames.filter((f) => f.type === "tool_execution_end");
    expect(toolEnds.map((f) => [f.toolCallId, f.isError])).toEqual([["call_rm", true]]);
    expect(JSON.stringify(toolEnds[0].result)).toMatch(/aborted/);
    expect(existsSync(path.join(p.cwd, "build", "keep.txt"))).toBe(true);
    expect(calls().length - before).toBe(2);
    const retry = body(calls()[before + 1]);
    expect(retry).toContain("move them to trash");
    expect(retry).not.toContain("call_rm");
  });

  it("fires at most once per session (repeatMode once) and not when the pattern is absent", async () => {
    const p = await start("fake-openai", "fake-gpt", (home) => {
      writeRule(path.join(home, "rules"), "no-forbidden", PROSE_RULE);
    });
    llm.enqueue({ text: "A harmless reply." });
    const clean = await p.promptAndWait("hello");
    expect(clean.filter((f) => f.type === "ttsr_triggered")).toHaveLength(0);
    llm.enqueue({ text: ["forbidden_", "word"], hang: true }, { text: "ok" });
    const first = await p.promptAndWait("first");
    expect(first.filter((f) => f.type === "ttsr_triggered")).toHaveLength(1);
    const before = calls().length;
    llm.enqueue({ text: "forbidden_word again" });
    const second = await p.promptAndWait("second");
    expect(second.filter((f) => f.type === "ttsr_triggered")).toHaveLength(0);
    expect(second.find((f) => f.type === "agent_end")!.messages.at(-1).content[0].text).toBe("forbidden_word again");
    expect(calls().length - before).toBe(1);
  });

  it("a rule that fired stays fired after a restart with --session (repeatMode once)", async () => {
    const pithHome = tempDir("pith-home-");
    writeRule(path.join(pithHome, "rules"), "no-forbidden", PROSE_RULE);
    const args = ["--provider", "fake-openai", "--model", "fake-gpt"];
    const p1 = await Pith.start({ pithHome, modelsJson: fakeModelsJson(llm.url), args });
    open.push(p1);
    llm.enqueue({ text: ["forbidden_", "word"], hang: true }, { text: "ok" });
    const first = await p1.promptAndWait("first");
    expect(first.filter((f) => f.type === "ttsr_triggered")).toHaveLength(1);
    const sessionFile = (await p1.request({ type: "get_state" })).data.sessionFile as string;
    expect(await p1.close()).toBe(0);

    const p2 = await Pith.start({ pithHome, cwd: p1.cwd, modelsJson: fakeModelsJson(llm.url), args: [...args, "--session", sessionFile] });
    open.push(p2);
    const before = calls().length;
    llm.enqueue({ text: "forbidden_word after restart" });
    const second = await p2.promptAndWait("second");
    expect(second.filter((f) => f.type === "ttsr_triggered")).toHaveLength(0);
    expect(calls().length - before).toBe(1);
  });
});

describe("TTSR without interrupting", () => {
  it("a rule with interruptMode never lets the reply finish, then delivers the rule as a follow-up", async () => {
    const rule = ["---", 'condition: "forbidden_word"', "interruptMode: never", "---", "Avoid the forbidden word next time.", ""].join("\n");
    const p = await start("fake-openai", "fake-gpt", (home) => writeRule(path.join(home, "rules"), "gentle", rule));
    const before = calls().length;
    llm.enqueue({ text: ["I said ", "forbidden_word ", "once."] }, { text: "Noted." });
    const frames = await p.promptAndWait("Talk");
    expect(frames.filter((f) => f.type === "ttsr_triggered")).toHaveLength(0);
    const ends = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant");
    expect(ends.map((f) => f.message.stopReason)).toEqual(["stop", "stop"]);
    expect(ends[0].message.content[0].text).toBe("I said forbidden_word once.");
    expect(calls().length - before).toBe(2);
    const second = body(calls()[before + 1]);
    expect(second).toContain("Avoid the forbidden word next time.");
    expect(second).toContain("I said forbidden_word once.");
  });
});
