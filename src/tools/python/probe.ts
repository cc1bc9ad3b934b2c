// Which interpreter can run the kernel: the setting python.interpreter, else the first of
// `python3` on the PATH and /usr/bin/python3 that imports ipykernel and jupyter_client. Under the
// sandbox the probe runs inside it too (it runs the configured interpreter).
import { execFile } from "node:child_process";
import { findOnPath } from "../search/ripgrep.js";
import type { CommandLine } from "../ops/exec-ops.js";
import { PROBE } from "./bridge.js";

type Wrap = ((line: CommandLine, cwd: string) => CommandLine) | undefined;

export type ProbeResult = { ok: true; interpreter: string } | { ok: false; reason: string };

function imports(interpreter: string, env: Record<string, string> | undefined, wrap: Wrap): Promise<boolean> {
  const plain = { file: interpreter, args: ["-c", PROBE] };
  const line = wrap ? wrap(plain, "/") : plain;
  return new Promise((resolve) => {
    execFile(line.file, line.args, { env, timeout: 30_000 }, (err) => resolve(!err));
  });
}

export async function probePython(opts: { interpreter?: string; env?: Record<string, string>; wrapCommand?: Wrap }): Promise<ProbeResult> {
  const candidates = opts.interpreter
    ? [opts.interpreter]
    : [...new Set([findOnPath("python3", opts.env?.PATH), "/usr/bin/python3"].filter((c): c is string => !!c))];
  for (const c of candidates) if (await imports(c, opts.env, opts.wrapCommand)) return { ok: true, interpreter: c };
  return {
    ok: false,
    reason:
      `no Python interpreter that can import ipykernel and jupyter_client (tried ${candidates.join(", ")}). ` +
      "Install them (Debian/Ubuntu: apt-get install python3-ipykernel python3-jupyter-client; elsewhere: pip install ipykernel jupyter_client) or set python.interpreter",
  };
}
