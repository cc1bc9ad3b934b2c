// SessionPermissions.follow: a subagent judges by its parent's mode and rules, live, and records
// "Allow always" in the parent's session file.
import { describe, expect, it } from "vitest";
import { ALLOW_ALWAYS_ENTRY, SessionPermissions } from "./session-permissions.js";
import type { SessionLog } from "../store/session-log.js";

/** A session log holding only what SessionPermissions reads and writes: custom entries. */
function fakeLog() {
  const appended: Array<{ type: string; customType?: string; data?: unknown }> = [];
  const log = {
    customEntries: () => appended,
    append: (entry: { type: string; customType?: string; data?: unknown }) => void appended.push(entry),
  } as unknown as SessionLog;
  return { log, appended };
}

describe("SessionPermissions.follow", () => {
  it("a follower judges by its parent's mode and rules, also after they change", () => {
    const parentLog = fakeLog();
    const parent = new SessionPermissions({ mode: "allow", allow: [], ask: [], deny: [] }, () => parentLog.log, () => undefined);
    const sub = new SessionPermissions({ mode: "allow", allow: [], ask: [], deny: ["bash(rm:*)"] }, () => fakeLog().log, () => undefined);
    sub.follow(parent);
    expect(sub.inactive).toBe(true); // the parent's state, not the follower's own settings
    parent.set({ mode: "ask-writes", deny: ["write(./secret)"] });
    expect(sub.mode).toBe("ask-writes");
    expect(sub.inactive).toBe(false);
    expect(sub.rules()).toEqual({ allow: [], ask: [], deny: ["write(./secret)"] });
    expect(sub.state()).toEqual(parent.state());
  });

  it("an \"Allow always\" answered in a follower is the parent's, written to the parent's file", () => {
    const parentLog = fakeLog();
    const subLog = fakeLog();
    const parent = new SessionPermissions({ mode: "ask", allow: [], ask: [], deny: [] }, () => parentLog.log, () => undefined);
    const first = new SessionPermissions(undefined, () => subLog.log, () => undefined);
    const nested = new SessionPermissions(undefined, () => fakeLog().log, () => undefined);
    first.follow(parent);
    nested.follow(first);
    nested.recordAllow(["bash(npm test)"]);
    expect(parentLog.appended).toEqual([{ type: "custom", customType: ALLOW_ALWAYS_ENTRY, data: { rules: ["bash(npm test)"] } }]);
    expect(subLog.appended).toEqual([]);
    expect(parent.rules().allow).toEqual(["bash(npm test)"]);
    expect(first.rules().allow).toEqual(["bash(npm test)"]);
    // a later subagent of the same parent has it too
    const later = new SessionPermissions(undefined, () => fakeLog().log, () => undefined);
    later.follow(parent);
    expect(later.rules().allow).toEqual(["bash(npm test)"]);
  });
});
