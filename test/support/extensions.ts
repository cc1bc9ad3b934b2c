// Test helpers for the extensions layer: a recording UI and a fake host.
import type { ExtensionHost } from "../../src/extensions/host.js";
import type { ExtensionErrorInfo } from "../../src/extensions/types.js";
import type { ExtensionUi } from "../../src/extensions/ui.js";

export interface UiCall {
  method: string;
  args: unknown[];
}

/** An ExtensionUi that records every call and answers dialogs from `answers` (in order). */
export function recordingUi(answers: unknown[] = []): ExtensionUi & { calls: UiCall[] } {
  const calls: UiCall[] = [];
  const queue = [...answers];
  const dialog = (method: string) => (...args: unknown[]) => {
    calls.push({ method, args });
    return Promise.resolve(queue.shift() as never);
  };
  const record = (method: string) => (...args: unknown[]) => {
    calls.push({ method, args });
  };
  return {
    calls,
    select: dialog("select"),
    confirm: dialog("confirm"),
    input: dialog("input"),
    editor: dialog("editor"),
    notify: record("notify"),
    setStatus: record("setStatus"),
    setWidget: record("setWidget"),
    setTitle: record("setTitle"),
    setEditorText: record("setEditorText"),
    getEditorText: () => "",
  };
}

export interface FakeHost extends ExtensionHost {
  sent: unknown[];
  aborted: number;
}

export function fakeHost(ui: ExtensionUi = recordingUi(), extra: Partial<ExtensionHost> = {}): FakeHost {
  const host: FakeHost = {
    cwd: "/work/project",
    ui,
    sent: [],
    aborted: 0,
    abort: () => {
      host.aborted++;
    },
    isIdle: () => true,
    sendUserMessage: (content, opts) => {
      host.sent.push({ kind: "user", content, opts });
    },
    sendMessage: (message, opts) => {
      host.sent.push({ kind: "custom", message, opts });
    },
    getModel: () => undefined,
    ...extra,
  };
  return host;
}

export function errorSink(): { errors: ExtensionErrorInfo[]; onError: (e: ExtensionErrorInfo) => void } {
  const errors: ExtensionErrorInfo[] = [];
  return { errors, onError: (e) => errors.push(e) };
}
