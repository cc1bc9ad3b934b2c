// Session files and history (spec/protocol.md §3.6, §3.22–3.29, pi's fork/clone dialect).
import { PithError } from "../../shared/errors.js";
import { branchSession, cloneSession, newSession, switchSession } from "../../session/session-switching.js";
import { computeSessionStats } from "../../session/stats.js";
import { sanitizeSessionName } from "../../session/store/session-name.js";
import type { CommandHandler } from "./types.js";

export const new_session: CommandHandler<"new_session"> = (cmd, ctx) => newSession(ctx.session, cmd.parentSession);
export const switch_session: CommandHandler<"switch_session"> = (cmd, ctx) => switchSession(ctx.session, cmd.sessionPath);
export const branch: CommandHandler<"branch"> = (cmd, ctx) => branchSession(ctx.session, cmd.entryId);
export const fork: CommandHandler<"fork"> = (cmd, ctx) => branchSession(ctx.session, cmd.entryId);
export const clone: CommandHandler<"clone"> = (_cmd, ctx) => cloneSession(ctx.session);

export const get_branch_messages: CommandHandler<"get_branch_messages"> = (_cmd, ctx) => ({
  messages: ctx.session.rt.store.userMessageEntries(),
});
export const get_fork_messages: CommandHandler<"get_fork_messages"> = (_cmd, ctx) => ({
  messages: ctx.session.rt.store.userMessageEntries(),
});

export const get_messages: CommandHandler<"get_messages"> = (_cmd, ctx) => ({ messages: ctx.session.messages });

export const get_last_assistant_text: CommandHandler<"get_last_assistant_text"> = (_cmd, ctx) => {
  const text = ctx.session.lastAssistantText();
  return text === undefined ? {} : { text };
};

export const set_session_name: CommandHandler<"set_session_name"> = (cmd, ctx) => {
  const name = sanitizeSessionName(cmd.name);
  ctx.session.rt.store.setName(name);
};

export const get_session_stats: CommandHandler<"get_session_stats"> = (_cmd, ctx) => {
  const store = ctx.session.rt.store;
  return computeSessionStats(ctx.session.messages, { sessionFile: store.path, sessionId: store.sessionId });
};

export const export_html: CommandHandler<"export_html"> = async (cmd, ctx) => {
  const session = ctx.session;
  if (!session.rt.store.path) throw new PithError("invalid_request", "Cannot export in-memory session to HTML");
  session.rt.store.ensureOnDisk();
  // Imported on first use: the renderer and its styles are not needed before `ready`.
  const { exportSessionHtml } = await import("../../session/export-html/index.js");
  const path = await exportSessionHtml(session.rt.store, {
    outputPath: cmd.outputPath,
    cwd: session.deps.cwd,
    systemPrompt: session.systemPrompt,
    tools: session.activeTools().map((t) => ({ name: t.name, description: t.description })),
  });
  return { path };
};
