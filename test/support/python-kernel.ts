// Whether the python tool can run here: Debian's python3 with ipykernel and jupyter_client
// (python3-ipykernel). Tests of the python tool run only where it can.
import { execFileSync } from "node:child_process";

export const PYTHON = "/usr/bin/python3";

export function hasPythonKernel(): boolean {
  try {
    execFileSync(PYTHON, ["-c", "import ipykernel, jupyter_client"], { stdio: "ignore" });
    return true;
  } catch {
    return false; // not installed: the tests that need it are skipped
  }
}
