// Every way a deny or ask rule may read one simple command. Allow rules match a command only
// as written (`CommandPart.text`); deny and ask rules match when ANY reading does, so the usual
// disguises do not slip past them:
// - the command without its `FOO=1` prefixes;
// - a command name given as a path (`/bin/rm` is read as `rm` too);
// - behind a wrapper (`timeout 5 rm …`, `sudo rm …`, `xargs rm`, `env X=1 rm …`, `nice`, ...):
//   every tail of the words after the wrapper is read as a command of its own;
// - the script of `sh -c '…'` / `eval '…'`, analysed as a command line of its own.
import { squashSpaces } from "../bash-pattern.js";
import type { CommandPart } from "./analyse.js";

const WRAPPERS = new Set([
  "builtin", "busybox", "chroot", "command", "doas", "env", "exec", "flock", "ionice", "nice", "nohup",
  "setsid", "stdbuf", "strace", "sudo", "time", "timeout", "unbuffer", "watch", "xargs",
]);

function basename(word: string): string {
  return word.includes("/") ? (word.split("/").pop() ?? word) : word;
}

/** The readings of one word list: as is, and with the command name's folder dropped. */
function withBasename(words: string[]): string[] {
  const plain = squashSpaces(words.join(" "));
  if (words.length === 0 || !words[0].includes("/")) return [plain];
  return [plain, squashSpaces([basename(words[0]), ...words.slice(1)].join(" "))];
}

/** Every reading of `part` (nested scripts excluded: see `nestedParts`). */
export function readingsOf(part: CommandPart): string[] {
  const out = new Set<string>([part.text]);
  for (const r of withBasename(part.words)) out.add(r);
  if (WRAPPERS.has(basename(part.words[0] ?? ""))) {
    for (let k = 1; k < part.words.length; k++) for (const r of withBasename(part.words.slice(k))) out.add(r);
  }
  out.delete("");
  return [...out];
}

/** The parts of `sh -c` / `eval` scripts inside `part`, at any depth. */
export function nestedParts(part: CommandPart): CommandPart[] {
  if (!part.nested) return [];
  return part.nested.parts.flatMap((p) => [p, ...nestedParts(p)]);
}

/** The redirect targets of `sh -c` / `eval` scripts inside `part`, at any depth. */
export function nestedWrites(part: CommandPart): string[] {
  if (!part.nested) return [];
  return [...part.nested.writes, ...part.nested.parts.flatMap(nestedWrites)];
}
