// Extension dialogs in an editor: `select` and `confirm` become `session/request_permission`
// with one option per choice; `input` and `editor` have no ACP form, so they resolve to their
// defaults and say so in the transcript; notifications become notices.
import type { ExtensionUi } from "../session/index.js";
import type { AcpUpdate } from "./session-updates.js";

export interface PermissionOptionSpec {
  optionId: string;
  name: string;
  kind: "allow_once" | "allow_always" | "reject_once" | "reject_always";
}

export interface PermissionAsk {
  title: string;
  options: PermissionOptionSpec[];
  /** The tool call the ask is about (a synthetic id for extension dialogs). */
  toolCallId: string;
  rawInput?: unknown;
  kind?: string;
  signal?: AbortSignal;
}

export interface DialogPort {
  /** Sends `session/request_permission`; resolves with the chosen optionId, or undefined when cancelled. */
  askPermission(ask: PermissionAsk): Promise<string | undefined>;
  update(update: AcpUpdate): void;
}

/** Races a dialog against its timeout and signal: either one resolves it with `fallback`. */
async function bounded<T>(run: (signal: AbortSignal) => Promise<T>, fallback: T, opts: { timeout?: number; signal?: AbortSignal; onTimeout?: () => void } | undefined): Promise<T> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  opts?.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<T>((resolve) => {
    if (opts?.timeout && opts.timeout > 0) {
      timer = setTimeout(() => {
        opts.onTimeout?.();
        ctl.abort();
        resolve(fallback);
      }, opts.timeout);
    }
    ctl.signal.addEventListener("abort", () => resolve(fallback), { once: true });
  });
  try {
    return await Promise.race([run(ctl.signal).catch(() => fallback), timedOut]);
  } finally {
    if (timer) clearTimeout(timer);
    opts?.signal?.removeEventListener("abort", onAbort);
  }
}

export function createAcpUi(port: DialogPort, newId: () => string): ExtensionUi {
  const notice = (severity: "info" | "warning" | "error", title: string, description?: string) =>
    port.update({ sessionUpdate: "notice", severity, title, ...(description ? { description } : {}) });
  return {
    select: (title, options, opts) =>
      bounded(
        async (signal) => {
          const specs = options.map((name, i): PermissionOptionSpec => ({ optionId: String(i), name, kind: "allow_once" }));
          const chosen = await port.askPermission({ title, options: specs, toolCallId: newId(), signal });
          return chosen === undefined ? undefined : options[Number(chosen)];
        },
        undefined,
        opts,
      ),
    confirm: (title, message, opts) =>
      bounded(
        async (signal) => {
          const specs: PermissionOptionSpec[] = [
            { optionId: "yes", name: "Yes", kind: "allow_once" },
            { optionId: "no", name: "No", kind: "reject_once" },
          ];
          const chosen = await port.askPermission({ title: message ? `${title}: ${message}` : title, options: specs, toolCallId: newId(), signal });
          return chosen === "yes";
        },
        false,
        opts,
      ),
    input: (title) => {
      notice("info", title, "An extension asked for input; editors cannot answer this over ACP, so it got no answer.");
      return Promise.resolve(undefined);
    },
    editor: (title, prefill) => {
      notice("info", title, "An extension opened an editor; over ACP it keeps its prefilled text.");
      return Promise.resolve(prefill);
    },
    notify: (message, type) => notice(type ?? "info", message),
    setStatus: () => {},
    setWidget: () => {},
    setTitle: (title) => port.update({ sessionUpdate: "session_info_update", title }),
    setEditorText: () => {},
    getEditorText: () => "",
  };
}
