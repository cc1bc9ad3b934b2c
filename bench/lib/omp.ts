// oh-my-pi 18.3.4 as a third agent (for the large-session rows only). It runs on bun, which the
// npm package `bun` ships as a binary in its platform package. The plain install of
// @oh-my-pi/pi-coding-agent@18.3.4 needs its 18.3.4 workspace packages; where the registry lacks
// them (as it does here), the CLI's own bundle (dist/cli.js, every JS dependency inlined) is
// fetched with `npm pack` and given the newest native addon that the registry holds with its
// platform binary (pi-natives 18.2.3); the few exports the 18.3.4 bundle imports that this
// addon lacks become stubs that throw when called (none is on the session-loading path).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import path from "node:path";
import { ROOT, baseEnv, modelsJson, type Agent } from "./agents.js";
import { makeTemp } from "./temp.js";

const DIR = path.join(ROOT, "bench", ".peers", "omp");
const MODULES = path.join(DIR, "node_modules");
const OMP_VERSION = "18.3.4";
const PACKAGE = `@oh-my-pi/pi-coding-agent@${OMP_VERSION}`;
const BUN_PACKAGE = "bun@1.3.14";
const NATIVES = ["@oh-my-pi/pi-natives@18.2.3", "@oh-my-pi/pi-natives-linux-x64@18.2.3", "@oh-my-pi/omptype@18.2.11", "@babel/parser@^7.29.7"];
const CLI = path.join(MODULES, "@oh-my-pi", "pi-coding-agent", "dist", "cli.js");
const BUN = path.join(MODULES, ".bin", "bun");
/** Written last: its presence means the install finished (a half-done one is redone). */
const DONE = path.join(DIR, ".bench-ready");

/** Why oh-my-pi cannot run here, once `ensureOmp` has failed. */
export let ompUnavailable: string | undefined;

function npm(args: string[]): void {
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: DIR, stdio: ["ignore", "ignore", "pipe"], timeout: 300_000 });
}

function firstLine(err: unknown): string {
  const e = err as { stderr?: Buffer; message: string };
  const text = e.stderr?.toString("utf8").trim() || e.message;
  return (text.split("\n").find((l) => /error/i.test(l)) ?? text.split("\n")[0]).slice(0, 160);
}

/** Names the bundle imports from `spec` (e.g. `@oh-my-pi/pi-natives/vcs`). */
function importedNames(bundle: string, spec: string): string[] {
  const names = new Set<string>();
  const re = new RegExp(`import\\{([^}]*)\\}from"${spec.replace(/[/.-]/g, "\\$&")}"`, "g");
  for (const m of bundle.matchAll(re)) for (const part of m[1].split(",")) names.add(part.trim().split(/\s+as\s+/)[0]);
  return [...names].filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
}

/** Appends a throwing stub for every name the bundle imports that the older addon does not export. */
function shimNatives(): number {
  const bundle = readFileSync(CLI, "utf8");
  const nativeDir = path.join(MODULES, "@oh-my-pi", "pi-natives", "native");
  let added = 0;
  for (const [spec, file] of [["@oh-my-pi/pi-natives", "index.js"], ...["vcs", "desktop", "clipboard"].map((s) => [`@oh-my-pi/pi-natives/${s}`, `${s}.js`])]) {
    const target = path.join(nativeDir, file);
    const source = readFileSync(target, "utf8");
    if (source.includes("__benchMissing")) continue;
    const missing = importedNames(bundle, spec).filter((n) => !new RegExp(`export (const|function|class|let|var) ${n.replace(/\$/g, "\\$")}\\b|export \\{[^}]*\\b${n}\\b`).test(source));
    if (missing.length === 0) continue;
    const stubs = missing.map((n) => `export const ${n} = __benchMissing(${JSON.stringify(n)});`);
    appendFileSync(target, `\n// pith bench: exports the ${OMP_VERSION} bundle imports that this addon lacks\nconst __benchMissing = (n) => function () { throw new Error("pi-natives 18.2.3 lacks " + n + " (pith bench stub)"); };\n${stubs.join("\n")}\n`);
    added += missing.length;
  }
  return added;
}

