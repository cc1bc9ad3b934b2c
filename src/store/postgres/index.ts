// Sessions in PostgreSQL (`--session-store postgres://…`): loaded only when a database store is
// configured; the driver itself runs in a worker thread (worker.ts, bundled as pg-worker.js).
export { createPostgresStorage, type DatabaseStorage } from "./db-storage.js";
export { isDatabaseUrl } from "./store-url.js";
export { sessionFilesUnder, type ImportResult, type ExportResult } from "./transfer.js";
