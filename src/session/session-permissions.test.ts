// SessionPermissions: "Allow always" grants come from the user's grant store, never from the
// session file (an old `pith:permission_allow` entry grants nothing and is reported once per
// open); a subagent judges by its parent's mode and rules, live, and grants through the parent's
// store; `set_permissions` can replace (revoke) the grants.
import { describe, expect, it } from "vitest";
import { ALLOW_ALWAYS_ENTRY, memoryGrantStore, SessionPermissions, type GrantStore } from "./session-permissions.js";
import type { SessionLog } from "../store/session-log.js";

/** A session log holding only what SessionPermissions reads: custom entries. */
function fakeLog(entries: Array<{ type: string; customType?: string; data?: unknown }> = [], path = "/s/shared.jsonl") {
  const appended = [...entries];
  const log = {
    path,
    customEntries: (_type: string, customType: string) => appended.filter((e) => e.customType === customType),
    append: (entry: { type: string; customType?: string; data?: unknown }) => void appended.push(entry),
  } as unknown as SessionLog;
  return { log, appended };
}

/** A store that records what it was asked to keep. */
function recordingStore(initial: string[] = []): GrantStore & { kept: string[][] } {
  const inner = memoryGrantStore(initial);
  const kept: string[][] = [];
  return { kept, location: "/home/u/.pith/grants.json", load: inner.load, add: (r) => (kept.push([...r]), inner.add(r)), replace: (r) => (kept.push([...r]), inner.replace(r)) };
}

const ANY = { mode: "ask" as const, allow: [], ask: [], deny: [] };

describe("SessionPermissions: grants", () => {
  it("a session file's pith:permission_allow entries grant nothing; each open warns once", () => {
    const warnings: string[] = [];
    const file = fakeLog([
      { type: "custom", customType: ALLOW_ALWAYS_ENTRY, data: { rules: ["bash"] } },
      { type: "custom", customType: ALLOW_ALWAYS_ENTRY, data: { rules: ["edit(**)"] } },
    ]);
    const p = new SessionPermissions(ANY, () => file.log, (m) => warnings.push(m), recordingStore());
    expect(p.rules().allow).toEqual([]);
    expect(p.state().sessionAllow).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ignored 2 "Allow always" entries (pith:permission_allow) in /s/shared.jsonl: a session file grants nothing');
    p.reload(); // switch_session back to it
    expect(warnings).toHaveLength(2);
    expect(p.rules().allow).toEqual([]);
  });

  it("the project's grants are in force and shown with where they are kept", () => {
    const p = new SessionPermissions({ ...ANY, allow: ["read"] }, () => fakeLog().log, () => undefined, recordingStore(["bash(npm test)"]));
    expect(p.rules().allow).toEqual(["read", "bash(npm test)"]);
    expect(p.state()).toMatchObject({ sessionAllow: ["bash(npm test)"], grantsFile: "/home/u/.pith/grants.json" });
    expect(p.inactive).toBe(false);
  });

  it("Allow always is kept in the store, not in the session file; reload reads the store again", () => {
    const store = recordingStore();
    const file = fakeLog();
    const p = new SessionPermissions(ANY, () => file.log, () => undefined, store);
    p.recordAllow(["bash(git status:*)", "edit(./a.ts)"]);
    p.recordAllow(["edit(./a.ts)"]);
    expect(store.kept).toEqual([["bash(git status:*)", "edit(./a.ts)"]]);
    expect(file.appended).toEqual([]);
    store.replace([]); // revoked elsewhere (another process, by hand)
    p.reload();
    expect(p.rules().allow).toEqual([]);
  });

  it("a store that cannot keep a grant: it holds for this session, with a warning", () => {
    const warnings: string[] = [];
    const store: GrantStore = {
      load: () => [],
      add: () => {
        throw new Error("grants.json cannot be read as grants, so pith does not rewrite it");
      },
      replace: () => undefined,
    };
    const p = new SessionPermissions(ANY, () => fakeLog().log, (m) => warnings.push(m), store);
    p.recordAllow(["bash(ls:*)"]);
    expect(p.rules().allow).toEqual(["bash(ls:*)"]);
    expect(warnings).toEqual(['pith: "Allow always" holds for this session only: grants.json cannot be read as grants, so pith does not rewrite it']);
  });

  it("set_permissions sessionAllow replaces the grants where they are kept; a bad rule changes nothing", () => {
    const store = recordingStore(["bash(a)", "bash(b)"]);
    const p = new SessionPermissions(ANY, () => fakeLog().log, () => undefined, store);
    expect(() => p.set({ sessionAllow: ["bash(a)", "edit(src/**"] })).toThrow('rules.sessionAllow[1]: rule "edit(src/**": missing ")" at the end');
    expect(store.load()).toEqual(["bash(a)", "bash(b)"]);
    expect(p.set({ sessionAllow: ["bash(a)"] }).sessionAllow).toEqual(["bash(a)"]);
    expect(p.set({ sessionAllow: [] }).sessionAllow).toEqual([]);
    expect(store.load()).toEqual([]);
    expect(p.rules().allow).toEqual([]);
  });
});

describe("SessionPermissions.follow", () => {
  it("a follower judges by its parent's mode and rules, also after they change", () => {
    const parent = new SessionPermissions({ mode: "allow", allow: [], ask: [], deny: [] }, () => fakeLog().log, () => undefined);
    const sub = new SessionPermissions({ mode: "allow", allow: [], ask: [], deny: ["bash(rm:*)"] }, () => fakeLog().log, () => undefined);
    sub.follow(parent);
    expect(sub.inactive).toBe(true); // the parent's state, not the follower's own settings
    parent.set({ mode: "ask-writes", deny: ["write(./secret)"] });
    expect(sub.mode).toBe("ask-writes");
    expect(sub.inactive).toBe(false);
    expect(sub.rules()).toEqual({ allow: [], ask: [], deny: ["write(./secret)"] });
    expect(sub.state()).toEqual(parent.state());
  });

  it('an "Allow always" answered in a follower is granted through the parent\'s store', () => {
    const parentStore = recordingStore();
    const subStore = recordingStore();
    const subLog = fakeLog();
    const parent = new SessionPermissions(ANY, () => fakeLog().log, () => undefined, parentStore);
    const first = new SessionPermissions(undefined, () => subLog.log, () => undefined, subStore);
    const nested = new SessionPermissions(undefined, () => fakeLog().log, () => undefined, recordingStore());
    first.follow(parent);
    nested.follow(first);
    nested.recordAllow(["bash(npm test)"]);
    expect(parentStore.kept).toEqual([["bash(npm test)"]]);
    expect(subStore.kept).toEqual([]);
    expect(subLog.appended).toEqual([]);
    expect(parent.rules().allow).toEqual(["bash(npm test)"]);
    expect(first.rules().allow).toEqual(["bash(npm test)"]);
    // a later subagent of the same parent has it too
    const later = new SessionPermissions(undefined, () => fakeLog().log, () => undefined);
    later.follow(parent);
    expect(later.rules().allow).toEqual(["bash(npm test)"]);
  });
});
