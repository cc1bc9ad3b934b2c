// The session's permission state: the mode and rule lists in force (settings, then
// `set_permissions`), the "Allow always" rules recorded in the open session file, and the port
// through which an approval dialog reaches the host. The check itself is permission-gate.ts.
import { isPermissionMode, validatePermissionRules, type PermissionMode, type PermissionRules } from "../policy/index.js";
import { PithError } from "../shared/errors.js";
import type { PermissionRulesInput, PermissionStateWire } from "../shared/schema/index.js";
import type { SessionLog } from "./store/session-log.js";

/** The `permissions` setting as the session receives it (the CLI validated it). */
export interface PermissionSettings {
  mode: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
  /** How long a dialog waits; absent or 0: until answered, cancelled or stdin closes. */
  timeoutMs?: number;
}

/** The dialog as it goes to the host: a `select` with pith's `permission` payload. */
export interface PermissionRequest {
  title: string;
  options: string[];
  timeout?: number;
  permission: { toolCallId: string; toolName: string; arguments: Record<string, unknown>; rule?: string; reason: string };
}

/** How a dialog ended: the chosen option, or why there is none. */
export type PermissionReply = { value?: unknown } | "cancelled" | "timeout" | "eof" | "no-ui";

/** The host side of approval dialogs (the RPC front door supplies one over its UI bridge). */
export interface PermissionAsker {
  ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionReply>;
}

/** The custom entry "Allow always" writes: `{type:"custom", customType, data:{rules}}`. */
export const ALLOW_ALWAYS_ENTRY = "pith:permission_allow";

export function defaultPermissionSettings(): PermissionSettings {
  return { mode: "allow", allow: [], ask: [], deny: [] };
}

export class SessionPermissions {
  private current: PermissionSettings;
  private sessionAllow: string[] = [];
  private asker: PermissionAsker | undefined;
  /** The keys the host set with `set_permissions`: new settings never replace them. */
  private readonly hostKeys = new Set<keyof PermissionSettings>();
  /** A subagent's: the session whose mode and rules it judges by (see `follow`). */
  private parent: SessionPermissions | undefined;

  constructor(
    settings: PermissionSettings | undefined,
    private readonly log: () => SessionLog,
    private readonly warn: (message: string) => void,
  ) {
    this.current = structuredClone(settings ?? defaultPermissionSettings());
    this.reload();
  }

  /**
   * A subagent's permissions follow its parent's, live: the mode and rules in force are the
   * parent's (a mode the host picks while a subagent runs applies to it at its next call), and an
   * "Allow always" answered in a subagent's dialog is recorded in the parent's session, so the
   * parent and every later subagent have it too. Only the dialog port stays this session's own.
   */
  follow(parent: SessionPermissions): void {
    this.parent = parent;
  }

  /** The session whose mode and rules are in force: this one, or the top of its `follow` chain. */
  private get root(): SessionPermissions {
    return this.parent ? this.parent.root : this;
  }

  /** Whether every call runs without a look (mode "allow", no rule at all): the fast path. */
  get inactive(): boolean {
    const r = this.root;
    const c = r.current;
    return c.mode === "allow" && c.allow.length + c.ask.length + c.deny.length + r.sessionAllow.length === 0;
  }

  get mode(): PermissionMode {
    return this.root.current.mode;
  }
  get timeoutMs(): number | undefined {
    return this.root.current.timeoutMs;
  }

  /** The rules to judge with: the session's "Allow always" rules follow the allow list. */
  rules(): PermissionRules {
    const r = this.root;
    const c = r.current;
    return { allow: [...c.allow, ...r.sessionAllow], ask: c.ask, deny: c.deny };
  }

  /** What `get_state` and `set_permissions` show. */
  state(): PermissionStateWire {
    if (this.parent) return this.root.state();
    const c = this.current;
    const out: PermissionStateWire = { mode: c.mode, allow: [...c.allow], ask: [...c.ask], deny: [...c.deny], sessionAllow: [...this.sessionAllow] };
    if (c.timeoutMs !== undefined && c.timeoutMs > 0) out.timeoutMs = c.timeoutMs;
    return out;
  }

  /** `set_permissions`: each key given replaces the current value; nothing changes when one is bad. */
  set(input: PermissionRulesInput): PermissionStateWire {
    if (this.parent) return this.root.set(input);
    const problems = validatePermissionRules(input, "rules");
    if (input.mode !== undefined && !isPermissionMode(input.mode)) problems.push('rules.mode: expected one of "allow", "ask", "ask-writes", "read-only"');
    if (input.timeoutMs !== undefined && !(Number.isInteger(input.timeoutMs) && input.timeoutMs >= 0)) {
      problems.push("rules.timeoutMs: expected a non-negative integer (milliseconds; 0 = no limit)");
    }
    if (problems.length > 0) throw new PithError("invalid_request", `Invalid permissions: ${problems.join("; ")}`);
    const next = { ...this.current };
    for (const key of ["mode", "allow", "ask", "deny", "timeoutMs"] as const) if (input[key] !== undefined) this.hostKeys.add(key);
    if (input.mode !== undefined) next.mode = input.mode;
    if (input.allow !== undefined) next.allow = [...input.allow];
    if (input.ask !== undefined) next.ask = [...input.ask];
    if (input.deny !== undefined) next.deny = [...input.deny];
    if (input.timeoutMs !== undefined) next.timeoutMs = input.timeoutMs;
    this.current = next;
    return this.state();
  }

  /**
   * The settings changed under the session (its folder was trusted while it runs): they take the
   * place of the old ones, except for each key the host set with `set_permissions`.
   */
  applySettings(settings: PermissionSettings | undefined): void {
    if (this.parent) return;
    const next: PermissionSettings = structuredClone(settings ?? defaultPermissionSettings());
    for (const key of this.hostKeys) (next as unknown as Record<string, unknown>)[key] = this.current[key];
    this.current = next;
  }

  /** "Allow always": the rules join the session's allow list and are written to the session file. */
  recordAllow(rules: readonly string[]): void {
    if (this.parent) return this.root.recordAllow(rules);
    const fresh = rules.filter((r) => !this.sessionAllow.includes(r));
    if (fresh.length === 0) return;
    this.sessionAllow.push(...fresh);
    try {
      this.log().append({ type: "custom", customType: ALLOW_ALWAYS_ENTRY, data: { rules: fresh } });
    } catch (err) {
      this.warn(`failed to record an "Allow always" rule: ${(err as Error).message}`);
    }
  }

  /** The open session file changed (or was loaded): its recorded "Allow always" rules are the session's. */
  reload(): void {
    const rules: string[] = [];
    for (const entry of this.log().customEntries("custom", ALLOW_ALWAYS_ENTRY)) {
      if (entry.type !== "custom" || entry.customType !== ALLOW_ALWAYS_ENTRY) continue;
      const data = entry.data as { rules?: unknown } | undefined;
      if (!Array.isArray(data?.rules)) continue;
      for (const rule of data.rules) {
        if (typeof rule !== "string" || rules.includes(rule)) continue;
        // A damaged or hand-edited rule is left out (with a warning), never a reason to fail loading.
        const problems = validatePermissionRules({ allow: [rule] });
        if (problems.length > 0) this.warn(`ignored a recorded "Allow always" rule: ${problems[0]}`);
        else rules.push(rule);
      }
    }
    this.sessionAllow = rules;
  }

  /** The front door's dialog port; absent: asks are denied ("no one to ask"). */
  setAsker(asker: PermissionAsker | undefined): void {
    this.asker = asker;
  }
  get dialogs(): PermissionAsker | undefined {
    return this.asker;
  }
}
