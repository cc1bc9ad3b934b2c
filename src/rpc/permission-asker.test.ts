// The RPC permission asker over the UI bridge: the select frame carries `permission`, and the
// way the dialog ended (an option, cancel, timeout, stdin EOF) is told apart.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PermissionRequest } from "../session/index.js";
import { createRpcPermissionAsker } from "./permission-asker.js";
import { createRpcUiBridge } from "./ui-bridge.js";

function setup() {
  const frames: Record<string, any>[] = [];
  let n = 0;
  const ui = createRpcUiBridge({ writeFrame: (f) => frames.push(f as Record<string, any>), newId: () => `id${++n}`, emitTitle: false });
  return { ui, frames, asker: createRpcPermissionAsker(ui) };
}

const request = (timeout?: number): PermissionRequest => ({
  title: "Allow bash: npm test?",
  options: ["Allow once", "Allow always", "Deny"],
  timeout,
  permission: { toolCallId: "c1", toolName: "bash", arguments: { command: "npm test" }, rule: "bash(npm test:*)", reason: "asks" },
});
const live = () => new AbortController().signal;

afterEach(() => vi.useRealTimers());

describe("rpc permission asker", () => {
  it("sends a select with the permission field and returns the chosen option", async () => {
    const { ui, frames, asker } = setup();
    const reply = asker.ask(request(), live());
    expect(frames[0]).toEqual({ type: "extension_ui_request", id: "id1", method: "select", ...request(), timeout: undefined } as never);
    expect(frames[0]).not.toHaveProperty("timeout");
    ui.handleResponse({ id: "id1", value: "Allow always" });
    expect(await reply).toEqual({ value: "Allow always" });
  });

  it("tells cancel, timeout and EOF apart", async () => {
    const { ui, frames, asker } = setup();
    const cancelled = asker.ask(request(), live());
    ui.handleResponse({ id: "id1", cancelled: true });
    expect(await cancelled).toBe("cancelled");

    vi.useFakeTimers();
    const timedOut = asker.ask(request(50), live());
    expect(frames.at(-1)).toMatchObject({ method: "select", timeout: 50 });
    await vi.advanceTimersByTimeAsync(60);
    expect(await timedOut).toBe("timeout");
    expect(frames.at(-1)).toMatchObject({ method: "cancel", targetId: "id2" });
    vi.useRealTimers();

    const eof = asker.ask(request(), live());
    ui.cancelAll();
    expect(await eof).toBe("eof");
    const count = frames.length;
    expect(await asker.ask(request(), live())).toBe("eof");
    expect(frames).toHaveLength(count);
  });

  it("an aborted run cancels the dialog", async () => {
    const { frames, asker } = setup();
    const controller = new AbortController();
    const reply = asker.ask(request(), controller.signal);
    controller.abort();
    expect(await reply).toBe("cancelled");
    expect(frames.at(-1)).toMatchObject({ method: "cancel", targetId: "id1" });
  });
});
