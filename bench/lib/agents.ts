// The two agents under test and how to launch each against the fake LLM server: pith from
// dist/cli.js, pi 0.73.1 from bench/.peers (installed from the npm registry on first use).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Launch } from "./proc.js";
import { makeTemp } from "./temp.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PEERS = path.join(ROOT, "bench", ".peers");
const PI_PACKAGE = "@mariozechner/pi-coding-agent@0.73.1";
const PI_BIN = path.join(PEERS, "node_modules", ".bin", "pi");

/** oh-my-pi ("omp", lib/omp.ts) runs the large-session rows only. */
export type AgentName = "pith" | "pi" | "omp";

export interface LaunchOptions {
  /** Base URL of the fake server, including /v1. */
  llmUrl: string;
  cwd: string;
  extraArgs?: string[];
  /** Keep sessions (in a temp dir) instead of --no-session. */
  sessions?: boolean;
  /** Provider and model (default fake-openai / fake-gpt; fake-anthropic / fake-claude speaks anthropic-messages). */
  model?: [string, string];
}

export interface Agent {
  name: AgentName;
  launch(opts: LaunchOptions): Launch;
}

/** Installs pi into bench/.peers when it is not there yet. Returns false when that fails. */
export function ensurePi(log: (s: string) => void): boolean {
  if (existsSync(PI_BIN)) return true;
  log(`installing ${PI_PACKAGE} into bench/.peers (first use)...`);
  mkdirSync(PEERS, { recursive: true });
  const pkg = path.join(PEERS, "package.json");
  if (!existsSync(pkg)) writeFileSync(pkg, JSON.stringify({ name: "pith-bench-peers", private: true }) + "\n");
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", PI_PACKAGE], { cwd: PEERS, stdio: ["ignore", "ignore", "inherit"] });
  } catch (err) {
    log(`pi install failed: ${(err as Error).message}`);
    return false;
  }
  return existsSync(PI_BIN);
}

function model(id: string, cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }) {
  return { id, name: id, reasoning: false, input: ["text"], contextWindow: 1_000_000, maxTokens: 8192, cost };
}

/** Same shape for both agents (pith reads pi's models.json format). */
export function modelsJson(llmUrl: string): string {
  const sonnet = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
  return JSON.stringify({
    providers: {
      "fake-openai": { baseUrl: llmUrl, api: "openai-completions", apiKey: "bench-key", models: [model("fake-gpt")] },
      // pi's Anthropic client appends /v1/messages to the base URL, pith's only /messages: the fake serves both
      "fake-anthropic": { baseUrl: llmUrl, api: "anthropic-messages", apiKey: "bench-key", models: [model("fake-claude", sonnet)] },
    },
  });
}

function modelArgs(opts: LaunchOptions): string[] {
  const [provider, id] = opts.model ?? ["fake-openai", "fake-gpt"];
  return ["--provider", provider, "--model", id];
}

export function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8" };
}

function sessionArgs(opts: LaunchOptions, home: string): string[] {
  return opts.sessions ? ["--session-dir", path.join(home, "sessions")] : ["--no-session"];
}

export const pith: Agent = {
  name: "pith",
  launch(opts) {
    const home = makeTemp("bench-pith-home-");
    writeFileSync(path.join(home, "models.json"), modelsJson(opts.llmUrl));
    const session = opts.sessions ? [] : ["--no-session"];
    // PITH_BENCH_CLI=<path to another build's cli.js> compares builds (A/B) on the same workloads.
    const cli = process.env.PITH_BENCH_CLI ?? path.join(ROOT, "dist", "cli.js");
    const args = [cli, "--mode", "rpc", ...session, "--no-extensions", ...modelArgs(opts)];
    return { cmd: process.execPath, args: [...args, ...(opts.extraArgs ?? [])], env: { ...baseEnv(home), PITH_HOME: home }, cwd: opts.cwd };
  },
};

export const pi: Agent = {
  name: "pi",
  launch(opts) {
    const home = makeTemp("bench-pi-home-");
    const agentDir = path.join(home, "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(path.join(agentDir, "models.json"), modelsJson(opts.llmUrl));
    writeFileSync(path.join(agentDir, "settings.json"), JSON.stringify({ quietStartup: true, collapseChangelog: true }));
    const script = realpathSync(PI_BIN);
    const args = [script, "--mode", "rpc", ...sessionArgs(opts, home), "--no-extensions", ...modelArgs(opts)];
    return { cmd: process.execPath, args: [...args, ...(opts.extraArgs ?? [])], env: { ...baseEnv(home), PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" }, cwd: opts.cwd };
  },
};

export function tempCwd(): string {
  return makeTemp("bench-cwd-");
}
