// One language-server process and its JSON-RPC connection (the LSP project's own packages,
// loaded with this module on the first server start). The process runs in its own process
// group (inside the sandbox when one is on), is initialized with what pith can do, answers the
// server's requests through the handlers it is given, and ends with `shutdown`/`exit`, then
// SIGTERM and SIGKILL to its group when it does not leave by itself.
import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  CancellationTokenSource,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import type { ClientCapabilities, Diagnostic, InitializeResult, ServerCapabilities, WorkspaceEdit } from "vscode-languageserver-protocol";
import { raceAbort } from "../shared/abort.js";
import { withDeadline } from "./deadline.js";
import { signalProcessGroup } from "../shared/process-group.js";
import { registerProcessGroup, unregisterProcessGroup } from "../tools/index.js";

/** A program line, already wrapped in the sandbox when one is on. */
export interface SpawnLine {
  file: string;
  args: string[];
}

/** What the server may ask of pith, and what it tells. */
export interface ServerHandlers {
  diagnostics(uri: string, diagnostics: Diagnostic[], version: number | undefined): void;
  /** `workspace/applyEdit` (a command the server runs, e.g. a code action's). */
  applyEdit(edit: WorkspaceEdit): Promise<{ applied: boolean; failureReason?: string }>;
  /** `workspace/configuration`: the settings section asked for. */
  configuration(section: string | undefined): unknown;
  /** The process ended (by itself or killed); `stderr` is its last output. */
  exited(code: number | null, signal: NodeJS.Signals | null, stderr: string): void;
}

export interface StartOptions {
  line: SpawnLine;
  root: string;
  env?: Record<string, string>;
  initOptions?: Record<string, unknown>;
  /** pith's pid for `initialize` (the server exits when it is gone); null inside a PID namespace. */
  processId: number | null;
  /** Fires when the start takes too long or is no longer wanted. */
  signal: AbortSignal;
  handlers: ServerHandlers;
  /** The process exists (before it is initialized). */
  spawned?(pid: number): void;
}

const STDERR_TAIL = 4000;
const EXIT_GRACE_MS = 1000;

const CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  window: { workDoneProgress: false },
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: [] },
    configuration: true,
    workspaceFolders: true,
    symbol: {},
    executeCommand: {},
  },
  textDocument: {
    synchronization: { didSave: true, dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ["markdown", "plaintext"] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: false },
    formatting: {},
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: { valueSet: ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source", "source.organizeImports", "source.fixAll"] },
      },
      resolveSupport: { properties: ["edit"] },
      dataSupport: true,
    },
  },
};

export class ServerProcess {
  private stderr = "";
  private ended = false;
  capabilities: ServerCapabilities = {};

