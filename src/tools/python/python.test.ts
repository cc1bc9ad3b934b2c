import { afterAll, describe, expect, it } from "vitest";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf } from "../../../test/support/tools.js";
import { createPythonTool } from "./index.js";
import { probePython } from "./probe.js";

const tmp = makeTempDir();
const found = await probePython({ env: { PATH: process.env.PATH ?? "" } });
const tool = createPythonTool({ env: { PATH: process.env.PATH ?? "", HOME: tmp.dir } });
const py = (args: Record<string, unknown>, over = {}) => runTool(tool, args, makeCtx(tmp.dir, over));

afterAll(async () => {
  await tool.dispose?.();
  tmp.cleanup();
});

describe("python availability", () => {
  it("is not offered, and says why, when no interpreter has ipykernel", async () => {
    const missing = createPythonTool({ interpreter: "/nonexistent/python3" });
    expect(missing.unavailable?.()).toMatch(/^checking/);
    await missing.ready?.();
    expect(missing.unavailable?.()).toMatch(/^no Python interpreter that can import ipykernel and jupyter_client \(tried \/nonexistent\/python3\)\. Install them/);
    const out = await runTool(missing, { cells: [{ code: "1" }] }, makeCtx(tmp.dir));
    expect(textOf(out.result)).toMatch(/^Python is not available: /);
  });
});

describe.runIf(found.ok)("python kernel", () => {
  it("keeps state between calls and cells, returns results and streams output", async () => {
    await tool.ready?.();
    expect(tool.unavailable?.()).toBeUndefined();
    const first = await py({ cells: [{ code: "x = 20\nprint('hello')" }] });
    expect(textOf(first.result)).toBe("hello");
    const ctx = makeCtx(tmp.dir);
    const second = await runTool(tool, { cells: [{ code: "x + 22", title: "sum" }, { code: "import os; os.getcwd()" }] }, ctx);
    expect(textOf(second.result)).toBe(`[1/2] sum\n42\n\n[2/2]\n'${tmp.dir}'`);
    expect((await py({ cells: [{ code: "print('streamed')" }] })).isError).toBe(false);
  }, 60_000);

  it("reports which cell failed, with the traceback; earlier state persists", async () => {
    const out = await py({ cells: [{ code: "y = 1" }, { code: "1/0" }] });
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toMatch(/^\[1\/2\] \(ok\)\n\n\[2\/2\]\n[\s\S]*ZeroDivisionError[\s\S]*\n\nCell 2 failed\. Earlier cells succeeded—their state persists\. Fix only cell 2\.$/);
    expect(textOf((await py({ cells: [{ code: "print(y)" }] })).result)).toBe("1");
  }, 60_000);

  it("abort interrupts the running cell and keeps the kernel", async () => {
    const ac = new AbortController();
    const running = py({ cells: [{ code: "import time\nprint('start', flush=True)\ntime.sleep(30)" }] }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 1500);
    const out = await running;
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toMatch(/start[\s\S]*KeyboardInterrupt/);
    expect(textOf((await py({ cells: [{ code: "print(x)" }] })).result)).toBe("20");
  }, 60_000);

  it("times out a cell, and returns rich PNG output as an image", async () => {
    const slow = await py({ cells: [{ code: "import time; time.sleep(10)" }], timeout: 1 });
    expect(textOf(slow.result)).toMatch(/\[Command timed out after 1 seconds\]$/);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const out = await py({ cells: [{ code: `from IPython.display import Image, display\nimport base64\ndisplay(Image(data=base64.b64decode("${png}")))` }] });
    expect(out.result.content).toEqual([
      { type: "text", text: "<IPython.core.display.Image object>" },
      { type: "image", data: png, mimeType: "image/png" },
    ]);
  }, 60_000);
});
