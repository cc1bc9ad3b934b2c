// `--api-key-file <path>`: the key for the selected provider, read from a file, so it is never on
// a command line. The file holds the key alone; surrounding white space (a trailing newline) is
// dropped.
import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError } from "./args.js";

/** The key in `file` (relative to `cwd`); a CliError (exit 1) when it cannot be read or is empty. */
export function readApiKeyFile(file: string, cwd: string): string {
  const abs = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (err) {
    throw new CliError(`--api-key-file ${abs}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 1);
  }
  const key = text.trim();
  if (key === "" || /\s/.test(key)) throw new CliError(`--api-key-file ${abs}: expected the key alone in the file`, 1);
  return key;
}