  private constructor(
    private readonly child: ChildProcess,
    private readonly conn: ProtocolConnection,
  ) {}

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.ended;
  }

  /** Spawns and initializes the server; rejects (and kills it) when it fails or `signal` fires first. */
  static async start(o: StartOptions): Promise<ServerProcess> {
    const child = spawn(o.line.file, o.line.args, { cwd: o.root, env: o.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const server = new ServerProcess(child, conn);
    server.wire(o.handlers, o.root);
    try {
      const spawned = new Promise<void>((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", reject);
      });
      await raceAbort(spawned, o.signal, "not started in time");
      if (child.pid !== undefined) o.spawned?.(child.pid);
      const init = raceAbort(
        conn.sendRequest("initialize", {
          processId: o.processId,
          clientInfo: { name: "pith" },
          rootUri: pathToFileURL(o.root).href,
          rootPath: o.root,
          workspaceFolders: [{ uri: pathToFileURL(o.root).href, name: o.root }],
          capabilities: CAPABILITIES,
          initializationOptions: o.initOptions ?? {},
        }) as Promise<InitializeResult>,
        o.signal,
        "no answer to initialize in time",
      );
      const result = await Promise.race([init, server.exitedEarly()]);
      server.capabilities = result.capabilities ?? {};
      conn.sendNotification("initialized", {});
      return server;
    } catch (err) {
      server.kill();
      throw err instanceof Error && server.stderr ? new Error(`${err.message}: ${server.stderrTail()}`) : err;
    }
  }

  private wire(h: ServerHandlers, root: string): void {
    const child = this.child;
    if (child.pid !== undefined) registerProcessGroup(child.pid);
    child.stdin?.on("error", () => undefined); // a dead server's pipe: the exit handler reports it
    child.stderr?.on("data", (d: Buffer) => {
      this.stderr = (this.stderr + d.toString("utf8")).slice(-STDERR_TAIL);
    });
    child.once("exit", (code, signal) => {
      this.ended = true;
      if (child.pid !== undefined) unregisterProcessGroup(child.pid);
      this.conn.dispose();
      h.exited(code, signal, this.stderrTail());
    });
    const conn = this.conn;
    conn.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: Diagnostic[]; version?: number }) => {
      if (p && typeof p.uri === "string" && Array.isArray(p.diagnostics)) h.diagnostics(p.uri, p.diagnostics, typeof p.version === "number" ? p.version : undefined);
    });
    conn.onRequest("workspace/configuration", (p: { items?: Array<{ section?: string }> }) => (p?.items ?? []).map((i) => h.configuration(i.section) ?? null));
    conn.onRequest("workspace/applyEdit", (p: { edit: WorkspaceEdit }) => h.applyEdit(p.edit));
    conn.onRequest("workspace/workspaceFolders", () => [{ uri: pathToFileURL(root).href, name: root }]);
    for (const accepted of ["client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create", "window/showMessageRequest"]) {
      conn.onRequest(accepted, () => null);
    }
    // A broken stream ends the server: the exit handler above reports it.
    conn.onError(() => this.kill());
    conn.onClose(() => this.kill());
    conn.listen();
  }

  /** Rejects when the process exits before `initialize` is answered. */
  private exitedEarly(): Promise<never> {
    return new Promise((_resolve, reject) => {
      this.child.once("exit", (code, signal) => reject(new Error(`exited during start (${signal ?? `code ${code}`})`)));
    });
  }

  private stderrTail(): string {
    return this.stderr.trim().split("\n").slice(-5).join("\n");
  }

  /** A request, cancelled (`$/cancelRequest`) and rejected when `signal` fires. */
  async request<R>(method: string, params: unknown, signal: AbortSignal): Promise<R> {
    if (this.ended) throw new Error("the server is not running");
    const source = new CancellationTokenSource();
    const cancel = () => source.cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      return await raceAbort(this.conn.sendRequest(method, params, source.token) as Promise<R>, signal, `no answer to ${method} in time`);
    } finally {
      signal.removeEventListener("abort", cancel);
      source.dispose();
    }
  }

  notify(method: string, params: unknown): void {
    if (!this.ended) void this.conn.sendNotification(method, params).catch(() => undefined);
  }

  /** `shutdown` then `exit`, each bounded; then the group is signalled until it is gone. */
  async shutdown(): Promise<void> {
    if (this.ended) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    try {
      await withDeadline(EXIT_GRACE_MS, undefined, (signal) => this.request("shutdown", null, signal));
      this.notify("exit", null);
    } catch {
      // no answer in time: the signals below end it
    }
    const timer = setTimeout(() => this.kill(), EXIT_GRACE_MS);
    await gone;
    clearTimeout(timer);
  }

  /** SIGTERM to the group, SIGKILL shortly after if it is still there. */
  kill(): void {
    const pid = this.child.pid;
    if (this.ended || pid === undefined) return;
    signalProcessGroup(pid, "SIGTERM");
    setTimeout(() => {
      if (!this.ended) signalProcessGroup(pid, "SIGKILL");
    }, EXIT_GRACE_MS).unref();
  }
}
