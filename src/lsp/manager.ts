// The language servers of one session: which server a file belongs to, one instance per server
// and workspace root (created on first use), their status for hosts, and shutting them all down
// with the session.
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { rootFor, usableServerFor } from "./config.js";
import { ServerInstance, type InstanceContext } from "./server-instance.js";
import type { LspServerStatus, ServerPlan } from "./types.js";

/** Applies a server's own edit request; set by the lsp tool while it runs a server command. */
export type EditApplier = (edit: WorkspaceEdit) => Promise<{ applied: boolean; failureReason?: string }>;

export interface ManagerOptions extends Omit<InstanceContext, "applyEdit"> {
  cwd: string;
  plans: readonly ServerPlan[];
}

export class LspManager {
  private readonly instances = new Map<string, ServerInstance>();
  private applier: EditApplier | undefined;
  private closed = false;

  constructor(private readonly o: ManagerOptions) {}

  get cwd(): string {
    return this.o.cwd;
  }

  get plans(): readonly ServerPlan[] {
    return this.o.plans;
  }

  /** The instance serving the file (not started yet when new), or undefined when no usable server handles it. */
  instanceFor(absPath: string): ServerInstance | undefined {
    if (this.closed) return undefined;
    const plan = usableServerFor(this.o.plans, absPath);
    if (!plan) return undefined;
    const root = rootFor(absPath, plan.config.rootMarkers ?? [], this.o.cwd);
    const key = `${plan.name}\0${root}`;
    let instance = this.instances.get(key);
    if (!instance) {
      instance = new ServerInstance(plan, root, { ...this.o, applyEdit: (edit) => this.serverEdit(edit) });
      this.instances.set(key, instance);
    }
    return instance;
  }

  /** Instances created so far (started or not). */
  started(): ServerInstance[] {
    return [...this.instances.values()];
  }

  /** Forgets an instance after stopping it: the next use of its files starts a fresh one. */
  async reload(instance: ServerInstance): Promise<void> {
    for (const [key, i] of this.instances) if (i === instance) this.instances.delete(key);
    await instance.stop();
  }

  /**
   * Every server: each started instance with its root, and every server not started with why
   * (command missing, disabled, or simply not needed yet).
   */
  statuses(): LspServerStatus[] {
    const out: LspServerStatus[] = [];
    for (const plan of this.o.plans) {
      const mine = this.started().filter((i) => i.plan === plan);
      if (mine.length > 0) {
        out.push(...mine.map((i) => i.status()));
        continue;
      }
      const s: LspServerStatus = { name: plan.name, language: plan.language, command: plan.config.command, status: plan.unusable?.status ?? "idle" };
      if (plan.unusable) s.error = plan.unusable.reason;
      out.push(s);
    }
    return out;
  }

  /** While `work` runs, edits the servers ask for are applied by `applier`. */
  async withEditApplier<T>(applier: EditApplier, work: () => Promise<T>): Promise<T> {
    this.applier = applier;
    try {
      return await work();
    } finally {
      this.applier = undefined;
    }
  }

  private serverEdit(edit: WorkspaceEdit): Promise<{ applied: boolean; failureReason?: string }> {
    if (!this.applier) return Promise.resolve({ applied: false, failureReason: "pith applies a server's edits only while the lsp tool runs one of its code actions" });
    return this.applier(edit);
  }

  /** Shuts every server down (once); no server starts afterwards. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const all = this.started();
    this.instances.clear();
    await Promise.all(all.map((i) => i.stop()));
  }
}
