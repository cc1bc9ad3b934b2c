// pgpass ships no types: the helper functions pith uses (libpq's password-file format).
declare module "pgpass/lib/helper.js" {
  import type { Stats } from "node:fs";
  import type { Readable } from "node:stream";
  export interface PassConnInfo {
    host?: string;
    port?: string | number;
    database?: string;
    user?: string;
  }
  /** False (with a warning on stderr) for a file that is not a plain file or that others can read. */
  export function usePgPass(stats: Stats, file: string): boolean;
  /** The password of the first line matching `info`, or undefined. */
  export function getPassword(info: PassConnInfo, stream: Readable, cb: (password: string | undefined) => void): void;
}
