// `pith sessions import <folder>` and `pith sessions export <dir>`: sessions moved between JSONL
// session files and the session database named by --session-store (else PITH_SESSION_STORE, else
// the global setting sessionStore). Import reads every `*.jsonl` under the folder (a session file
// given directly works too) and skips what is not a session or is already in the database; export
// writes every session of the database into `<dir>/<cwd-slug>/<time>_<id>.jsonl` (the layout of
// PITH_HOME/sessions) and never writes over a different file. Each entry's line is kept byte for
// byte both ways. One line per session on stdout; exit 1 when anything could not be moved.
import path from "node:path";
import { errorMessage } from "../shared/errors.js";
import { CliError, parseArgs } from "./args.js";
import { pithHomeOf, type Environment } from "./compose.js";
import { readSettingsLayer, settingsPaths } from "./settings.js";
import { sessionStoreSetting } from "./session-store.js";

export const SESSIONS_USAGE = `Usage:
  pith sessions import <folder> [--session-store postgres://...]   JSONL session files into the database
  pith sessions export <dir> [--session-store postgres://...]      every session of the database into <dir>
The database is --session-store, else PITH_SESSION_STORE, else the global setting sessionStore.
`;

type Out = (line: string) => void;

/** Runs `pith sessions …` (argv after "sessions"); the exit code. */
export async function runSessionsCommand(argv: string[], e: Environment, out: Out): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb !== "import" && verb !== "export") {
    e.log(verb === undefined || verb === "--help" || verb === "-h" ? SESSIONS_USAGE : `Unknown sessions command "${verb}".\n${SESSIONS_USAGE}`);
    return verb === undefined || verb.startsWith("-") ? 0 : 2;
  }
  let args;
  try {
    args = parseArgs(rest);
  } catch (err) {
    if (err instanceof CliError) {
      e.log(err.message);
      return err.exitCode;
    }
    throw err;
  }
  const target = args.messages[0];
  if (args.messages.length !== 1 || target === undefined) {
    e.log(`pith sessions ${verb}: expected one ${verb === "import" ? "folder" : "directory"}.\n${SESSIONS_USAGE}`);
    return 2;
  }
  const pithHome = pithHomeOf(e.env);
  const source = { global: readSettingsLayer("global", settingsPaths(pithHome, e.cwd).globalPath, e.log), finish: <T>(s: T) => s };
  const url = sessionStoreSetting(args, source, e.env);
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    e.log(`pith sessions ${verb} needs a session database: pass --session-store postgres://... (or set PITH_SESSION_STORE)`);
    return 2;
  }
  const { createPostgresStorage, sessionFilesUnder } = await import("../store/postgres/index.js");
  const db = await createPostgresStorage({ url, env: e.env });
  try {
    const folder = path.resolve(e.cwd, target);
    return verb === "import" ? importAll(db, sessionFilesUnder(folder), e, out) : exportAll(db, folder, out);
  } catch (err) {
    e.log(`pith sessions ${verb}: ${errorMessage(err)}`);
    return 1;
  } finally {
    db.close();
  }
}

type Db = Awaited<ReturnType<typeof import("../store/postgres/index.js").createPostgresStorage>>;

function importAll(db: Db, files: string[], e: Environment, out: Out): number {
  let imported = 0;
  let skipped = 0;
  for (const file of files) {
    const r = db.importFile(file);
    for (const note of r.notes) e.log(`${file}: ${note}`);
    if (r.ref) {
      imported++;
      out(`imported ${file} as ${r.ref} (${r.entries} entries)`);
    } else {
      skipped++;
      out(`skipped ${file}: ${r.skipped ?? "not imported"}`);
    }
  }
  out(`${imported} imported, ${skipped} skipped`);
  return 0;
}

function exportAll(db: Db, dir: string, out: Out): number {
  let written = 0;
  let refused = 0;
  db.exportTo(dir, (r) => {
    if (r.skipped) {
      refused++;
      out(`skipped ${r.ref}: ${r.skipped} (${r.file})`);
    } else {
      written++;
      out(`exported ${r.ref} to ${r.file}`);
    }
  });
  out(`${written} exported, ${refused} skipped`);
  return refused > 0 ? 1 : 0;
}
