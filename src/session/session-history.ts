// The session file and its tree as a host sees them: new_session,
// switch_session, branch (pi: fork), clone, the name, the user messages one can branch from, the
// stats and the HTML export. Unlike the reference, a running turn is aborted with its closing
// events visible: the host always sees the run end before the session changes.
import type { ExtensionRunner, PiSessionEntry } from "../extensions/index.js";
import { PithError } from "../shared/errors.js";
import type { AgentMessage } from "../shared/types.js";
import type { Conversation } from "./conversation.js";
import { toPiEntry } from "./extension-session-view.js";
import { computeSessionStats, contextUsage, type SessionStats } from "./stats.js";
import type { UserMessageRef } from "../store/branching.js";
import { contentText } from "../store/message-text.js";
import type { SessionEntry, SessionHeader } from "../store/entry-types.js";
import type { SessionLog } from "../store/session-log.js";
import type { SessionStorage } from "../store/storage.js";

type SwitchReason = "new" | "resume" | "fork";

export interface SessionHistoryOptions {
  conversation: Conversation;
  storage: SessionStorage;
  cwd: string;
  /** Where new sessions are written; undefined keeps them in memory. */
  sessionDir: string | undefined;
  runner(): ExtensionRunner | undefined;
  /** Stops the run and everything scheduled after it; resolves once idle. */
  quiesce(): Promise<void>;
  /** Puts another log in place (pending records and context follow). */
  replaceLog(log: SessionLog): void;
  /** Drops queued steering and follow-up messages (new and switched sessions start empty). */
  clearQueues(): void;
  /** What the HTML export shows besides the conversation. */
  exportInfo(): { systemPrompt: string; tools: Array<{ name: string; description: string }> };
  log(message: string): void;
}

export class SessionHistory {
  private readonly conversation: Conversation;
  private dir: string | undefined;

  constructor(private readonly o: SessionHistoryOptions) {
    this.conversation = o.conversation;
    this.dir = o.sessionDir;
  }

  /** Where new sessions are written (undefined: in memory); `open_session` moves it. */
  get sessionDir(): string | undefined {
    return this.dir;
  }
  /** The open session file (tree reads: `get_entries`, `get_tree`). */
  get log(): SessionLog {
    return this.conversation.log;
  }

  get sessionId(): string {
    return this.conversation.log.sessionId;
  }
  /** Absent for in-memory sessions. */
  get sessionFile(): string | undefined {
    return this.conversation.log.path;
  }
  get sessionName(): string | undefined {
    return this.conversation.log.name;
  }
  get header(): Readonly<SessionHeader> {
    return this.conversation.log.header;
  }
  /** Where the next entry attaches (`get_entries`, `get_tree`, message paging). */
  get leafId(): string | null {
    return this.conversation.log.leafId;
  }
  /** Every entry of the file, in file order (`get_entries`, `get_tree`). */
  entries(): readonly SessionEntry[] {
    return this.conversation.log.entries();
  }
  /** The label set on an entry, if any. */
  label(id: string): string | undefined {
    return this.conversation.log.getLabel(id);
  }
  /** The in-memory context (`get_messages`). */
  get messages(): AgentMessage[] {
    return this.conversation.messages;
  }

  /** `new_session`: a fresh session file; queues and todos cleared. */
  async newSession(parentSession?: string, dir?: string): Promise<{ cancelled: boolean }> {
    if (await this.beforeSwitch("new")) return { cancelled: true };
    await this.o.quiesce();
    const previous = this.sessionFile;
    if (dir !== undefined) this.dir = dir;
    const log = this.o.storage.create({ dir: this.dir, cwd: this.o.cwd, parentSession });
    this.o.clearQueues();
    this.o.replaceLog(log);
    this.conversation.todos.set([]);
    // The level is recorded (in memory until the first reply), so a later
    // switch back restores it; no model_change: the first assistant message records the model
    const level = this.conversation.thinkingLevel;
    if (level !== undefined) log.append({ type: "thinking_level_change", thinkingLevel: level });
    await this.afterSwitch("new", previous);
    return { cancelled: false };
  }

