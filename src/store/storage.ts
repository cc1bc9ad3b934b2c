// Where sessions live: the one interface through which the session opens, creates, lists, finds
// and deletes sessions. Opening takes the session's writer lock (a second opener gets a "busy"
// error); `close()` on the log releases it. Two implementations: JSONL files in folders (the
// default, jsonl-storage.ts) and a PostgreSQL database shared by several machines (postgres/).
//
// A session is named by a reference: a file path for JSONL, `pg:<session id>` for the database.
// A "dir" groups sessions the way a folder does (list_sessions, --continue, open_session): a
// folder path for JSONL, the same string used as a group key in the database.
import type { ListSessionsResult } from "./session-list.js";
import type { SessionLog } from "./session-log.js";

/** What `list_sessions` asks for. */
export interface SessionQuery {
  /** The groups (folders) listed. */
  dirs: readonly string[];
  /** Every group of the store as well (`list_sessions {all: true}`); `pithHome` holds JSONL's folders. */
  all?: { pithHome: string };
  /** Page size (default 100, at most 10,000). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** Case-insensitive match on the name and the first message. */
  query?: string;
}

/** Complete lines of a session in its JSONL form from a byte offset (`get_subagent_messages`). */
export interface SessionTail {
  /** Whole lines, each ending with LF (empty when there is nothing new). */
  text: string;
  fromByte: number;
  nextByte: number;
  /** The offset lay past the end (the session was replaced): read from 0 again. */
  reset: boolean;
}

export interface SessionStorage {
  /** "jsonl" or "postgres": what hosts are told sessions are stored in. */
  readonly kind: "jsonl" | "postgres";
  /** A new session, written lazily (on the first reply) into `dir`; in memory when `dir` is undefined. */
  create(options: { dir: string | undefined; cwd: string; parentSession?: string }): SessionLog;
  /** A new session named exactly `ref`, which must not exist yet. */
  createAt(ref: string, options: { cwd: string }): SessionLog;
  /** Loads an existing session and takes its writer lock. Missing → "not_found"; locked → "busy". */
  open(ref: string, options: { cwd: string; readOnly?: boolean }): SessionLog;
  /** Whether `ref` names an existing session. */
  exists(ref: string): boolean;
  /** The most recently modified session of `dir` (for `--continue`), if any. */
  mostRecent(dir: string): string | undefined;
  /** The group new sessions started in `cwd` go to by default. */
  dirFor(pithHome: string, cwd: string): string;
  /** A reference a host gave (`switch_session`, `delete_session`, `create_session`) in canonical form. */
  resolve(ref: string, cwd: string): string;
  /**
   * `--session <arg>` (and ACP's session ids): a reference, or a case-insensitive prefix of a
   * session id searched in `dir`, then (with `pithHome`) in the other groups, where a match is
   * refused as "in another project". No match → "not_found".
   */
  find(arg: string, o: { dir: string; cwd: string; pithHome?: string }): string;
  /** One page of session summaries, newest first. */
  list(q: SessionQuery): Promise<ListSessionsResult>;
  /** The newest session of `dir` that holds a message (`open_session`). */
  newestWithMessages(dir: string): Promise<string | undefined>;
  /** Whether session `ref` belongs to group `dir`. */
  inDir(ref: string, dir: string): boolean;
  /** Deletes a session nobody holds; resolves with the reference deleted. */
  delete(ref: string, cwd: string): string;
  /** A session's complete lines from `fromByte` of its JSONL form (a missing session has none). */
  readTail(ref: string, fromByte: number): Promise<SessionTail>;
}
