// A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a temp folder, started
// with `pg_ctl` on a Unix socket in that folder (no TCP port), run as the `postgres` user when
// pith's tests run as root (PostgreSQL refuses root). One cluster serves a whole test run: the
// first test that asks starts it (a folder lock decides who), the others wait for it, and the
// run's global teardown (pg-global-setup.ts) stops it. A machine without PostgreSQL gets the
// reason instead, and the tests that need a database skip with it.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export interface PgCluster {
  socketDir: string;
  dataDir: string;
  /** The password of the `pith` role (also in `passfile`). */
  password: string;
  /** A libpq password file (mode 0600) holding the `pith` role's password. */
  passfile: string;
  /** A database for one test file: `postgres://pith@/<name>?host=<socket dir>&passfile=<file>`. */
  createDatabase(name?: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is dropped, the server is back when this resolves. */
  restart(): void;
  stop(): void;
  start(): void;
}

const ROLE = "pith";
const PASSWORD = "pith-test-secret-7f3a";

/** A PostgreSQL program: on PATH, else in Debian's /usr/lib/postgresql/<version>/bin. */
export function pgBin(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(path.join(root, v, "bin", name))) return path.join(root, v, "bin", name);
  return undefined;
}

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Runs a PostgreSQL program, as `postgres` when we are root. */
function runPg(argv: string[]): string {
  const cmd = asRoot ? ["runuser", "-u", "postgres", "--", ...argv] : argv;
  return execFileSync(cmd[0], cmd.slice(1), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

function giveToPostgres(dir: string): void {
  if (!asRoot) return;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  chownSync(dir, uid, gid);
}

interface Ready {
  socketDir?: string;
  error?: string;
}

/**
 * Creates and starts a cluster in `dir` (which must exist and be empty). `durable: false` turns
 * fsync off (tests); benchmarks keep PostgreSQL's defaults.
 */
export function initCluster(dir: string, o: { durable: boolean }): PgCluster {
  const initdb = pgBin("initdb");
  const pgCtl = pgBin("pg_ctl");
  if (!initdb || !pgCtl) throw new Error("PostgreSQL is not installed (no initdb / pg_ctl on PATH or in /usr/lib/postgresql/*/bin)");
  if (asRoot) {
    try {
      execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
    } catch (err) {
      throw new Error(`running as root and there is no postgres user to run PostgreSQL as (${(err as Error).message})`);
    }
  }
  giveToPostgres(dir);
  const dataDir = path.join(dir, "data");
  const socketDir = path.join(dir, "sock");
  mkdirSync(socketDir);
  giveToPostgres(socketDir);
  runPg([initdb, "-D", dataDir, "-U", "postgres", "--auth-local=trust", "--auth-host=reject", "-E", "UTF8", "--locale=C", "--no-sync"]);
  // the superuser connects without a password (set-up only); pith's role must give one
  writeFileSync(path.join(dataDir, "pg_hba.conf"), "local all postgres trust\nlocal all all scram-sha-256\n");
  const opts = [`-c listen_addresses=''`, `-c unix_socket_directories='${socketDir}'`, "-c max_connections=300"];
  if (!o.durable) opts.push("-c fsync=off", "-c full_page_writes=off");
  const log = path.join(dir, "server.log");
  const ctl = (...args: string[]) => runPg([pgCtl, "-D", dataDir, "-w", "-t", "60", "-l", log, ...args]);
  ctl("-o", opts.join(" "), "start");
  writeFileSync(path.join(dir, "pgpass"), `*:*:*:${ROLE}:${PASSWORD}\n`, { mode: 0o600 });
  execFileSync(pgBin("psql") ?? "psql", ["-h", socketDir, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qc", `CREATE ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${PASSWORD}'`], { stdio: "pipe" });
  return attachCluster(dir);
}

/** Stops the cluster of a test run's folder, if one was started there, and removes the folder. */
export function stopRunCluster(runDir: string): void {
  const dataDir = path.join(runDir, "data");
  const pgCtl = pgBin("pg_ctl");
  if (pgCtl && existsSync(path.join(dataDir, "postmaster.pid"))) {
    try {
      runPg([pgCtl, "-D", dataDir, "-m", "immediate", "-w", "stop"]);
    } catch (err) {
      process.stderr.write(`could not stop the test PostgreSQL cluster in ${runDir}: ${(err as Error).message}\n`);
    }
  }
  rmSync(runDir, { recursive: true, force: true });
}

function waitForFile(file: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (existsSync(file)) return resolve();
    const watcher = watch(path.dirname(file), () => {
      if (!existsSync(file)) return;
      clearTimeout(timer);
      watcher.close();
      resolve();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`no PostgreSQL cluster became ready in ${timeoutMs} ms (${file})`));
    }, timeoutMs);
    if (existsSync(file)) {
      clearTimeout(timer);
      watcher.close();
      resolve();
    }
  });
}

const clusters = new Map<string, Promise<PgCluster | string>>();

/**
 * The test run's shared cluster in `runDir` (started by whoever asks first), or why there is none.
 * Tests skip with the returned string.
 */
export function sharedCluster(runDir: string): Promise<PgCluster | string> {
  let got = clusters.get(runDir);
  if (!got) {
    got = openShared(runDir);
    clusters.set(runDir, got);
  }
  return got;
}

async function openShared(runDir: string): Promise<PgCluster | string> {
  const readyFile = path.join(runDir, "ready.json");
  const clusterDir = path.join(runDir, "cluster");
  let starter = false;
  try {
    mkdirSync(clusterDir);
    starter = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  if (starter) {
    let ready: Ready;
    try {
      ready = { socketDir: initCluster(clusterDir, { durable: false }).socketDir };
    } catch (err) {
      const e = err as Error & { stderr?: string };
      ready = { error: `PostgreSQL cannot start here: ${e.message.split("\n")[0]} ${String(e.stderr ?? "").trim().slice(0, 500)}` };
    }
    writeFileSync(readyFile + ".tmp", JSON.stringify(ready));
    execFileSync("mv", [readyFile + ".tmp", readyFile]);
  } else {
    await waitForFile(readyFile, 180_000);
  }
  const ready = JSON.parse(readFileSync(readyFile, "utf8")) as Ready;
  if (ready.error !== undefined) return ready.error;
  return attachCluster(clusterDir);
}

/** A handle on the cluster started in `dir` (by this process or another). */
function attachCluster(dir: string): PgCluster {
  const pgCtl = pgBin("pg_ctl") as string;
  const dataDir = path.join(dir, "data");
  const socketDir = path.join(dir, "sock");
  const passfile = path.join(dir, "pgpass");
  const ctl = (...args: string[]) => runPg([pgCtl, "-D", dataDir, "-w", "-t", "60", "-l", path.join(dir, "server.log"), ...args]);
  const admin = async (sql: string) => {
    const c = new pg.Client({ host: socketDir, user: "postgres", database: "postgres" });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  let nextDb = 0;
  return {
    socketDir,
    dataDir,
    password: PASSWORD,
    passfile,
    async createDatabase(name = `t_${process.pid}_${Date.now().toString(36)}_${nextDb++}`) {
      await admin(`CREATE DATABASE "${name}" OWNER ${ROLE}`);
      return `postgres://${ROLE}@/${name}?host=${encodeURIComponent(socketDir)}&passfile=${encodeURIComponent(passfile)}`;
    },
    restart: () => ctl("-m", "fast", "restart"),
    stop: () => ctl("-m", "fast", "stop"),
    start: () => ctl("start"),
  };
}