  /** `switch_session`: load another session file (a missing or non-session file is an error). */
  async switchTo(sessionPath: unknown): Promise<{ cancelled: boolean }> {
    if (typeof sessionPath !== "string" || sessionPath.trim() === "") {
      throw new PithError("invalid_request", 'Invalid "sessionPath": expected a non-empty string');
    }
    const resolved = this.o.storage.resolve(sessionPath, this.o.cwd);
    if (resolved === this.sessionFile) return { cancelled: false };
    if (await this.beforeSwitch("resume", resolved)) return { cancelled: true };
    // Open first: a file that cannot be loaded leaves the current session untouched.
    const log = this.o.storage.open(resolved, { cwd: this.o.cwd });
    for (const w of log.warnings) this.o.log(w);
    await this.o.quiesce();
    const previous = this.sessionFile;
    this.o.clearQueues();
    this.o.replaceLog(log);
    await this.afterSwitch("resume", previous);
    return { cancelled: false };
  }

  /** `branch` / `fork`: a new session file holding the history before a user message. */
  async branch(entryId: unknown): Promise<{ text: string; cancelled: boolean }> {
    if (typeof entryId !== "string") throw new PithError("invalid_request", "Invalid entry ID for branching");
    const source = this.conversation.log;
    const entry = source.getEntry(entryId);
    if (!entry || entry.type !== "message" || entry.message.role !== "user") {
      throw new PithError("invalid_request", "Invalid entry ID for branching");
    }
    if (await this.beforeFork(entryId, "before")) {
      return { text: source.userMessageEntries().find((e) => e.entryId === entryId)?.text ?? "", cancelled: true };
    }
    await this.o.quiesce();
    const { store, text } = source.branchToNewFile(entryId);
    const previous = source.path;
    this.o.replaceLog(store);
    await this.afterSwitch("fork", previous);
    return { text, cancelled: false };
  }

  /** pi's `clone`: duplicate the current branch into a new session file. */
  async clone(): Promise<{ cancelled: boolean }> {
    const leaf = this.conversation.log.leafId;
    if (leaf !== null && (await this.beforeFork(leaf, "at"))) return { cancelled: true };
    return this.copyBranch(undefined);
  }

  /** pi's `fork(entryId, {position: "at"})`: a new session file holding the branch up to and including `entryId`. */
  async forkAt(entryId: unknown): Promise<{ cancelled: boolean }> {
    if (typeof entryId !== "string" || !this.conversation.log.getEntry(entryId)) throw new PithError("invalid_request", "Invalid entry ID for forking");
    if (await this.beforeFork(entryId, "at")) return { cancelled: true };
    return this.copyBranch(entryId);
  }

  /** Copies the branch ending at `entryId` (the leaf once the run stopped, when undefined) into a new file. */
  private async copyBranch(entryId: string | undefined): Promise<{ cancelled: boolean }> {
    await this.o.quiesce();
    const log = this.conversation.log;
    const previous = this.sessionFile;
    const leaf = log.leafId;
    if (entryId !== undefined) log.moveLeaf(entryId);
    let copy: SessionLog;
    try {
      copy = log.cloneToNewFile();
    } finally {
      log.moveLeaf(leaf);
    }
    this.o.replaceLog(copy);
    await this.afterSwitch("fork", previous);
    return { cancelled: false };
  }

  /** `get_branch_messages`: every user message of the file one can branch from. */
  branchMessages(): UserMessageRef[] {
    return this.conversation.log.userMessageEntries();
  }

  /** `set_session_name`: sanitised and recorded (`Session name cannot be empty`); extensions hear `session_info_changed`. */
  setName(name: string): void {
    const log = this.conversation.log;
    log.setName(name);
    void this.o.runner()?.emit({ type: "session_info_changed", name: log.name });
  }

  /** `get_session_stats` over the in-memory context. */
  stats(): SessionStats {
    const log = this.conversation.log;
    const messages = this.conversation.messages;
    const stats = computeSessionStats(messages, { sessionFile: log.path, sessionId: log.sessionId, skippedEntries: log.skippedEntries });
    const usage = contextUsage(messages, this.conversation.model?.contextWindow);
    return usage ? { ...stats, contextUsage: usage } : stats;
  }

