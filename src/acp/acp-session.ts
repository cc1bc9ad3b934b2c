// One ACP session: a pith AgentSession, its update translator and its prompt turn.
import type { AgentSession } from "../session/index.js";
import { errorMessage } from "../shared/errors.js";
import { createAcpUi, type DialogPort, type PermissionAsk } from "./dialogs.js";
import { createAcpPermissionAsker } from "./permissions.js";
import type { HostedAcpSession } from "./host.js";
import { promptMessage, type PromptBlock } from "./prompt-content.js";
import { FileJournal, UpdateTranslator, type AcpUpdate } from "./session-updates.js";

export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

/** How the session reaches the client (the connection's notify/request, bound to this session id). */
export interface ClientPort {
  notify(update: AcpUpdate): Promise<void>;
  requestPermission(ask: PermissionAsk): Promise<string | undefined>;
  readFile(path: string): Promise<string | undefined>;
  log(message: string): void;
}

export class PromptError extends Error {}

export class AcpSession {
  readonly session: AgentSession;
  private readonly translator: UpdateTranslator;
  /** The last notification sent: a turn answers only after every update it caused went out. */
  private sent: Promise<void> = Promise.resolve();
  private turn: { cancelled: boolean } | undefined;
  private dialogCounter = 0;

  constructor(
    readonly id: string,
    private readonly hosted: HostedAcpSession,
    private readonly client: ClientPort,
    journal?: FileJournal,
  ) {
    this.session = hosted.session;
    this.translator = new UpdateTranslator(this.session.cwd, journal);
    this.session.subscribe((event) => {
      for (const u of this.translator.translate(event)) this.send(u);
    });
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** Attaches extensions with dialogs that become permission requests, then announces commands. */
  async start(): Promise<void> {
    const port: DialogPort = {
      askPermission: (ask) => this.client.requestPermission(ask),
      update: (u) => this.send(u),
    };
    const ui = createAcpUi(port, () => `dialog-${++this.dialogCounter}`);
    // Approval dialogs of the permission rules go to the editor as permission requests.
    this.session.setPermissionAsker(createAcpPermissionAsker(port));
    await this.hosted.attachExtensions({
      ui,
      hasUI: true,
      onError: (info) => this.client.log(`Extension error (${info.extensionPath}): ${info.error}`),
      onPromptError: (_command, error) => this.send({ sessionUpdate: "notice", severity: "error", title: "Extension prompt failed", description: error }),
    });
  }

  /** `available_commands_update` from the extensions' slash commands (none → nothing sent). */
  async announceCommands(): Promise<void> {
    const listed = await this.session.handle({ type: "get_commands" }).catch((err: unknown) => {
      this.client.log(`listing commands failed: ${errorMessage(err)}`);
      return { commands: [] };
    });
    const commands = listed.commands.map((c) => ({ name: c.name, description: c.description ?? `/${c.name}`, input: { hint: "arguments" } }));
    if (commands.length > 0) this.send({ sessionUpdate: "available_commands_update", availableCommands: commands });
  }

  send(update: AcpUpdate): void {
    const next = this.client.notify(update).catch((err) => this.client.log(`session/update failed: ${errorMessage(err)}`));
    this.sent = this.sent.then(() => next);
  }

  /** Sends updates and waits until they are written (for replays). */
  async flush(): Promise<void> {
    await this.sent;
  }

  /** One `session/prompt` turn: runs the message and every continuation, then says why it stopped. */
  async prompt(blocks: readonly PromptBlock[]): Promise<StopReason> {
    if (this.turn) throw new PromptError("A prompt is already running in this session; cancel it first.");
    const turn = { cancelled: false };
    this.turn = turn;
    this.translator.forgetLast();
    try {
      const message = await promptMessage(blocks, (p) => this.client.readFile(p));
      // An editor's prompt is typed by its user: extensions see it as interactive input.
      const handle = this.session.prompt(message.text, { images: message.images, source: "interactive" });
      await handle.accepted;
      await handle.done;
    } catch (err) {
      if (!turn.cancelled) {
        for (const u of this.translator.closeOpen()) this.send(u);
        await this.sent;
        throw new PromptError(errorMessage(err));
      }
    } finally {
      this.turn = undefined;
    }
    for (const u of this.translator.closeOpen()) this.send(u);
    await this.sent;
    const last = this.translator.lastAssistantMessage();
    if (turn.cancelled || last?.stopReason === "aborted") return "cancelled";
    if (last?.stopReason === "error") throw new PromptError(last.errorMessage ?? "The model request failed");
    if (last?.stopReason === "length") return "max_tokens";
    return "end_turn";
  }

  /** `session/cancel`: aborts the run; the pending prompt answers `cancelled`. */
  async cancel(): Promise<void> {
    if (this.turn) this.turn.cancelled = true;
    await this.session.handle({ type: "abort" });
  }

  async close(): Promise<void> {
    await this.cancel();
    await this.session.close();
  }
}
