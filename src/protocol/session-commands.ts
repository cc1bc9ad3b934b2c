// pith's commands for hosts that manage sessions: discovery, the tree (oh-my-pi's
// shapes), open/delete, and many sessions in one process. Spread into COMMAND_SCHEMAS and
// RESPONSE_DATA_SCHEMAS.
import Type, { type Static } from "typebox";
import { command } from "./command-schema.js";

const Str = Type.String();
const Num = Type.Number();
const Bool = Type.Boolean();
const Opt = Type.Optional;


export const SESSION_COMMAND_SCHEMAS = {
  /** Answered with `{sessions, nextCursor?}`, newest first. */
  list_sessions: command(
    "list_sessions",
    {
      cwd: Opt(Type.String({ description: "List this project's folder instead of the process's session folder." })),
      all: Opt(Type.Boolean({ description: "List every project folder under PITH_HOME/sessions." })),
      limit: Opt(Type.Integer({ description: "Page size, 1 to 10,000 (default 100)." })),
      cursor: Opt(Type.String({ description: "nextCursor of the previous page." })),
      query: Opt(Type.String({ description: "Case-insensitive match on name and first message." })),
    },
    "List session files (header and a byte scan; cached by size and mtime).",
  ),
  /** Answered with `{entries, leafId}`; an unknown `since` fails with `code: "unknown_since"`. */
  get_entries: command("get_entries", { since: Opt(Str) }, "Every entry of the open session file, or those after `since`."),
  /** Answered with `{tree, leafId}`: nodes `{entry, children, label?}`. */
  get_tree: command("get_tree", {}, "The open session's entries as a tree."),
  /** Answered with `{cancelled, resumed, sessionId, sessionFile?}`. */
  open_session: command("open_session", { sessionDir: Str }, "Resume the newest session of a folder, or start one there."),
  /** Answered with `{path}` of the deleted file; refuses open sessions and non-session files. */
  delete_session: command("delete_session", { sessionPath: Str }, "Delete a session file nobody has open."),
  /** Answered with `{sessionId, sessionFile?}` once the new session is ready to take commands. */
  create_session: command(
    "create_session",
    {
      cwd: Opt(Type.String({ description: "Working folder of the session (default: the process's)." })),
      sessionPath: Opt(Type.String({ description: "Open (or create at) this session file instead of a new one." })),
      provider: Opt(Type.String({ description: "With modelId: the model (default: the addressed session's current model)." })),
      modelId: Opt(Str),
      noSession: Opt(Type.Boolean({ description: "Keep the session in memory only." })),
    },
    "Open another independent session in this process; address it with sessionId.",
  ),
  /** Answered without data once the session has stopped, flushed its file and released its lock. */
  close_session: command("close_session", {}, "Close the session named by sessionId (never the first one)."),
  /** Answered with `{sessions}`. */
  get_open_sessions: command("get_open_sessions", {}, "The sessions open in this process."),
} as const;

export const CreateSessionParamsSchema = Type.Omit(SESSION_COMMAND_SCHEMAS.create_session, ["id", "type", "sessionId"]);
export type CreateSessionParams = Static<typeof CreateSessionParamsSchema>;

/** An entry of the session file: `{type, id, parentId, timestamp, ...}`. */
const SessionEntrySchema = Type.Unknown({ description: "SessionEntry: {type, id, parentId, timestamp, ...fields of its type}" });

export const SessionSummarySchema = Type.Object({
  path: Str,
  id: Str,
  name: Opt(Str),
  cwd: Str,
  createdAt: Str,
  modifiedAt: Str,
  messageCount: Num,
  firstMessage: Opt(Str),
  parentSession: Opt(Str),
});

export const CreateSessionResultSchema = Type.Object({ sessionId: Str, sessionFile: Opt(Str) });
export type CreateSessionResult = Static<typeof CreateSessionResultSchema>;
export const OpenSessionInfoSchema = Type.Object({
  sessionId: Str,
  isDefault: Bool,
  sessionFile: Opt(Str),
  cwd: Str,
  model: Opt(Type.Object({ provider: Str, id: Str })),
  isStreaming: Bool,
});
export type OpenSessionInfo = Static<typeof OpenSessionInfoSchema>;

export const SESSION_RESPONSE_SCHEMAS = {
  list_sessions: Type.Object({ sessions: Type.Array(SessionSummarySchema), nextCursor: Opt(Str) }),
  get_entries: Type.Object({ entries: Type.Array(SessionEntrySchema), leafId: Type.Union([Str, Type.Null()]) }),
  get_tree: Type.Object({
    tree: Type.Array(Type.Unknown({ description: "SessionTreeNode: {entry, children: SessionTreeNode[], label?}" })),
    leafId: Type.Union([Str, Type.Null()]),
  }),
  open_session: Type.Object({ cancelled: Bool, resumed: Bool, sessionId: Str, sessionFile: Opt(Str) }),
  delete_session: Type.Object({ path: Str }),
  create_session: CreateSessionResultSchema,
  close_session: Type.Undefined(),
  get_open_sessions: Type.Object({ sessions: Type.Array(OpenSessionInfoSchema) }),
} as const;
