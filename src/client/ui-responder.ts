// Answers extension dialogs (protocol.md §8) with the host's handler: select / confirm /
// input / editor get one `extension_ui_response`; a `cancel` request aborts the handler's
// signal and suppresses the answer. Fire-and-forget requests are left to event listeners.
import type { ExtensionUiRequest } from "../protocol/index.js";
import type { UiAnswer, UiDialogRequest, UiRequestHandler } from "./types.js";

const DIALOGS: ReadonlySet<string> = new Set(["select", "confirm", "input", "editor"]);

export function isDialog(request: ExtensionUiRequest): request is UiDialogRequest {
  return DIALOGS.has(request.method);
}

export class UiResponder {
  private handler: UiRequestHandler | undefined;
  private readonly open = new Map<string, AbortController>();

  constructor(
    private readonly send: (frame: object) => void,
    private readonly reportError: (error: unknown) => void,
  ) {}

  setHandler(handler: UiRequestHandler | undefined): void {
    this.handler = handler;
  }

  handleRequest(request: ExtensionUiRequest): void {
    if (request.method === "cancel") {
      const controller = this.open.get(request.targetId);
      this.open.delete(request.targetId);
      controller?.abort(new Error("dialog cancelled by the agent"));
      return;
    }
    if (!this.handler || !isDialog(request)) return;
    const controller = new AbortController();
    this.open.set(request.id, controller);
    let answer: Promise<UiAnswer | undefined>;
    try {
      answer = Promise.resolve(this.handler(request, { signal: controller.signal }));
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

  /** The agent is gone: abort every open dialog. */
  abortAll(): void {
    for (const controller of this.open.values()) controller.abort(new Error("the agent process exited"));
    this.open.clear();
  }

  private answer(id: string, controller: AbortController, answer: UiAnswer): void {
    if (this.open.get(id) !== controller) return;
    this.open.delete(id);
    try {
      this.send({ type: "extension_ui_response", id, ...answer });
    } catch (err) {
      this.reportError(err);
    }
  }
}
