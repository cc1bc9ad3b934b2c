// The extension UI port over RPC: every call is an `extension_ui_request`
// frame with a fresh id; dialogs wait for the matching `extension_ui_response`. Timeouts run
// here; on timeout or abort pith also sends `method:"cancel"` so the host can close its dialog
//. The shapes mirror the extensions layer's ExtensionUi port structurally
// (rpc does not import extensions).
import type { ExtensionUiRequest } from "../protocol/index.js";

export interface UiDialogOptions {
  timeout?: number;
  signal?: AbortSignal;
  onTimeout?: () => void;
}
export interface UiEditorOptions {
  signal?: AbortSignal;
  promptStyle?: boolean;
}

/** An `extension_ui_response` frame as read from stdin. */
export interface UiResponseFrame {
  id: string;
  value?: unknown;
  confirmed?: unknown;
  cancelled?: unknown;
  timedOut?: unknown;
}

export interface RpcUiBridgeOptions {
  writeFrame(frame: ExtensionUiRequest): void;
  newId(): string;
  /** `PI_RPC_EMIT_TITLE` (evaluated once by the cli): otherwise setTitle sends nothing. */
  emitTitle: boolean;
}

export interface RpcUiBridge {
  select(title: string, options: string[], opts?: UiDialogOptions): Promise<string | undefined>;
  /** A `select` carrying extra fields (pith's approval dialogs add `permission`). */
  selectWith(title: string, options: string[], extra: Record<string, unknown>, opts?: UiDialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: UiDialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: UiDialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string, opts?: UiEditorOptions): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text?: string): void;
  setWidget(key: string, lines?: string[], opts?: { placement?: "aboveEditor" | "belowEditor" }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  getEditorText(): string;
  /** Settles the pending dialog `frame.id`; unknown and late ids are ignored. */
  handleResponse(frame: UiResponseFrame): void;
  /** stdin EOF: every pending dialog, and every later one, resolves with its default, no frames. */
  cancelAll(): void;
  readonly pendingCount: number;
  /** True after cancelAll (stdin EOF): no dialog can be answered any more. */
  readonly closed: boolean;
}

type Kind = "select" | "confirm" | "input" | "editor";

interface Pending {
  kind: Kind;
  settle(value: unknown): void;
  onTimeout?: () => void;
}

const defaultOf = (kind: Kind): unknown => (kind === "confirm" ? false : undefined);

/** In order: cancelled → default; confirm reads `confirmed`; the others read `value`. */
function interpret(kind: Kind, frame: UiResponseFrame): unknown {
  if (frame.cancelled) return defaultOf(kind);
  if (kind === "confirm") return "confirmed" in frame ? frame.confirmed : false;
  return "value" in frame ? frame.value : undefined;
}

/** Copies the defined entries only: wire shapes omit undefined keys. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

interface Channel {
  pending: Map<string, Pending>;
  /** Set by cancelAll (stdin EOF): no host can answer, so dialogs resolve at once. */
  closed: boolean;
  newId(): string;
  write(id: string, method: string, fields: Record<string, unknown>): void;
}

/** Sends one dialog request and settles it on answer, timeout, abort or cancelAll. */
function openDialog<T>(ch: Channel, kind: Kind, fields: Record<string, unknown>, opts: UiDialogOptions = {}): Promise<T> {
  const fallback = defaultOf(kind) as T;
  const { signal, timeout, onTimeout } = opts;
  if (signal?.aborted || ch.closed) return Promise.resolve(fallback);
  const id = ch.newId();
  return new Promise<T>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (value: unknown) => {
      if (!ch.pending.delete(id)) return;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
      resolve(value as T);
    };
    const cancel = () => {
      if (!ch.pending.has(id)) return;
      finish(fallback);
      ch.write(ch.newId(), "cancel", { targetId: id });
    };
    // Registered before the frame goes out: an in-memory host may answer synchronously.
    ch.pending.set(id, { kind, settle: finish, onTimeout });
    if (typeof timeout === "number") {
      timer = setTimeout(() => {
        if (!ch.pending.has(id)) return;
        onTimeout?.();
        cancel();
      }, timeout);
    }
    signal?.addEventListener("abort", cancel, { once: true });
    ch.write(id, kind, { ...fields, timeout });
  });
}

export function createRpcUiBridge(options: RpcUiBridgeOptions): RpcUiBridge {
  const { writeFrame, newId } = options;
  const pending = new Map<string, Pending>();
  // Each method's fields are fixed by its caller below; the frame is assembled generically.
  const write = (id: string, method: string, fields: Record<string, unknown>) =>
    writeFrame({ type: "extension_ui_request", id, method, ...defined(fields) } as ExtensionUiRequest);
  const send = (method: string, fields: Record<string, unknown>) => write(newId(), method, fields);
  const ch: Channel = { pending, newId, write, closed: false };
  const dialog = <T>(kind: Kind, fields: Record<string, unknown>, opts?: UiDialogOptions) => openDialog<T>(ch, kind, fields, opts);

  return {
    select: (title, opts, o) => dialog("select", { title, options: opts }, o),
    selectWith: (title, opts, extra, o) => dialog("select", { title, options: opts, ...extra }, o),
    confirm: (title, message, o) => dialog("confirm", { title, message }, o),
    input: (title, placeholder, o) => dialog("input", { title, placeholder }, o),
    editor: (title, prefill, o) =>
      dialog("editor", { title, prefill, promptStyle: o?.promptStyle }, { signal: o?.signal }),
    notify: (message, type) => void send("notify", { message, notifyType: type }),
    setStatus: (key, text) => void send("setStatus", { statusKey: key, statusText: text }),
    setWidget: (key, lines, o) => {
      // Component factories (TUI only) are not sent; string arrays and "clear" are.
      if (lines !== undefined && !Array.isArray(lines)) return;
      send("setWidget", { widgetKey: key, widgetLines: lines, widgetPlacement: o?.placement });
    },
    setTitle: (title) => {
      if (options.emitTitle) send("setTitle", { title });
    },
    setEditorText: (text) => void send("set_editor_text", { text }),
    getEditorText: () => "",
    handleResponse(frame) {
      const entry = pending.get(frame.id);
      if (!entry) return;
      if (frame.cancelled && frame.timedOut === true) entry.onTimeout?.();
      entry.settle(interpret(entry.kind, frame));
    },
    cancelAll() {
      ch.closed = true;
      for (const entry of [...pending.values()]) entry.settle(defaultOf(entry.kind));
    },
    get pendingCount() {
      return pending.size;
    },
    get closed() {
      return ch.closed;
    },
  };
}