  /** The text of the last assistant reply, if it has any (an empty aborted reply is skipped). */
  lastAssistantText(): string | undefined {
    const messages = this.conversation.messages;
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (m.role !== "assistant") continue;
      if (m.stopReason === "aborted" && m.content.length === 0) continue;
      return contentText(m.content).trim() || undefined;
    }
    return undefined;
  }

  /** `export_html`: the session file as one self-contained HTML page; resolves with its path. */
  async exportHtml(outputPath?: string): Promise<string> {
    const log = this.conversation.log;
    if (!log.path) throw new PithError("invalid_request", "Cannot export in-memory session to HTML");
    log.ensureOnDisk();
    // Imported on first use: the renderer and its styles are not needed before `ready`.
    const { exportSessionHtml } = await import("./export-html/index.js");
    const info = this.o.exportInfo();
    return exportSessionHtml(log, { outputPath, cwd: this.o.cwd, systemPrompt: info.systemPrompt, tools: info.tools });
  }

  /**
   * pi's tree navigation inside the open file: the next entry attaches to `targetId` (to its
   * parent for a user message, whose text the host may send again). Extensions may cancel it
   * (`session_before_tree`, which lists the entries of the branch left behind) and hear
   * `session_tree`. With `summarize`, a `session_before_tree` handler gives the summary of that
   * branch and it is recorded as a `branch_summary` entry; pith writes no summary of its own.
   */
  async navigateTree(targetId: unknown, options: { summarize?: boolean; label?: string } = {}): Promise<{ cancelled: boolean }> {
    const log = this.conversation.log;
    const entry = typeof targetId === "string" ? log.getEntry(targetId) : undefined;
    if (!entry) throw new PithError("invalid_request", `Entry ${String(targetId)} not found`);
    const oldLeafId = log.leafId;
    const newLeafId = entry.type === "message" && entry.message.role === "user" ? entry.parentId : entry.id;
    const ext = this.o.runner();
    let summary: { summary: string; details?: unknown } | undefined;
    if (ext?.hasHandlers("session_before_tree")) {
      const left = leftBehind(log.branch(), newLeafId === null ? [] : log.branch(newLeafId));
      const preparation = { targetId: entry.id, oldLeafId, ...left, userWantsSummary: options.summarize === true, ...(options.label ? { label: options.label } : {}) };
      const result = await ext.emit({ type: "session_before_tree", preparation, signal: new AbortController().signal });
      if (result?.cancel) return { cancelled: true };
      summary = options.summarize ? result?.summary : undefined;
    }
    if (options.summarize && !summary) {
      throw new PithError("unavailable", "navigateTree: pith does not summarize the branch left behind itself; a session_before_tree handler must return { summary }, or call it without summarize");
    }
    await this.o.quiesce();
    log.moveLeaf(newLeafId);
    const written = summary
      ? log.append({ type: "branch_summary", fromId: oldLeafId ?? "root", summary: summary.summary, ...(summary.details !== undefined ? { details: summary.details } : {}), fromExtension: true })
      : undefined;
    this.conversation.load();
    await ext?.emit({ type: "session_tree", newLeafId: log.leafId, oldLeafId, ...(written ? { summaryEntry: toPiEntry(written), fromExtension: true } : {}) });
    return { cancelled: false };
  }

  private async beforeSwitch(reason: "new" | "resume", target?: string): Promise<boolean> {
    const ext = this.o.runner();
    if (!ext?.hasHandlers("session_before_switch")) return false;
    const result = await ext.emit({ type: "session_before_switch", reason, targetSessionFile: target });
    return result?.cancel === true;
  }

  private async beforeFork(entryId: string, position: "before" | "at"): Promise<boolean> {
    const ext = this.o.runner();
    if (!ext?.hasHandlers("session_before_fork")) return false;
    const result = await ext.emit({ type: "session_before_fork", entryId, position });
    return result?.cancel === true;
  }

  /**
   * pi's lifecycle after a session replacement: the extensions hear `session_shutdown` (with the
   * file they move to) and then `session_start` (with the file they left), both with the reason.
   */
  private async afterSwitch(reason: SwitchReason, previous: string | undefined): Promise<void> {
    const ext = this.o.runner();
    if (!ext) return;
    await ext.emit({ type: "session_shutdown", reason, ...(this.sessionFile ? { targetSessionFile: this.sessionFile } : {}) });
    await ext.emit({ type: "session_start", reason, ...(previous ? { previousSessionFile: previous } : {}) });
  }
}

/** The part of the old branch a move leaves behind: the entries after the deepest one both branches share. */
function leftBehind(oldBranch: SessionEntry[], newBranch: SessionEntry[]): { commonAncestorId: string | null; entriesToSummarize: PiSessionEntry[] } {
  const kept = new Set(newBranch.map((e) => e.id));
  let common = -1;
  for (let i = 0; i < oldBranch.length && kept.has(oldBranch[i].id); i++) common = i;
  return { commonAncestorId: common >= 0 ? oldBranch[common].id : null, entriesToSummarize: oldBranch.slice(common + 1).map(toPiEntry) };
}
