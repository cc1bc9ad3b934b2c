// Dialog routing by session: which handler answers a dialog, which one a cancel or a closed
// session aborts, and that an aborted dialog is never answered.
import { describe, expect, it } from "vitest";
import type { ExtensionUiRequest } from "../protocol/index.js";
import type { UiRequestHandler } from "./types.js";
import { UiResponder } from "./ui-responder.js";

/** A responder writing into `sent`; a handler error fails the test. */
function responder(): { ui: UiResponder; sent: object[] } {
  const sent: object[] = [];
  return { ui: new UiResponder((f) => sent.push(f), (e) => { throw e; }), sent };
}

const confirm = (id: string, sessionId?: string) =>
  ({ type: "extension_ui_request", id, method: "confirm", title: "T", message: "M", ...(sessionId ? { sessionId } : {}) }) as ExtensionUiRequest;
const cancel = (targetId: string, sessionId?: string) =>
  ({ type: "extension_ui_request", id: `c-${targetId}`, method: "cancel", targetId, ...(sessionId ? { sessionId } : {}) }) as ExtensionUiRequest;

/** A handler that answers with its name and records the sessionId of each dialog it got. */
function named(name: string, seen: string[]): UiRequestHandler {
  return async (req) => {
    seen.push(`${name}:${req.sessionId ?? "first"}`);
    return { value: name };
  };
}

/** A handler that never answers; `aborted` lists the dialogs whose signal was aborted, with the reason. */
function hanging(aborted: string[]): UiRequestHandler {
  return (req, { signal }) =>
    new Promise((resolve) =>
      signal.addEventListener("abort", () => {
        aborted.push(`${req.id}: ${(signal.reason as Error).message}`);
        resolve({ value: "too late" });
      }),
    );
}

/** A responder whose client handler and session s1's handler both wait to be aborted. */
function hangingHandlers(): { ui: UiResponder; sent: object[]; clientAborted: string[]; s1Aborted: string[] } {
  const { ui, sent } = responder();
  const clientAborted: string[] = [];
  const s1Aborted: string[] = [];
  ui.setHandler(hanging(clientAborted));
  ui.setHandler(hanging(s1Aborted), "s1");
  return { ui, sent, clientAborted, s1Aborted };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("UiResponder: per-session handlers", () => {
  it("sends a created session's dialog to its handler, the first session's and handler-less sessions' to the client's", async () => {
    const { ui, sent } = responder();
    const seen: string[] = [];
    ui.setHandler(named("client", seen));
    ui.setHandler(named("s1", seen), "s1");
    ui.handleRequest(confirm("u1", "s1"));
    ui.handleRequest(confirm("u2"));
    ui.handleRequest(confirm("u3", "s2"));
    ui.setHandler(undefined, "s1"); // removed: s1 falls back to the client's handler
    ui.handleRequest(confirm("u4", "s1"));
    await settle();
    expect(seen).toEqual(["s1:s1", "client:first", "client:s2", "client:s1"]);
    expect(sent).toEqual([
      { type: "extension_ui_response", id: "u1", value: "s1" },
      { type: "extension_ui_response", id: "u2", value: "client" },
      { type: "extension_ui_response", id: "u3", value: "client" },
      { type: "extension_ui_response", id: "u4", value: "client" },
    ]);
  });

  it("leaves a session's dialog unanswered when neither it nor the client has a handler", async () => {
    const { ui, sent } = responder();
    const seen: string[] = [];
    ui.setHandler(named("s1", seen), "s1");
    ui.handleRequest(confirm("u1", "s2"));
    ui.handleRequest(confirm("u2"));
    await settle();
    expect(seen).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("a cancel aborts whichever handler opened the dialog and suppresses its answer", async () => {
    const { ui, sent, clientAborted, s1Aborted } = hangingHandlers();
    ui.handleRequest(confirm("u1", "s1"));
    ui.handleRequest(confirm("u2", "s2")); // s2 has no handler: the client's answers it
    ui.handleRequest(cancel("u1", "s1"));
    ui.handleRequest(cancel("u2", "s2"));
    await settle();
    expect(s1Aborted).toEqual(["u1: dialog cancelled by the agent"]);
    expect(clientAborted).toEqual(["u2: dialog cancelled by the agent"]);
    expect(sent).toEqual([]);
  });

  it("dropSession removes the session's handler and aborts only that session's open dialogs", async () => {
    const { ui, sent, clientAborted, s1Aborted } = hangingHandlers();
    ui.handleRequest(confirm("u1", "s1"));
    ui.handleRequest(confirm("u2", "s2"));
    ui.handleRequest(confirm("u3"));
    ui.dropSession("s1");
    await settle();
    expect(s1Aborted).toEqual(["u1: the session was closed"]);
    expect(clientAborted).toEqual([]);
    // the handler is gone: a later dialog stamped s1 reaches the client's handler
    ui.handleRequest(confirm("u4", "s1"));
    ui.dropSession("s2");
    await settle();
    expect(clientAborted).toEqual(["u2: the session was closed"]);
    ui.abortAll();
    await settle();
    expect(clientAborted.slice(1).sort()).toEqual(["u3: the agent process exited", "u4: the agent process exited"]);
    expect(sent).toEqual([]);
  });
});
