// Which interpreter can run the kernel: the setting python.interpreter, else the first of
// `python3` on the PATH and /usr/bin/python3 that imports ipykernel and jupyter_client.
import { execFile } from "node:child_process";
import { findOnPath } from "../search/ripgrep.js";
import { PROBE } from "./bridge.js";

export type ProbeResult = { ok: true; interpreter: string } | { ok: false; reason: string };

function imports(interpreter: string, env: Record<string, string> | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(interpreter, ["-c", PROBE], { env, timeout: 30_000 }, (err) => resolve(!err));
  });
}

export async function probePython(opts: { interpreter?: string; env?: Record<string, string> }): Promise<ProbeResult> {
  const candidates = opts.interpreter
    ? [opts.interpreter]
    : [...new Set([findOnPath("python3", opts.env?.PATH), "/usr/bin/python3"].filter((c): c is string => !!c))];
  for (const c of candidates) if (await imports(c, opts.env)) return { ok: true, interpreter: c };
  return {
    ok: false,
    reason:
      `no Python interpreter that can import ipykernel and jupyter_client (tried ${candidates.join(", ")}). ` +
      "Install them (Debian/Ubuntu: apt-get install python3-ipykernel python3-jupyter-client; elsewhere: pip install ipykernel jupyter_client) or set python.interpreter",
  };
}
