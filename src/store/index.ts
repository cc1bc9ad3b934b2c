// Public surface of the session store.
export * from "./entry-types.js";
export { SessionStore, type CreateSessionOptions, type OpenSessionOptions, type StoreWriteOptions } from "./session-store.js";
export type { UserMessageRef } from "./branching.js";
export type { SessionLog } from "./session-log.js";
export { createJsonlStorage } from "./jsonl-storage.js";
export type { SessionStorage, SessionQuery, SessionTail } from "./storage.js";
export { buildSessionContext, type SessionContext } from "./build-context.js";
export { migrate, isHeaderRecord, type MigrationResult } from "./migrate.js";
export { releaseAllLocks } from "./lock.js";
export type { FsyncMode } from "./session-file-writer.js";
export { sanitizeSessionName } from "./session-name.js";
export { contentText } from "./message-text.js";
export { cwdSlug, sessionDirFor, newSessionFileName, findMostRecentSession, resolveSessionArg, hasSessionHeader } from "./layout.js";
