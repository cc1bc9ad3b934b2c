// A session's project trust: the port's state in get_state and for extensions, the grant refused
// while a run is in flight, and `reconfigure` (what a grant does to a running session): new
// settings, except what the host set by command, new built-in tools (the old ones disposed).
import { describe, expect, it } from "vitest";
import { sessionWiring } from "./session-wiring.js";
import { scriptedStream } from "../../test/support/agent.js";
import type { ProjectTrustReport } from "../shared/schema/index.js";
import type { Tool } from "../tools/types.js";
import { SessionTrust, type ProjectTrustPort } from "./session-trust.js";
import { testSession, testSettings } from "../../test/support/session.js";

function port(): ProjectTrustPort & { grants: boolean[] } {
  let trusted = false;
  const grants: boolean[] = [];
  const report = (): ProjectTrustReport => ({ folder: "/repo", trusted, source: trusted ? "host" : "default", found: [] });
  return {
    grants,
    state: () => ({ trusted, source: trusted ? "host" : "default" }),
    report: async () => report(),
    grant: async ({ persist }) => {
      grants.push(persist);
      trusted = true;
      return report();
    },
  };
}

describe("SessionTrust", () => {
  it("without a port: untrusted, nothing to grant", async () => {
    const t = new SessionTrust(undefined, "/repo", () => false);
    expect(t.state()).toEqual({ trusted: false, source: "default" });
    expect(await t.report()).toEqual({ folder: "/repo", trusted: false, source: "default", found: [] });
    await expect(t.grant({ persist: false })).rejects.toThrow(/cannot load a project layer/);
  });

  it("a grant is refused while a run is in flight, and passed on when idle", async () => {
    let busy = true;
    const p = port();
    const t = new SessionTrust(p, "/repo", () => busy);
    await expect(t.grant({ persist: true })).rejects.toMatchObject({ code: "busy" });
    expect(p.grants).toEqual([]);
    busy = false;
    expect(await t.grant({ persist: true })).toMatchObject({ trusted: true, source: "host" });
    expect(p.grants).toEqual([true]);
    expect(t.trusted).toBe(true);
  });
});

describe("AgentSession: trust state and reconfigure", () => {
  it("get_state.projectTrust follows the port", async () => {
    const p = port();
    const { session } = testSession({ stream: scriptedStream([]).stream, extra: { projectTrust: p } });
    expect(session.getState().projectTrust).toEqual({ trusted: false, source: "default" });
    await sessionWiring(session).trust.grant({ persist: false });
    expect(session.getState().projectTrust).toEqual({ trusted: true, source: "host" });
  });

  it("takes new settings but keeps the host's switches and permission keys; rebuilds the tools, disposing the old", async () => {
    const disposed: string[] = [];
    let round = 0;
    const tool = (name: string): Tool => ({ name, description: name, parameters: { type: "object" }, execute: async () => ({ content: [], details: {} }), dispose: async () => void disposed.push(name) }) as unknown as Tool;
    const { session } = testSession({
      stream: scriptedStream([]).stream,
      extra: { createTools: () => [tool(`tool-${round++}`)] },
      settings: testSettings((s) => (s.permissions = { mode: "ask", allow: [], ask: [], deny: ["bash(rm:*)"] })),
    });
    sessionWiring(session).modes.setSteeringMode("all");
    sessionWiring(session).modes.setAutoRetry(false);
    sessionWiring(session).permissions.set({ deny: ["bash(curl:*)"] });
    const next = testSettings((s) => {
      s.permissions = { mode: "allow", allow: ["bash"], ask: [], deny: [] };
      s.steeringMode = "one-at-a-time";
      s.retry.enabled = true;
      s.retry.maxRetries = 9;
      s.compaction.keepRecentTokens = 123;
    });
    await sessionWiring(session).reconfigure(next);
    const state = session.getState();
    expect(state.steeringMode).toBe("all");
    expect(state.autoRetryEnabled).toBe(false);
    expect(state.permissions).toMatchObject({ mode: "allow", allow: ["bash"], deny: ["bash(curl:*)"] });
    expect(sessionWiring(session).tools.active().map((t) => t.name)).toEqual(["tool-1"]);
    expect(disposed).toEqual(["tool-0"]);
  });
});
