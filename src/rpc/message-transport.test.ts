// The front door over a message transport (one frame per message, as `pith serve` uses it).
import { describe, expect, it } from "vitest";
import { scriptedStream } from "../../test/support/agent.js";
import { testSession } from "../../test/support/session.js";
import { createJsonlStorage } from "../session/index.js";
import { createMemoryTransport } from "../transport/index.js";
import { RpcServer } from "./server.js";

function start() {
  const { stream } = scriptedStream([{ steps: [{ text: "hi" }] }]);
  const built = testSession({ stream });
  const { transport, host } = createMemoryTransport();
  const server = new RpcServer(built.session, transport, {
    log: () => undefined,
    wire: { transport: "websocket", maxMessageBytes: 1234 },
    sessionFactory: { create: async () => testSession({ stream, sessionDir: built.sessionDir }).session },
  });
  server.ready("test");
  void server.serve();
  return { ...built, host, server };
}

describe("RpcServer over a message transport", () => {
  it("says so in ready and offers only protocol version 1", async () => {
    const { host } = start();
    const ready = await host.waitFor((f) => f.type === "ready");
    expect(ready).toMatchObject({ protocolVersion: 1, supportedProtocolVersions: [1], transport: "websocket", maxMessageBytes: 1234 });
    expect(ready.maxFrameBytes).toBeUndefined();
    expect(ready.capabilities).not.toContain("protocol_v2");
    host.send({ id: "n", type: "negotiate_protocol", protocolVersion: 2 });
    const answer = await host.waitFor((f) => f.type === "response" && f.id === "n");
    expect(answer).toMatchObject({ success: false, error: expect.stringContaining("not offered over this transport") });
  });

  it("on disconnect closes and unlocks every session, the first one too", async () => {
    const { host, server, session } = start();
    host.send({ id: "c", type: "create_session" });
    const created = await host.waitFor((f) => f.type === "response" && f.id === "c");
    expect(created.success).toBe(true);
    host.send({ id: "p", type: "prompt", message: "hello" });
    await host.waitFor((f) => f.type === "agent_end");
    const file = session.sessionFile!;
    expect(() => createJsonlStorage().open(file, { cwd: session.cwd })).toThrow(/locked/);
    await server.disconnect();
    await server.disconnect();
    const reopened = createJsonlStorage().open(file, { cwd: session.cwd });
    expect(reopened.entryCount).toBeGreaterThan(1);
    reopened.close();
    host.send({ id: "s", type: "get_state" });
    expect(await host.waitFor((f) => f.type === "response" && f.id === "s")).toMatchObject({ success: false, code: "unknown_session" });
  });
});
