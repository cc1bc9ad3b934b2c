// Values in models.json (`apiKey`, header values), pi's resolution rules:
//   "!command"            run through the shell, trimmed stdout (cached per command)
//   "$VAR" / "${VAR}"     environment interpolation, also inside larger strings;
//                         a missing variable leaves the value unresolved
//   "$$" / "$!"           a literal "$" / "!"
//   "NAME"                the env var NAME when it is set (pi's older rule), else the literal
import { exec } from "node:child_process";
import { errorMessage } from "../../shared/errors.js";

type Env = Record<string, string | undefined>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMMAND_TIMEOUT_MS = 15_000;

export function isCommandValue(value: string): boolean {
  return value.startsWith("!");
}

/** `$$`, `$!`, `${VAR}`, `$VAR`. */
const REFERENCE = /\$(\$|!|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Expands `$VAR`, `${VAR}`, `$$`, `$!`. Undefined when a referenced variable is unset. */
export function interpolate(value: string, env: Env): string | undefined {
  let missing = false;
  const out = value.replace(REFERENCE, (all, tok, braced, bare) => {
    if (tok === "$" || tok === "!") return tok;
    const name = (braced ?? bare) as string;
    const v = env[name];
    if (v === undefined || v === "") missing = true;
    return v ?? "";
  });
  return missing ? undefined : out;
}

/**
 * Resolves a value without running commands. `command` values come back as
 * `{ command }` for the caller to run; unresolved values as undefined.
 */
export function resolveStatic(value: string, env: Env): { value: string } | { command: string } | undefined {
  if (isCommandValue(value)) return { command: value.slice(1) };
  if (ENV_NAME.test(value)) return { value: env[value] || value };
  const v = interpolate(value, env);
  return v === undefined || v === "" ? undefined : { value: v };
}

/** The environment variables a value reads: `NAME` when it is set, `$VAR`, `${VAR}`; none for `!command`. */
export function referencedEnvNames(value: string, env: Env): string[] {
  if (isCommandValue(value)) return [];
  if (ENV_NAME.test(value)) return env[value] ? [value] : [];
  return [...value.matchAll(REFERENCE)].flatMap((m) => (m[2] ?? m[3] ? [m[2] ?? m[3]] : []));
}

/** True when the value is configured and resolvable without running anything. */
export function hasValue(value: string | undefined, env: Env): boolean {
  return value !== undefined && value !== "" && resolveStatic(value, env) !== undefined;
}

/** Runs `!command` values and caches their trimmed stdout for the life of the resolver. */
export class CommandRunner {
  private readonly cache = new Map<string, Promise<string>>();
  constructor(
    private readonly env: Env,
    private readonly cwd?: string,
  ) {}

  run(command: string): Promise<string> {
    let p = this.cache.get(command);
    if (!p) {
      p = this.exec(command);
      this.cache.set(command, p);
      // A failure is not cached: the next request tries again.
      p.catch(() => this.cache.delete(command));
    }
    return p;
  }

  private exec(command: string): Promise<string> {
    const env = Object.fromEntries(Object.entries(this.env).filter((e): e is [string, string] => e[1] !== undefined));
    return new Promise((resolve, reject) => {
      exec(command, { env, cwd: this.cwd, timeout: COMMAND_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
        if (err) return reject(new Error(`command failed: ${errorMessage(err).split("\n")[0]}`));
        const out = String(stdout).trim();
        if (!out) return reject(new Error("command printed nothing"));
        resolve(out);
      });
    });
  }
}

/** Resolves a value, running `!command` through `runner`. */
export async function resolveValue(value: string, env: Env, runner: CommandRunner): Promise<string | undefined> {
  const r = resolveStatic(value, env);
  if (!r) return undefined;
  if ("command" in r) return runner.run(r.command);
  return r.value;
}
