// Vitest global setup: a folder for the run's shared PostgreSQL cluster (started only when a test
// asks for it, see pg-cluster.ts) and, after the run, the cluster stopped and the folder removed.
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { stopRunCluster } from "./pg-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgRunDir: string;
  }
}

// both projects (unit, e2e) share one folder, so one cluster serves the whole run
const shared = globalThis as { __pithPgRun?: { dir: string; users: number } };

export default function setup(project: TestProject): () => void {
  shared.__pithPgRun ??= { dir: mkdtempSync(path.join(tmpdir(), "pith-pg-run-")), users: 0 };
  const run = shared.__pithPgRun;
  // the postgres user (the cluster runs as it when we are root) must reach the cluster's folder
  if (run.users === 0) chmodSync(run.dir, 0o755);
  run.users++;
  project.provide("pgRunDir", run.dir);
  return () => {
    if (--run.users > 0) return;
    shared.__pithPgRun = undefined;
    stopRunCluster(run.dir);
  };
}
