// Every process of the same user can read pith's `/proc/<pid>/environ` and `/proc/<pid>/cmdline`
// (and `ps` shows the command line to everyone). Both show memory the kernel set up at start:
// the initial environment and the original arguments, whatever `process.env` says later. So pith
// rewrites that memory itself, through `/proc/self/mem`, once it knows its credentials:
//   - each credential variable is first set again (`process.env.X = process.env.X`, which makes
//     the C library point at a fresh copy, so pith keeps reading it), then its original
//     `NAME=value` bytes are zeroed: the name and the value vanish from /proc/<pid>/environ;
//   - the value of each secret flag (`--api-key <key>`, `--api-key=<key>`) is overwritten with `*`
//     in the argument area: `ps` and /proc/<pid>/cmdline show `--api-key ****`.
// What this cannot hide: pith's heap (a same-user process that may ptrace pith, or read
// /proc/<pid>/mem, or root, can still find the key there). Linux only; elsewhere nothing is done.
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";

/** Byte ranges of the argument and initial environment areas, from /proc/self/stat (fields 48-51). */
function areas(): { args: [number, number]; env: [number, number] } | undefined {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [argStart, argEnd, envStart, envEnd] = [45, 46, 47, 48].map((i) => Number(fields[i]));
  if (![argStart, argEnd, envStart, envEnd].every((n) => Number.isSafeInteger(n) && n > 0)) return undefined;
  return { args: [argStart, argEnd], env: [envStart, envEnd] };
}

function readArea(fd: number, [start, end]: [number, number]): Buffer {
  const buf = Buffer.alloc(end - start);
  readSync(fd, buf, 0, buf.length, start);
  return buf;
}

/** Zeroes the `NAME=value` entries of `names` in the initial environment area. */
function zeroEntries(fd: number, area: [number, number], names: ReadonlySet<string>): number {
  const buf = readArea(fd, area);
  let hidden = 0;
  let offset = 0;
  for (const entry of buf.toString("latin1").split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0 && names.has(entry.slice(0, eq))) {
      writeSync(fd, Buffer.alloc(entry.length), 0, entry.length, area[0] + offset);
      hidden++;
    }
    offset += entry.length + 1;
  }
  return hidden;
}

/** Overwrites the value of each flag in `flags` (`--flag <value>` and `--flag=<value>`) in the argument area with `*`. */
function maskFlagValues(fd: number, area: [number, number], flags: ReadonlySet<string>): void {
  const args = readArea(fd, area).toString("latin1").split("\0");
  const offsets: number[] = [];
  args.reduce((at, arg) => (offsets.push(at), at + arg.length + 1), 0);
  const mask = (i: number, from: number) => {
    const length = args[i].length - from;
    if (length > 0) writeSync(fd, Buffer.alloc(length, "*"), 0, length, area[0] + offsets[i] + from);
  };
  for (let i = 0; i < args.length; i++) {
    if (flags.has(args[i]) && i + 1 < args.length) mask(i + 1, 0);
    const eq = args[i].indexOf("=");
    if (args[i].startsWith("--") && eq > 0 && flags.has(args[i].slice(0, eq))) mask(i, eq + 1);
  }
}

/**
 * Hides the credential variables `names` and the values of the flags `secretFlags` from this
 * process's /proc entries (see above). Answers a problem to report, or undefined when done.
 */
export function hideSecretsFromProc(env: Record<string, string | undefined>, names: Iterable<string>, secretFlags: readonly string[]): string | undefined {
  if (process.platform !== "linux") return undefined;
  const present = new Set([...names].filter((n) => env[n] !== undefined));
  const flags = new Set(secretFlags);
  if (present.size === 0 && flags.size === 0) return undefined;
  for (const name of present) {
    const value = env[name];
    env[name] = value; // setenv(): the C library now points at a fresh copy; the original bytes can go
  }
  let fd: number | undefined;
  try {
    const where = areas();
    if (!where) return "the kernel did not show where pith's environment and arguments are";
    fd = openSync("/proc/self/mem", "r+");
    if (present.size > 0) zeroEntries(fd, where.env, present);
    if (flags.size > 0) maskFlagValues(fd, where.args, flags);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
