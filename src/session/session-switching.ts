// new_session, switch_session, branch (pi: fork) and clone (spec/engine.md §1.9). Unlike the
// reference, a running turn is aborted with its closing events visible: the host always sees
// the run end before the session changes.
import path from "node:path";
import { PithError } from "../shared/errors.js";
import type { AgentSession } from "./agent-session.js";
import { SessionStore } from "./store/session-store.js";

async function beforeSwitch(session: AgentSession, reason: "new" | "resume" | "fork", target?: string): Promise<boolean> {
  const ext = session.deps.extensions;
  if (!ext?.hasHandlers("session_before_switch")) return false;
  const result = await ext.emit({ type: "session_before_switch", reason, targetSessionFile: target });
  return result?.cancel === true;
}

function afterSwitch(session: AgentSession, reason: "new" | "resume" | "fork", previous: string | undefined): void {
  void session.deps.extensions?.emit({ type: "session_switch", reason, previousSessionFile: previous });
}

async function quiesce(session: AgentSession): Promise<void> {
  await session.abort();
  session.retry.reset();
}

/** `new_session`: a fresh session file; queues and todos cleared. */
export async function newSession(session: AgentSession, parentSession?: string): Promise<{ cancelled: boolean }> {
  if (await beforeSwitch(session, "new")) return { cancelled: true };
  await quiesce(session);
  const previous = session.rt.store.path;
  const dir = session.deps.sessionDir;
  const store = dir
    ? SessionStore.create({ sessionDir: dir, cwd: session.deps.cwd, parentSession })
    : SessionStore.inMemory({ cwd: session.deps.cwd, parentSession });
  session.queues.clear();
  session.rt.replaceStore(store);
  session.rt.todos.set([]);
  // engine.md §1.9.1 step 4: the level is recorded (in memory until the first reply), so a later
  // switch back restores it; no model_change: the first assistant message records the model
  const level = session.rt.thinkingLevel;
  if (level !== undefined) store.appendThinkingLevelChange(level);
  afterSwitch(session, "new", previous);
  return { cancelled: false };
}

/** `switch_session`: load another session file (a missing or non-session file is an error). */
export async function switchSession(session: AgentSession, sessionPath: unknown): Promise<{ cancelled: boolean }> {
  if (typeof sessionPath !== "string" || sessionPath.trim() === "") {
    throw new PithError("invalid_request", 'Invalid "sessionPath": expected a non-empty string');
  }
  const resolved = path.resolve(session.deps.cwd, sessionPath);
  if (resolved === session.rt.store.path) return { cancelled: false };
  if (await beforeSwitch(session, "resume", resolved)) return { cancelled: true };
  // Open first: a file that cannot be loaded leaves the current session untouched.
  const store = SessionStore.open(resolved, { cwd: session.deps.cwd });
  for (const w of store.warnings) session.deps.log(w);
  await quiesce(session);
  const previous = session.rt.store.path;
  session.queues.clear();
  session.rt.replaceStore(store);
  afterSwitch(session, "resume", previous);
  return { cancelled: false };
}

/** `branch` / `fork`: a new session file holding the history before a user message. */
export async function branchSession(session: AgentSession, entryId: unknown): Promise<{ text: string; cancelled: boolean }> {
  if (typeof entryId !== "string") throw new PithError("invalid_request", "Invalid entry ID for branching");
  const source = session.rt.store;
  const entry = source.getEntry(entryId);
  if (!entry || entry.type !== "message" || entry.message.role !== "user") {
    throw new PithError("invalid_request", "Invalid entry ID for branching");
  }
  const ext = session.deps.extensions;
  if (ext?.hasHandlers("session_before_branch")) {
    const result = await ext.emit({ type: "session_before_branch", entryId });
    if (result?.cancel) return { text: textOf(source, entryId), cancelled: true };
  }
  await quiesce(session);
  const { store, text } = source.branchToNewFile(entryId);
  const previous = source.path;
  session.rt.replaceStore(store);
  void ext?.emit({ type: "session_branch", previousSessionFile: previous });
  return { text, cancelled: false };
}

/** pi's `clone`: duplicate the current branch into a new session file. */
export async function cloneSession(session: AgentSession): Promise<{ cancelled: boolean }> {
  if (await beforeSwitch(session, "fork")) return { cancelled: true };
  await quiesce(session);
  const previous = session.rt.store.path;
  const store = session.rt.store.cloneToNewFile();
  session.rt.replaceStore(store);
  afterSwitch(session, "fork", previous);
  return { cancelled: false };
}

function textOf(store: SessionStore, entryId: string): string {
  return store.userMessageEntries().find((e) => e.entryId === entryId)?.text ?? "";
}
