// One server for one workspace root: started on first use, its open documents and published
// diagnostics, and what happens when it ends. A server that crashed is restarted on its next use,
// at most once a minute; when it crashes again sooner (or cannot start) it stays down, says why,
// and is tried again on a use after the minute has passed.
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import { raceAbort } from "../shared/abort.js";
import type { LspServerStatus, ServerPlan } from "./types.js";
import { deadline } from "./deadline.js";
import { DiagnosticsBoard } from "./diagnostics-board.js";
import { Documents } from "./documents.js";
import type { ServerProcess, SpawnLine } from "./server-process.js";

export const RESTART_INTERVAL_MS = 60_000;
/** How long a server may take to answer `initialize` before it counts as failed. */
const START_TIMEOUT_MS = 60_000;

/** What an instance is given by the manager. */
export interface InstanceContext {
  /** The program line to spawn (wrapped in the sandbox when one is on). */
  line(plan: ServerPlan, root: string): SpawnLine;
  env?: Record<string, string>;
  /** pith's pid for `initialize`; null when servers run in their own PID namespace. */
  processId: number | null;
  /** The server asked to change files (a command it ran). */
  applyEdit(edit: WorkspaceEdit): Promise<{ applied: boolean; failureReason?: string }>;
  now?: () => number;
}

type State = "idle" | "starting" | "running" | "crashed" | "failed" | "stopped";

export class ServerInstance {
  readonly board = new DiagnosticsBoard();
  private state: State = "idle";
  private process: ServerProcess | undefined;
  private documents: Documents | undefined;
  private starting: Promise<ServerProcess> | undefined;
  private error: string | undefined;
  private restarts = 0;
  private lastRestartAt: number | undefined;
  private lastFailAt: number | undefined;
  /** Fires when the instance is stopped: a start still under way gives up (and kills its process). */
  private readonly stopping = new AbortController();
  /** The process being started, before it answered `initialize`. */
  private startingPid: number | undefined;
  /** Whether the current process already delivered diagnostics once (its first check is the slow one). */
  warm = false;

  constructor(
    readonly plan: ServerPlan,
    readonly root: string,
    private readonly ctx: InstanceContext,
  ) {}

  private now(): number {
    return (this.ctx.now ?? Date.now)();
  }

  status(): LspServerStatus {
    const status = this.state === "stopped" ? "idle" : this.state;
    const s: LspServerStatus = { name: this.plan.name, language: this.plan.language, command: this.plan.config.command, status, root: this.root };
    const pid = this.process?.alive ? this.process.pid : this.state === "starting" ? this.startingPid : undefined;
    if (pid !== undefined) s.pid = pid;
    if (this.error && status !== "running") s.error = this.error;
    if (this.restarts > 0) s.restarts = this.restarts;
    return s;
  }

  /** Why the server is down after it crashed or failed, if it is. */
  get failure(): string | undefined {
    return this.state === "crashed" || this.state === "failed" ? (this.error ?? "failed") : undefined;
  }

  /** The text the running server has for the file, when it has it open. */
  textOf(absPath: string): string | undefined {
    return this.state === "running" ? this.documents?.textOf(absPath) : undefined;
  }

  /** The running process and its documents, starting (or restarting) it when the rules allow. */
  async ready(signal: AbortSignal): Promise<{ server: ServerProcess; docs: Documents }> {
    if (this.state === "running" && this.process?.alive && this.documents) return { server: this.process, docs: this.documents };
    if (!this.starting) {
      const refusal = this.refusal();
      if (refusal) throw new Error(refusal);
      this.starting = this.begin();
    }
    const server = await raceAbort(this.starting, signal, "not started in time");
    return { server, docs: this.documents! };
  }

  private begin(): Promise<ServerProcess> {
    if (this.state === "crashed" || this.state === "failed") {
      this.restarts++;
      this.lastRestartAt = this.now();
    }
    this.state = "starting";
    const started = this.spawn();
    started.then(
      () => undefined,
      (err: unknown) => {
        if (this.state === "stopped") return;
        this.state = "failed";
        this.lastFailAt = this.now();
        this.error = `did not start: ${(err as Error).message}`;
      },
    );
    return started.finally(() => {
      this.starting = undefined;
    });
  }

  /** Why no (re)start may happen now, if so. */
  private refusal(): string | undefined {
    if (this.state === "stopped") return "it was shut down with the session";
    if (this.state !== "crashed" && this.state !== "failed") return undefined;
    const last = Math.max(this.lastRestartAt ?? -Infinity, this.state === "failed" ? (this.lastFailAt ?? -Infinity) : -Infinity);
    const wait = last + RESTART_INTERVAL_MS - this.now();
    if (wait <= 0) return undefined;
    this.state = "failed";
    return `${this.error ?? "failed"}; it is restarted at most once a minute (next try in ${Math.ceil(wait / 1000)} s)`;
  }

  private async spawn(): Promise<ServerProcess> {
    const { ServerProcess: Server } = await import("./server-process.js");
    this.board.forget();
    this.warm = false;
    // The exit handler may run before start() returns (a server that dies while starting).
    const self: { server?: ServerProcess } = {};
    const startLimit = deadline(START_TIMEOUT_MS, this.stopping.signal);
    const server = await Server.start({
      line: this.ctx.line(this.plan, this.root),
      root: this.root,
      env: this.ctx.env,
      initOptions: this.plan.config.initOptions,
      processId: this.ctx.processId,
      signal: startLimit.signal,
      spawned: (pid) => (this.startingPid = pid),
      handlers: {
        diagnostics: (uri, diagnostics, version) => this.board.publish(uri, diagnostics, version),
        applyEdit: (edit) => this.ctx.applyEdit(edit),
        configuration: (section) => sectionOf(this.plan.config.settings, section),
        exited: (code, sig, stderr) => this.exited(self.server, code, sig, stderr),
      },
    }).finally(() => startLimit.done());
    if (this.state === "stopped") {
      await server.shutdown();
      throw new Error(`${this.plan.name} was shut down with the session`);
    }
    self.server = server;
    this.process = server;
    this.documents = new Documents(server);
    this.state = "running";
    this.error = undefined;
    if (this.plan.config.settings) server.notify("workspace/didChangeConfiguration", { settings: this.plan.config.settings });
    return server;
  }

  private exited(server: ServerProcess | undefined, code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (!server || this.process !== server) return;
    this.process = undefined;
    this.documents = undefined;
    if (this.state === "running") {
      this.state = "crashed";
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.error = `${how}${stderr ? `: ${stderr}` : ""}`;
    }
    this.board.interrupt();
  }

  /** Ends the process; the instance is not started again. */
  async stop(): Promise<void> {
    this.state = "stopped";
    this.stopping.abort();
    const server = this.process;
    this.process = undefined;
    this.documents = undefined;
    await server?.shutdown();
  }
}

/** The value at a dotted section of the server's settings ("python.analysis"), or the whole object. */
function sectionOf(settings: Record<string, unknown> | undefined, section: string | undefined): unknown {
  if (!settings) return null;
  if (!section) return settings;
  let at: unknown = settings;
  for (const key of section.split(".")) {
    if (typeof at !== "object" || at === null) return null;
    at = (at as Record<string, unknown>)[key];
  }
  return at ?? null;
}
