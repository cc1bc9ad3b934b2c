import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../shared/types.js";
import { appendFileLists, collectFileOperations, FILE_LIST_CAP } from "./file-ops.js";
import { adaptiveKeepBudget, prepareCompaction } from "./prepare.js";
import { assistant, call, result, usage, user } from "../../../test/support/compaction.js";

const items = (...messages: AgentMessage[]) => messages.map((message, i) => ({ id: `e${i}`, message }));
const big = (c: string) => c.repeat(4000); // 1,000 tokens

describe("prepareCompaction", () => {
  it("splits history / kept at the cut and reports the entry id and size", () => {
    const h = items(user(big("a")), assistant(big("b")), user(big("c")), assistant(big("d")));
    const prep = prepareCompaction(h, undefined, { keepRecentTokens: 1500 });
    expect(prep).toMatchObject({ firstKeptEntryId: "e2", splitTurn: false, tokensBefore: 4000, turnPrefixMessages: [] });
    expect(prep?.messagesToSummarize).toEqual([h[0].message, h[1].message]);
    expect(prep?.keptMessages).toEqual([h[2].message, h[3].message]);
    expect(prep?.previousSummary).toBeUndefined();
  });

  it("gives a split turn's prefix separately from the history before it", () => {
    const h = items(user(big("a")), assistant(big("b")), user("go"), assistant([call("r1")]), result("r1", big("r")), assistant(big("e")));
    const prep = prepareCompaction(h, undefined, { keepRecentTokens: 900 });
    expect(prep?.splitTurn).toBe(true);
    expect(prep?.firstKeptEntryId).toBe("e5");
    expect(prep?.messagesToSummarize).toEqual([h[0].message, h[1].message]);
    expect(prep?.turnPrefixMessages).toEqual([h[2].message, h[3].message, h[4].message]);
    expect(prep?.keptMessages).toEqual([h[5].message]);
  });

  it("returns undefined when there is nothing to summarise", () => {
    expect(prepareCompaction(items(user("hi"), assistant("hello")), undefined, { keepRecentTokens: 20_000 })).toBeUndefined();
  });

  it("updates a previous compaction: its summary, kept messages and file lists", () => {
    const summary: AgentMessage = { role: "compactionSummary", summary: "## Goal\nold", tokensBefore: 1, timestamp: 1 };
    const h = [
      { id: "c0", message: summary },
      ...items(user(big("a")), assistant([call("w", "write", { path: "/src/new.ts", content: "x" })]), result("w"), user(big("c")), assistant("ok")),
    ];
    const prep = prepareCompaction(h, { details: { readFiles: ["/README.md", "/src/new.ts"], modifiedFiles: ["/old.ts"] } }, { keepRecentTokens: 900 });
    expect(prep?.previousSummary).toBe("## Goal\nold");
    expect(prep?.messagesToSummarize.some((m) => m.role === "compactionSummary")).toBe(false);
    expect(prep?.messagesToSummarize[0]).toBe(h[1].message);
    expect(prep?.fileOperations).toEqual({ readFiles: ["/README.md"], modifiedFiles: ["/old.ts", "/src/new.ts"] });
    const explicit = prepareCompaction(h, { summary: "given" }, { keepRecentTokens: 900 });
    expect(explicit?.previousSummary).toBe("given");
  });

  it("shrinks the keep budget when the provider measured more than the estimate", () => {
    const h: AgentMessage[] = [user(big("a")), assistant("x", { usage: usage(3000, 5) }), user(big("c"))];
    expect(adaptiveKeepBudget(h, 20_000)).toBe(Math.floor(20_000 / 3));
    const under: AgentMessage[] = [user(big("a")), assistant("x", { usage: usage(500) })];
    expect(adaptiveKeepBudget(under, 20_000)).toBe(20_000);
    expect(adaptiveKeepBudget([user("a")], 20_000)).toBe(20_000);
    const prep = prepareCompaction(items(...h), undefined, { keepRecentTokens: 1800 });
    expect(prep?.keepRecentTokens).toBe(600);
    expect(prep?.tokensBefore).toBe(3005 + 1000);
  });
});

describe("file operations", () => {
  it("collects read and modified paths; a modified file is not listed as read", () => {
    const ops = collectFileOperations([
      assistant([call("1", "read", { path: "/b" }), call("2", "read", { path: "/a" }), call("3", "edit", { path: "/b" })]),
      assistant([call("4", "write", { file_path: "/c" }), call("5", "bash", { command: "rm -rf /" }), call("6", "read", {})]),
    ]);
    expect(ops).toEqual({ readFiles: ["/a"], modifiedFiles: ["/b", "/c"] });
  });

  it("appends capped file tags, replacing earlier ones", () => {
    const many = Array.from({ length: FILE_LIST_CAP + 3 }, (_, i) => `/f${String(i).padStart(2, "0")}`);
    const once = appendFileLists("summary", { readFiles: many, modifiedFiles: ["/m"] });
    expect(once).toContain("<read-files>\n/f00\n");
    expect(once).toContain("… (3 more files omitted)\n</read-files>");
    expect(once).not.toContain("/f22");
    expect(once.endsWith("<modified-files>\n/m\n</modified-files>")).toBe(true);
    const twice = appendFileLists(once, { readFiles: [], modifiedFiles: ["/z"] });
    expect(twice).toBe("summary\n\n<modified-files>\n/z\n</modified-files>");
  });
});
