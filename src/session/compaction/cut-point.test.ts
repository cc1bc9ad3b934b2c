import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../shared/types.js";
import { INTERRUPTED_TOOL_TEXT, convertToLlm } from "../convert-to-llm.js";
import { findCutPoint, isTurnStart, type CompactionItem } from "./cut-point.js";
import { assistant, bash, call, custom, result, user } from "../../../test/support/compaction.js";
import { estimateTokens } from "./tokens.js";
import { mulberry32 } from "../../../test/support/random.js";


function generateHistory(seed: number): CompactionItem[] {
  const rand = mulberry32(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const text = () => "x".repeat(int(rand() < 0.1 ? 20_000 : 2_000));
  const messages: AgentMessage[] = [];
  let callNo = 0;
  const turns = 1 + int(25);
  for (let t = 0; t < turns; t++) {
    const opener = int(10);
    if (opener < 6) messages.push(user(text()));
    else if (opener < 8) messages.push(custom(text()));
    else messages.push(bash("make", text()));
    const replies = int(4);
    for (let r = 0; r < replies; r++) {
      const calls = Array.from({ length: int(4) }, () => call(`s${seed}c${callNo++}`));
      messages.push(assistant([{ type: "text", text: text() }, ...calls]));
      for (const c of calls) messages.push(result(c.id, text()));
    }
  }
  return messages.map((message, i) => ({ id: `e${i}`, message }));
}

function callIds(m: AgentMessage): string[] {
  return m.role === "assistant" ? m.content.flatMap((c) => (c.type === "toolCall" ? [c.id] : [])) : [];
}

function suffixTokens(items: CompactionItem[]): number[] {
  const suffix = new Array<number>(items.length + 1).fill(0);
  for (let i = items.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + estimateTokens(items[i].message);
  return suffix;
}

/** Pairing violations between the summarised and the kept part (empty = none). */
function pairingProblems(summarised: AgentMessage[], kept: AgentMessage[]): string[] {
  const problems: string[] = [];
  const keptCalls = new Set(kept.flatMap(callIds));
  const summarisedCalls = new Set(summarised.flatMap(callIds));
  for (const m of kept) if (m.role === "toolResult" && !keptCalls.has(m.toolCallId)) problems.push(`orphan kept result ${m.toolCallId}`);
  for (const m of summarised) {
    if (m.role === "toolResult" && !summarisedCalls.has(m.toolCallId)) problems.push(`summarised result without its call ${m.toolCallId}`);
  }
  const keptResults = new Set(kept.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
  for (const id of keptCalls) if (!keptResults.has(id)) problems.push(`dangling kept call ${id}`);
  // What the model will be sent from the kept part needs no repair.
  for (const m of convertToLlm(kept)) {
    if (m.role === "toolResult" && m.content.some((c) => c.type === "text" && c.text === INTERRUPTED_TOOL_TEXT)) problems.push("repair needed");
  }
  return problems;
}

function checkCut(items: CompactionItem[], keep: number, seed: number): void {
  const suffix = suffixTokens(items);
  const cut = findCutPoint(items, keep);
  const ctx = `seed ${seed}, keep ${keep}`;
  if (!cut) {
    // Nothing to summarise: the history is within budget, or no valid cut point lies before the crossing.
    let crossing = -1;
    for (let i = items.length - 1; i >= 0 && crossing < 0; i--) if (suffix[i] >= keep) crossing = i;
    const validBefore = items.slice(1, Math.max(crossing + 1, 1)).some((i) => i.message.role !== "toolResult");
    expect(crossing <= 0 || !validBefore, ctx).toBe(true);
    return;
  }
  const k = cut.firstKeptIndex;
  expect(k, ctx).toBeGreaterThan(0);
  expect(items[k].message.role, ctx).not.toBe("toolResult");
  const problems = pairingProblems(
    items.slice(0, k).map((i) => i.message),
    items.slice(k).map((i) => i.message),
  );
  if (problems.length > 0) expect(problems, ctx).toEqual([]);
  // At least the budget is kept, and at most one block (a reply + its results, or one message) more.
  expect(suffix[k], ctx).toBeGreaterThanOrEqual(keep);
  let next = k + 1;
  while (next < items.length && items[next].message.role === "toolResult") next++;
  expect(suffix[next], ctx).toBeLessThan(keep);
  // A split turn names the nearest turn opener before the cut.
  if (cut.splitTurn) {
    expect(items[k].message.role, ctx).toBe("assistant");
    const start = cut.turnStartIndex as number;
    expect(isTurnStart(items[start].message), ctx).toBe(true);
    for (let i = start + 1; i < k; i++) expect(isTurnStart(items[i].message), ctx).toBe(false);
  } else if (items[k].message.role === "assistant") {
    expect(items.slice(0, k).some((i) => isTurnStart(i.message)), ctx).toBe(false);
  }
}

describe("findCutPoint (randomised)", () => {
  it("keeps pairs together and the kept size within [budget, budget + one block] over 3,000 histories", () => {
    const budgets = [1, 500, 2_000, 8_000, 20_000];
    let cuts = 0;
    let splits = 0;
    for (let seed = 1; seed <= 3_000; seed++) {
      const items = generateHistory(seed);
      const keep = budgets[seed % budgets.length];
      checkCut(items, keep, seed);
      const cut = findCutPoint(items, keep);
      if (cut) cuts++;
      if (cut?.splitTurn) splits++;
    }
    // The generator must actually exercise both outcomes.
    expect(cuts).toBeGreaterThan(1_000);
    expect(splits).toBeGreaterThan(100);
  });
});

describe("findCutPoint (cases)", () => {
  const items = (...messages: AgentMessage[]) => messages.map((message, i) => ({ id: `e${i}`, message }));

  it("returns undefined when the whole history fits the budget", () => {
    expect(findCutPoint(items(user("a".repeat(40)), assistant("b".repeat(40))), 1_000)).toBeUndefined();
    expect(findCutPoint([], 10)).toBeUndefined();
  });

  it("never cuts on a tool result: it backs up to the assistant that made the call", () => {
    const h = items(user("x".repeat(400)), assistant([call("a")]), result("a", "y".repeat(4000)), assistant("done"));
    expect(findCutPoint(h, 900)).toEqual({ firstKeptIndex: 1, splitTurn: true, turnStartIndex: 0 });
  });

  it("a cut on a turn opener is not a split turn", () => {
    const h = items(user("x".repeat(4000)), assistant("y".repeat(4000)), user("z".repeat(4000)), assistant("w".repeat(40)));
    expect(findCutPoint(h, 1_000)).toEqual({ firstKeptIndex: 2, splitTurn: false });
  });

  it("a turn that started before the window is summarised as plain history", () => {
    const h = items(assistant("x".repeat(4000)), result("orphan"), assistant("y".repeat(4000)), assistant("z".repeat(4000)));
    expect(findCutPoint(h, 1_500)).toEqual({ firstKeptIndex: 2, splitTurn: false });
  });
});
