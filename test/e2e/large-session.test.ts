// A session file opened from disk is indexed, not held; every command that reads
// old entries must still answer exactly what a full parse of the file gives. Generated files
// (branches, labels, compactions, custom entries, damaged and torn lines), opened with
// switch_session in the built CLI; the expectations come from the full-parse path in-process.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../src/store/session-store.js";
import { buildSessionContext } from "../../src/store/build-context.js";
import { buildTree, selectEntries } from "../../src/store/entry-views.js";
import { branchParts } from "../../src/store/branching.js";
import { buildSession, sessionOps } from "../support/random-session.js";
import { writeLargeSession } from "../../bench/lib/large-session-pith.js";
import { trackPiths, useFakeLlm, Pith, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}
async function ok(p: Pith, cmd: Frame): Promise<any> {
  const res = await p.request(cmd, 60_000);
  expect(res.success, `${cmd.type}: ${res.error}`).toBe(true);
  return res.data;
}
/** What went over the wire: JSON, so undefined fields are gone. */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const fullParse = (file: string) => SessionStore.open(file, { cwd: "/", readOnly: true, index: false });

/** Copies of a derived session's entries as branching writes them: labels get fresh ids and times. */
const comparable = (entries: readonly Frame[]) => entries.map((e) => (e.type === "label" ? { type: "label", targetId: e.targetId, label: e.label } : e));

async function expectSameAsFullParse(p: Pith, file: string): Promise<void> {
  expect(await ok(p, { type: "switch_session", sessionPath: file })).toEqual({ cancelled: false });
  const full = fullParse(file);
  const ctx = buildSessionContext(full);

  expect((await ok(p, { type: "get_messages" })).messages).toEqual(wire(ctx.messages));
  const paged: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok(p, { type: "get_messages_page", cursor, limit: 100 });
    paged.push(...page.messages);
    cursor = page.nextCursor;
  } while (cursor);
  expect(paged).toEqual(wire(ctx.messages));

  const all = full.entries();
  expect(await ok(p, { type: "get_entries" })).toEqual(wire(selectEntries(full)));
  for (const since of [all[0]?.id, all[Math.floor(all.length / 2)]?.id, all[all.length - 1]?.id].filter((x): x is string => x !== undefined)) {
    expect(await ok(p, { type: "get_entries", since })).toEqual(wire(selectEntries(full, since)));
  }
  expect(await ok(p, { type: "get_tree" })).toEqual(wire({ tree: buildTree(full), leafId: full.leafId }));
  expect((await ok(p, { type: "get_branch_messages" })).messages).toEqual(wire(full.userMessageEntries()));

  const out = path.join(tempDir("pith-export-"), "page.html");
  await ok(p, { type: "export_html", outputPath: out });
  const block = /<script type="application\/json" id="session-data">([^<]*)<\/script>/.exec(fs.readFileSync(out, "utf8"));
  const data = JSON.parse(Buffer.from(block![1], "base64").toString("utf8"));
  expect({ header: data.header, entries: data.entries, leafId: data.leafId }).toEqual(wire({ header: full.header, entries: all, leafId: full.leafId }));

  // branch and fork from old user messages: the new file holds the path read from disk
  const users = full.userMessageEntries();
  for (const [command, pick] of [["branch", users[1]], ["fork", users[Math.floor(users.length / 2)]]] as const) {
    if (!pick) continue;
    await ok(p, { type: "switch_session", sessionPath: file });
    const { parts, text } = branchParts(full, pick.entryId);
    expect(await ok(p, { type: command, entryId: pick.entryId })).toEqual({ text, cancelled: false });
    const state = await ok(p, { type: "get_state" });
    expect(state.sessionFile).not.toBe(file);
    const written: readonly unknown[] = parts.writeNow ? fullParse(state.sessionFile).entries() : [];
    expect(comparable(wire(written as Frame[]))).toEqual(comparable(wire(parts.entries as unknown as Frame[])));
  }
  full.close();
}

describe("large sessions are indexed: old entries read back exactly", () => {
  it("a generated tool-using session with compactions and damaged lines", async () => {
    const file = path.join(tempDir("pith-large-"), "large.jsonl");
    writeLargeSession(file, { turns: 200, compactEvery: 50, cwd: "/tmp", damageEvery: 37 });
    const before = fs.readFileSync(file);
    const p = await start();
    await expectSameAsFullParse(p, file);
    expect(fs.readFileSync(file).equals(before)).toBe(true); // opening and reading never writes
  }, 180_000);

  it("random trees: branches, labels, names, custom entries, other key orders, duplicates, damaged and torn lines", async () => {
    const p = await start();
    const samples = fc.sample(fc.tuple(sessionOps(120), fc.constantFrom("lf" as const, "no-lf" as const, "torn" as const)), { seed: 19, numRuns: 4 });
    for (const [ops, ending] of samples) {
      const file = path.join(tempDir("pith-random-"), "s.jsonl");
      fs.writeFileSync(file, buildSession(ops, ending).text);
      await expectSameAsFullParse(p, file);
    }
  }, 180_000);
});
