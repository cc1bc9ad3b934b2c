// Answers extension dialogs with the host's handlers: select / confirm /
// input / editor get one `extension_ui_response`; a `cancel` request aborts the handler's
// signal and suppresses the answer. Fire-and-forget requests are left to event listeners.
// A dialog of a created session (its frame carries `sessionId`) goes to that session's handler
// when it has one, else to the client's, which also answers the first session's dialogs.
import type { ExtensionUiRequest } from "../protocol/index.js";
import type { UiAnswer, UiDialogRequest, UiRequestHandler } from "./types.js";

const DIALOGS: ReadonlySet<string> = new Set(["select", "confirm", "input", "editor"]);

export function isDialog(request: ExtensionUiRequest): request is UiDialogRequest {
  return DIALOGS.has(request.method);
}

/** A dialog being answered: its handler's abort switch and the session that asked. */
interface OpenDialog {
  controller: AbortController;
  sessionId: string | undefined;
}

export class UiResponder {
  /** The client's handler: the first session's, and the fallback of sessions without their own. */
  private handler: UiRequestHandler | undefined;
  private readonly sessionHandlers = new Map<string, UiRequestHandler>();
  /** By request id: pith's dialog ids are unique in the process (answers carry no sessionId). */
  private readonly open = new Map<string, OpenDialog>();

  constructor(
    private readonly send: (frame: object) => void,
    private readonly reportError: (error: unknown) => void,
  ) {}

  /** Installs (undefined: removes) the handler of session `sessionId`; undefined is the client's own. */
  setHandler(handler: UiRequestHandler | undefined, sessionId?: string): void {
    if (sessionId === undefined) this.handler = handler;
    else if (handler) this.sessionHandlers.set(sessionId, handler);
    else this.sessionHandlers.delete(sessionId);
  }

  handleRequest(request: ExtensionUiRequest): void {
    if (request.method === "cancel") {
      // whichever handler opened the dialog is in `open`, so the cancel needs no routing
      this.abort(request.targetId, "dialog cancelled by the agent");
      return;
    }
    const sessionId = (request as { sessionId?: string }).sessionId;
    const handler = this.handlerFor(sessionId);
    if (!handler || !isDialog(request)) return;
    const controller = new AbortController();
    this.open.set(request.id, { controller, sessionId });
    let answer: Promise<UiAnswer | undefined>;
    try {
      answer = Promise.resolve(handler(request, { signal: controller.signal }));
    } catch (err) {
      answer = Promise.reject(err);
    }
    answer.then(
      (value) => this.answer(request.id, controller, value ?? { cancelled: true }),
      (err) => {
        this.reportError(err);
        this.answer(request.id, controller, { cancelled: true });
      },
    );
  }

  /**
   * Session `sessionId` was closed: its handler goes and its open dialogs are aborted, whichever
   * handler has them (nobody waits for their answers any more, so none is sent).
   */
  dropSession(sessionId: string): void {
    this.sessionHandlers.delete(sessionId);
    for (const [id, dialog] of this.open) if (dialog.sessionId === sessionId) this.abort(id, "the session was closed");
  }

  /** The agent is gone: abort every open dialog. */
  abortAll(): void {
    for (const id of [...this.open.keys()]) this.abort(id, "the agent process exited");
  }

  /** The handler for a dialog of `sessionId`: the session's own, else the client's. */
  private handlerFor(sessionId: string | undefined): UiRequestHandler | undefined {
    return (sessionId === undefined ? undefined : this.sessionHandlers.get(sessionId)) ?? this.handler;
  }

  /** Forgets dialog `id` (so its answer is never sent) and aborts its handler's signal. */
  private abort(id: string, reason: string): void {
    const dialog = this.open.get(id);
    this.open.delete(id);
    dialog?.controller.abort(new Error(reason));
  }

  private answer(id: string, controller: AbortController, answer: UiAnswer): void {
    if (this.open.get(id)?.controller !== controller) return;
    this.open.delete(id);
    try {
      this.send({ type: "extension_ui_response", id, ...answer });
    } catch (err) {
      this.reportError(err);
    }
  }
}
