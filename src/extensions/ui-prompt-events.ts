// pi's `ui_prompt_start` / `ui_prompt_end`: extensions hear when a dialog (select, confirm,
// input, editor) starts waiting for the user and when it stops; nested dialogs count as one.
import type { UiPromptEvent } from "./events.js";
import type { ExtensionUi } from "./ui.js";

type DialogKind = "select" | "confirm" | "input" | "editor";

/** `port` with its dialogs reported through `emit` (called after the current task, as pi does). */
export function withUiPromptEvents(port: ExtensionUi, emit: (event: UiPromptEvent) => void): ExtensionUi {
  let depth = 0;
  let active: { kind: DialogKind; title?: string } | undefined;
  const announce = (event: UiPromptEvent) => queueMicrotask(() => emit(event));
  const around = <T>(kind: DialogKind, title: string, run: () => Promise<T>): Promise<T> => {
    if (depth++ === 0) {
      active = { kind, ...(title ? { title } : {}) };
      announce({ type: "ui_prompt_start", reason: "ui_prompt", ...active });
    }
    const finish = () => {
      if (--depth > 0) return;
      depth = 0;
      const prompt = active ?? { kind };
      active = undefined;
      announce({ type: "ui_prompt_end", reason: "ui_prompt", ...prompt });
    };
    try {
      return run().finally(finish);
    } catch (err) {
      finish();
      throw err;
    }
  };
  return {
    notify: (message, type) => port.notify(message, type),
    setStatus: (key, text) => port.setStatus(key, text),
    setWidget: (key, lines, opts) => port.setWidget(key, lines, opts),
    setTitle: (title) => port.setTitle(title),
    setEditorText: (text) => port.setEditorText(text),
    getEditorText: () => port.getEditorText(),
    select: (title, options, opts) => around("select", title, () => port.select(title, options, opts)),
    confirm: (title, message, opts) => around("confirm", title, () => port.confirm(title, message, opts)),
    input: (title, placeholder, opts) => around("input", title, () => port.input(title, placeholder, opts)),
    editor: (title, prefill, opts) => around("editor", title, () => port.editor(title, prefill, opts)),
  };
}