function packBundle(): void {
  const tgz = execFileSync("npm", ["pack", PACKAGE, "--loglevel=error"], { cwd: DIR, encoding: "utf8", timeout: 300_000 }).trim().split("\n").at(-1)!;
  const dest = path.join(MODULES, "@oh-my-pi", "pi-coding-agent");
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  execFileSync("tar", ["-xzf", path.join(DIR, tgz), "-C", dest, "--strip-components=1"]);
  rmSync(path.join(DIR, tgz));
}

/** Installs bun and oh-my-pi into bench/.peers/omp on first use; false (with `ompUnavailable`) if it cannot run. */
export function ensureOmp(log: (s: string) => void): boolean {
  if (existsSync(DONE) && existsSync(CLI) && existsSync(BUN)) return true;
  if (process.platform !== "linux" || process.arch !== "x64") {
    ompUnavailable = `the bench installs oh-my-pi's native addon for linux-x64 only (this is ${process.platform}-${process.arch})`;
    return false;
  }
  log(`installing ${BUN_PACKAGE} and ${PACKAGE} into bench/.peers/omp (first use)...`);
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(path.join(DIR, "package.json"))) writeFileSync(path.join(DIR, "package.json"), JSON.stringify({ name: "pith-bench-omp", private: true }) + "\n");
  try {
    npm(["install", BUN_PACKAGE]);
  } catch (err) {
    ompUnavailable = `bun from npm failed to install: ${firstLine(err)}`;
    return false;
  }
  try {
    npm(["install", BUN_PACKAGE, PACKAGE]);
  } catch (err) {
    log(`${PACKAGE} does not install as is (${firstLine(err)}); using its bundle with pi-natives 18.2.3`);
    try {
      npm(["install", BUN_PACKAGE, ...NATIVES]);
      packBundle();
      log(`stubbed ${shimNatives()} native exports the 18.3.4 bundle imports but pi-natives 18.2.3 lacks`);
    } catch (err2) {
      ompUnavailable = `${PACKAGE} could not be installed: ${firstLine(err2)}`;
      return false;
    }
  }
  if (!existsSync(CLI) || !existsSync(BUN)) {
    ompUnavailable = `install finished without ${path.relative(ROOT, existsSync(CLI) ? BUN : CLI)}`;
    return false;
  }
  writeFileSync(DONE, new Date().toISOString() + "\n");
  return true;
}

export const omp: Agent = {
  name: "omp",
  launch(opts) {
    const home = makeTemp("bench-omp-home-");
    const agentDir = path.join(home, ".omp", "agent");
    mkdirSync(agentDir, { recursive: true });
    // models.yml: YAML is a superset of JSON, so pi's models.json content serves as is.
    writeFileSync(path.join(agentDir, "models.yml"), modelsJson(opts.llmUrl));
    const [provider, id] = opts.model ?? ["fake-openai", "fake-gpt"];
    const session = opts.sessions ? [] : ["--no-session"];
    // --no-lsp / --no-title: no language servers or title requests running beside the measurement
    const args = [CLI, "--mode", "rpc", ...session, "--no-extensions", "--no-lsp", "--no-title", "--provider", provider, "--model", id];
    return { cmd: BUN, args: [...args, ...(opts.extraArgs ?? [])], env: baseEnv(home), cwd: opts.cwd };
  },
};

/** For the README and the report: which oh-my-pi files the bench runs. */
export function ompDescription(): string {
  const natives = existsSync(path.join(MODULES, "@oh-my-pi", "pi-natives", "package.json"))
    ? (JSON.parse(readFileSync(path.join(MODULES, "@oh-my-pi", "pi-natives", "package.json"), "utf8")) as { version: string }).version
    : "?";
  const bundle = readdirSync(path.join(MODULES, "@oh-my-pi")).includes("pi-agent-core") ? "installed" : "bundle";
  return `oh-my-pi ${OMP_VERSION} (${bundle}, pi-natives ${natives}, ${BUN_PACKAGE})`;
}
