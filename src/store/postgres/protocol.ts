// What the store's main-thread side and its database worker say to each other: one request per
// operation, one answer, both structured-cloned through a MessagePort.

/** A session row as created. */
export interface NewSessionRow {
  id: string;
  dir: string;
  cwd: string;
  /** The header line as written, without its LF. */
  header: string;
  createdAt: string;
  name: string | null;
  firstMessage: string | null;
  messageCount: number;
  parentSession: string | null;
}

/** One entry as stored: its line and the small fields the index is rebuilt from. */
export interface EntryRow {
  seq: number;
  entryId: string;
  parentId: string | null;
  type: string;
  role: string | null;
  customType: string | null;
  firstKept: string | null;
  labelTarget: string | null;
  label: string | null;
  infoName: string | null;
  /** Where the line starts in the session's JSONL form. */
  offset: number;
  /** The entry's JSON line as written, without its LF. */
  line: string;
}

/** Columns of every entry of a session in file order: what an index is built from. */
export interface IndexColumns {
  header: string;
  dir: string;
  /** The session's size as a JSONL file. */
  bytes: number;
  ids: string[];
  parents: (string | null)[];
  types: string[];
  roles: (string | null)[];
  customTypes: (string | null)[];
  firstKept: (string | null)[];
  labelTargets: (string | null)[];
  labels: (string | null)[];
  infoNames: (string | null)[];
  /** Bytes of each line (without its LF). */
  lengths: number[];
}

/** One row of a listing. */
export interface SummaryRow {
  id: string;
  dir: string;
  cwd: string;
  createdAt: string;
  modifiedMs: number;
  name: string | null;
  firstMessage: string | null;
  messageCount: number;
  parentSession: string | null;
}

export interface ListArgs {
  dirs: string[];
  all: boolean;
  /** Rows asked for (the caller asks one more than a page to learn whether more follow). */
  limit: number;
  /** Keyset cursor: rows strictly after this one in (modified desc, id asc) order. */
  after: { modifiedMs: number; id: string } | null;
  /** Lower-cased text matched in the name and the first message. */
  needle: string | null;
}

export interface AppendArgs {
  sessionId: string;
  row: EntryRow;
  /** 1 when the entry is a message (counted by listings). */
  isMessage: number;
  /** The first user message's text, when this is it. */
  firstMessage: string | null;
  /** The session's size as a JSONL file after this line. */
  bytes: number;
}

/** Who holds a writer lock, as a refusal names it. */
export interface HolderRow {
  host: string;
  pid: number;
  since: string;
}

export type LockAnswer = { taken: true } | { taken: false; holder: HolderRow | null };
export type DeleteAnswer = { deleted: true } | { deleted: false; missing: true } | { deleted: false; holder: HolderRow | null };

/** A request to the worker. `sync`: the main thread is blocked waiting for the answer. */
export interface Request {
  id: number;
  op: string;
  args: unknown[];
  /** Epoch ms after which the worker stops retrying (reconnects included). */
  deadline: number;
  sync: boolean;
}

export type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; code: string; message: string };

/** What the worker is started with. */
export interface WorkerInit {
  url: string;
  /** The PG* variables (and HOME, for ~/.pgpass) of pith's environment. */
  env: Record<string, string>;
  host: string;
  pid: number;
  reconnectMs: number;
  /** Texts never to let out in an error (the URL, its password). */
  secrets: string[];
}
