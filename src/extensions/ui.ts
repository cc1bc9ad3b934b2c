// The UI port an extension talks to (`ctx.ui`). Each mode supplies one: RPC bridges it onto
// `extension_ui_request` frames, print mode uses the no-op below.

export type NotifyType = "info" | "warning" | "error";
export type WidgetPlacement = "aboveEditor" | "belowEditor";

export interface DialogOptions {
  /** Milliseconds; enforced by pith (the dialog resolves with its default when it fires). */
  timeout?: number;
  /** Dismisses the dialog (resolves with its default). */
  signal?: AbortSignal;
  /** Runs when the dialog times out (locally, or when the host reports `timedOut`). */
  onTimeout?: () => void;
}

export interface EditorOptions {
  signal?: AbortSignal;
  promptStyle?: boolean;
}

export interface WidgetOptions {
  placement?: WidgetPlacement;
}

export interface ExtensionUi {
  /** Resolves to the chosen option, or undefined on cancel/timeout/abort. */
  select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
  /** Resolves to the answer, or false on cancel/timeout/abort. */
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
  /** Resolves to the text, or undefined on cancel/timeout/abort. */
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
  /** Multi-line editor; resolves to the text, or undefined on cancel/abort. */
  editor(title: string, prefill?: string, opts?: EditorOptions): Promise<string | undefined>;
  notify(message: string, type?: NotifyType): void;
  /** `text` undefined clears the key. */
  setStatus(key: string, text?: string): void;
  /** `lines` undefined clears the widget. */
  setWidget(key: string, lines?: string[], opts?: WidgetOptions): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  /** There is no editor outside a TUI: always "". */
  getEditorText(): string;
}

/** Print mode: dialogs answer their defaults at once, everything else does nothing. */
export function createNoopUi(): ExtensionUi {
  return {
    select: () => Promise.resolve(undefined),
    confirm: () => Promise.resolve(false),
    input: () => Promise.resolve(undefined),
    editor: () => Promise.resolve(undefined),
    notify: () => {},
    setStatus: () => {},
    setWidget: () => {},
    setTitle: () => {},
    setEditorText: () => {},
    getEditorText: () => "",
  };
}
