// The session's typed operations: every protocol command is either a session operation with an
// entry in the one table, or front-door work, never both and never neither; `handle` answers
// operations through the same parts the facade uses.
import { describe, expect, it } from "vitest";
import { scriptedStream, type Reply } from "../../test/support/agent.js";
import { testSession } from "../../test/support/session.js";
import { COMMAND_TYPES } from "../protocol/index.js";
import { operationTable, type OperationParts } from "./operation-table.js";
import { FRONT_DOOR_OP_TYPES, isSessionOpType, type SessionOp } from "./operations.js";

const text = (t: string): Reply => ({ steps: [{ text: t }] });

describe("session operations", () => {
  it("splits every command type between the session's table and the front doors", () => {
    const table = operationTable({} as OperationParts);
    const sessionTypes = COMMAND_TYPES.filter(isSessionOpType);
    expect(Object.keys(table).sort()).toEqual([...sessionTypes].sort());
    for (const type of FRONT_DOOR_OP_TYPES) {
      expect(COMMAND_TYPES).toContain(type);
      expect(Object.keys(table)).not.toContain(type);
    }
    expect(sessionTypes.length + FRONT_DOOR_OP_TYPES.length).toBe(COMMAND_TYPES.length);
  });

  it("handle answers operations with their typed results through the session's parts", async () => {
    const { stream } = scriptedStream([text("first answer")]);
    const { session } = testSession({ stream });
    await session.handle({ type: "set_session_name", name: "ops" });
    const state = await session.handle({ type: "get_state" });
    expect(state.sessionName).toBe("ops");
    expect(state.fileCheckpoints).toEqual(expect.objectContaining({ enabled: false }));

    const handle = await session.handle({ type: "prompt", message: "hello", id: "p1" });
    await handle.accepted;
    await handle.done;
    expect(await handle.outcome).toEqual(expect.objectContaining({ status: "completed", agentInvoked: true }));
    expect(await session.handle({ type: "get_last_assistant_text" })).toEqual({ text: "first answer" });
    const page = await session.handle({ type: "get_messages_page", limit: 1 });
    expect(page.totalMessages).toBe(2);
    expect(page.messages).toHaveLength(1);
    await session.close();
  });

  it("rejects a bad operation with the error a front door writes, and a front-door type", async () => {
    const { stream } = scriptedStream([]);
    const { session } = testSession({ stream });
    await expect(session.handle({ type: "set_session_name", name: "  " })).rejects.toThrow("Session name cannot be empty");
    await expect(session.handle({ type: "prompt", message: "x", outputSchema: { type: 42 } })).rejects.toThrow();
    await expect(session.handle({ type: "set_event_filter", events: null } as unknown as SessionOp)).rejects.toThrow(
      "Not a session operation: set_event_filter",
    );
    await session.close();
  });
});
