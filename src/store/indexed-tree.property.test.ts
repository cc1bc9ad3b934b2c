// The indexed load answers every read exactly like a full parse of the same file, on random
// trees with branches, labels, names, compactions, custom entries and damaged lines.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { buildTree, selectEntries } from "./entry-views.js";
import { buildSession, sessionOps, type SessionOp } from "../../test/support/random-session.js";
import { tmpDir } from "../../test/support/store.js";
import { user, assistant } from "../../test/support/store.js";

const dir = tmpDir("pith-idx-prop-");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;

function write(text: string): string {
  const file = path.join(dir, `s${fileNo++}.jsonl`);
  fs.writeFileSync(file, text);
  return file;
}

const open = (file: string, index: boolean) => SessionStore.open(file, { cwd: "/w", readOnly: true, index });

/** Every read the session makes, compared; `probe` ids include unknown and damaged ones. */
function expectSameReads(indexed: SessionStore, full: SessionStore, probe: readonly string[], exactWarnings: boolean): void {
  // first what opening does (the context), before anything forces a read of the whole file
  expect(buildSessionContext(indexed)).toEqual(buildSessionContext(full));
  expect(indexed.leafId).toBe(full.leafId);
  expect(indexed.name).toBe(full.name);
  expect(indexed.header).toEqual(full.header);
  for (const id of probe) {
    expect(indexed.branch(id)).toEqual(full.branch(id));
    expect(indexed.getEntry(id)).toEqual(full.getEntry(id));
    expect(indexed.getLabel(id)).toBe(full.getLabel(id));
    expect(indexed.entriesAfter(id)).toEqual(full.entriesAfter(id));
  }
  expect(indexed.branch()).toEqual(full.branch());
  for (const onBranch of [false, true]) {
    for (const [type, customType] of [["custom", "pith.checkpoint"], ["custom", "pith:permission_allow"], ["custom_message", "ttsr-injection"], ["custom_message", "note"]] as const) {
      expect(indexed.customEntries(type, customType, onBranch)).toEqual(full.customEntries(type, customType, onBranch));
    }
  }
  expect(indexed.userMessageEntries()).toEqual(full.userMessageEntries());
  expect(indexed.entries()).toEqual(full.entries());
  expect(selectEntries(indexed)).toEqual(selectEntries(full));
  expect(buildTree(indexed)).toEqual(buildTree(full));
  expect(indexed.entryCount).toBe(full.entryCount);
  expect(indexed.skippedEntries).toBe(full.skippedEntries);
  if (exactWarnings) expect(indexed.warnings).toEqual(full.warnings);
}

describe("indexed session load vs full parse", () => {
  it("answers every read the same on random files", () => {
    fc.assert(
      fc.property(sessionOps(), fc.constantFrom("lf" as const, "no-lf" as const, "torn" as const), (ops, ending) => {
        const built = buildSession(ops, ending);
        const file = write(built.text);
        const indexed = open(file, true);
        // a line only reading can find damaged must have been read before the answers agree
        // everywhere (see "lazily found damage" in indexed-tree.test.ts for what the context sees first)
        if (built.lazyDamage) indexed.entries();
        const full = open(file, false);
        expectSameReads(indexed, full, [...built.ids, "missing"], !built.lazyDamage);
      }),
      { numRuns: 300, examples: [[[{ kind: 12, pick: 0, n: 1 }, { kind: 15, pick: 0, n: 0 }], "lf"]] },
    );
  });

  it("keeps answering the same after appends and tree navigation, and after reopening", () => {
    fc.assert(
      fc.property(sessionOps(40), fc.nat(1000), (ops, pick) => {
        appendsAndReopen(ops, pick);
      }),
      {
        numRuns: 80,
        examples: [
          [[{ kind: 0, pick: 0, n: 0 }, { kind: 0, pick: 0, n: 0 }, { kind: 0, pick: 0, n: 0 }, { kind: 1, pick: 0, n: 0 }, { kind: 12, pick: 0, n: 0 }, { kind: 0, pick: 0, n: 0 }, { kind: 5, pick: 17, n: 0 }, { kind: 0, pick: 0, n: 0 }], 430],
          [[{ kind: 13, pick: 0, n: 0 }, { kind: 15, pick: 0, n: 0 }], 0],
          [[{ kind: 0, pick: 0, n: 0 }, { kind: 16, pick: 0, n: 0 }, { kind: 16, pick: 0, n: 0 }, { kind: 0, pick: 0, n: 0 }, { kind: 15, pick: 0, n: 0 }, { kind: 0, pick: 0, n: 0 }], 127],
        ],
      },
    );
  });
});

function appendsAndReopen(ops: SessionOp[], pick: number): void {
  {
    {
        const built = buildSession(ops);
        const file = write(built.text);
        const live = SessionStore.open(file, { cwd: "/w", index: true });
        if (built.lazyDamage) live.entries();
        buildSessionContext(live);
        live.appendMessage(user("after open"));
        live.appendMessage(assistant("reply"));
        const target = built.ids.length > 0 ? built.ids[pick % built.ids.length] : undefined;
        if (target && live.getEntry(target)) {
          live.moveLeaf(target);
          buildSessionContext(live);
          live.append({ type: "label", targetId: target, label: "picked" });
          live.appendMessage(user("on a branch"));
        }
        live.append({ type: "session_info", name: "renamed" });
        const full = open(file, false);
        expect(buildSessionContext(live)).toEqual(buildSessionContext(full));
        expect(live.entries()).toEqual(full.entries());
        expect(live.branch()).toEqual(full.branch());
        expect(live.leafId).toBe(full.leafId);
        expect(live.name).toBe(full.name);
        live.close();
        const reopened = open(file, true);
        if (built.lazyDamage) reopened.entries();
        expectSameReads(reopened, open(file, false), [...built.ids, "missing"], !built.lazyDamage);
    }
  }
}
