// The session's permission state: the mode and rule lists in force (settings, then
// `set_permissions`), the "Allow always" rules granted for the project (kept with the user
// through the GrantStore port, never taken from a session file), and the port through which an
// approval dialog reaches the host. The check itself is permission-gate.ts.
import { isPermissionMode, validatePermissionRules, type PermissionMode, type PermissionRules } from "../policy/index.js";
import { PithError } from "../shared/errors.js";
import type { PermissionRulesInput, PermissionStateWire } from "../shared/schema/index.js";
import type { SessionLog } from "../store/session-log.js";

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

/**
 * The custom entry older versions wrote for "Allow always" (`{type:"custom", customType,
 * data:{rules}}`). A session file can come from anyone: such an entry grants nothing and is
 * reported once when the file is opened.
 */
export const ALLOW_ALWAYS_ENTRY = "pith:permission_allow";

/**
 * Where the project's "Allow always" grants are kept, with the user (the composition root
 * supplies the store in PITH_HOME; the session never reaches the file system for it).
 */
export interface GrantStore {
  /** Where the grants are kept, for people (`get_state.permissions.grantsFile`). */
  readonly location?: string;
  /** The project's granted allow rules, as kept now. */
  load(): string[];
  /** Keeps more rules; throws when they cannot be kept (they still hold for this session). */
  add(rules: readonly string[]): void;
  /** Replaces the project's rules (an empty list revokes them all); throws when they cannot be kept. */
  replace(rules: readonly string[]): void;
}

/** Grants kept in memory only (a session without a user store: tests, embedders). */
export function memoryGrantStore(initial: readonly string[] = []): GrantStore {
  let rules = [...initial];
  return {
    load: () => [...rules],
    add: (more) => void (rules = [...new Set([...rules, ...more])]),
    replace: (next) => void (rules = [...new Set(next)]),
  };
}

export function defaultPermissionSettings(): PermissionSettings {
  return { mode: "allow", allow: [], ask: [], deny: [] };
}

export class SessionPermissions {
  private current: PermissionSettings;
  /** The project's "Allow always" rules (from the grant store). */
  private granted: string[] = [];
  private asker: PermissionAsker | undefined;
  /** The keys the host set with `set_permissions`: new settings never replace them. */
  private readonly hostKeys = new Set<keyof PermissionSettings>();
  /** A subagent's: the session whose mode and rules it judges by (see `follow`). */
  private parent: SessionPermissions | undefined;

  constructor(
    settings: PermissionSettings | undefined,
    private readonly log: () => SessionLog,
    private readonly warn: (message: string) => void,
    private readonly grants: GrantStore = memoryGrantStore(),
  ) {
    this.current = structuredClone(settings ?? defaultPermissionSettings());
    this.reload();
  }

  /**
   * A subagent's permissions follow its parent's, live: the mode and rules in force are the
   * parent's (a mode the host picks while a subagent runs applies to it at its next call), and an
   * "Allow always" answered in a subagent's dialog is granted through the parent's store, so the
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
    return c.mode === "allow" && c.allow.length + c.ask.length + c.deny.length + r.granted.length === 0;
  }

  get mode(): PermissionMode {
    return this.root.current.mode;
  }
  get timeoutMs(): number | undefined {
    return this.root.current.timeoutMs;
  }

  /** The rules to judge with: the project's "Allow always" rules follow the allow list. */
  rules(): PermissionRules {
    const r = this.root;
    const c = r.current;
    return { allow: [...c.allow, ...r.granted], ask: c.ask, deny: c.deny };
  }

  /** What `get_state` and `set_permissions` show. */
  state(): PermissionStateWire {
    if (this.parent) return this.root.state();
    const c = this.current;
    const out: PermissionStateWire = { mode: c.mode, allow: [...c.allow], ask: [...c.ask], deny: [...c.deny], sessionAllow: [...this.granted] };
    if (c.timeoutMs !== undefined && c.timeoutMs > 0) out.timeoutMs = c.timeoutMs;
    if (this.grants.location !== undefined) out.grantsFile = this.grants.location;
    return out;
  }

  /**
   * `set_permissions`: each key given replaces the current value; nothing changes when one is
   * bad. `sessionAllow` replaces the project's "Allow always" grants where they are kept (`[]`
   * revokes them all).
   */
  set(input: PermissionRulesInput): PermissionStateWire {
    if (this.parent) return this.root.set(input);
    const problems = validatePermissionRules(input, "rules");
    problems.push(...validatePermissionRules({ allow: input.sessionAllow }, "rules").map((p) => p.replace("rules.allow", "rules.sessionAllow")));
    if (input.mode !== undefined && !isPermissionMode(input.mode)) problems.push('rules.mode: expected one of "allow", "ask", "ask-writes", "read-only"');
    if (input.timeoutMs !== undefined && !(Number.isInteger(input.timeoutMs) && input.timeoutMs >= 0)) {
      problems.push("rules.timeoutMs: expected a non-negative integer (milliseconds; 0 = no limit)");
    }
    if (problems.length > 0) throw new PithError("invalid_request", `Invalid permissions: ${problems.join("; ")}`);
    if (input.sessionAllow !== undefined) {
      try {
        this.grants.replace(input.sessionAllow);
      } catch (err) {
        throw new PithError("io", `Could not change the granted rules: ${(err as Error).message}`);
      }
      this.granted = [...new Set(input.sessionAllow)];
    }
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

  /** "Allow always": the rules join the project's grants, kept with the user (for this session alone when they cannot be kept). */
  recordAllow(rules: readonly string[]): void {
    if (this.parent) return this.root.recordAllow(rules);
    const fresh = rules.filter((r) => !this.granted.includes(r));
    if (fresh.length === 0) return;
    this.granted.push(...fresh);
    try {
      this.grants.add(fresh);
    } catch (err) {
      this.warn(`pith: "Allow always" holds for this session only: ${(err as Error).message}`);
    }
  }

  /**
   * A session file was opened (at start, or by new/switch/branch/clone): the grants are read
   * again (another process may have changed them), and "Allow always" entries an older version
   * wrote into the file are reported, once, and grant nothing.
   */
  reload(): void {
    if (!this.parent) this.granted = this.grants.load();
    const stale = this.log().customEntries("custom", ALLOW_ALWAYS_ENTRY);
    if (stale.length === 0) return;
    const where = this.log().path ?? "the open session";
    this.warn(
      `pith: ignored ${stale.length} "Allow always" entr${stale.length === 1 ? "y" : "ies"} (${ALLOW_ALWAYS_ENTRY}) in ${where}: ` +
        `a session file grants nothing; grants are kept per project with the user${this.grants.location ? ` (${this.grants.location})` : ""}`,
    );
  }

  /** The front door's dialog port; absent: asks are denied ("no one to ask"). */
  setAsker(asker: PermissionAsker | undefined): void {
    this.asker = asker;
  }
  get dialogs(): PermissionAsker | undefined {
    return this.asker;
  }
}
