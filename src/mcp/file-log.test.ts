import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileLogSink } from "./file-log.js";

describe("createFileLogSink", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-mcp-log-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("appends timestamped lines per server, creating folders on the first line", async () => {
    const file = path.join(dir, "logs", "mcp.log");
    const sink = createFileLogSink(file, () => expect.unreachable());
    sink.log("github", "pith: connected, 3 tools");
    sink.log("db", "warning: slow query\n");
    await sink.close();
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[github\] pith: connected, 3 tools$/);
    expect(lines[1]).toMatch(/Z \[db\] warning: slow query$/);
    expect(lines[2]).toBe("");
  });

  it("reports a file it cannot write once, and drops lines instead of throwing", async () => {
    const blocker = path.join(dir, "not-a-dir");
    writeFileSync(blocker, "");
    const errors: string[] = [];
    const sink = createFileLogSink(path.join(blocker, "mcp.log"), (m) => errors.push(m));
    sink.log("a", "one");
    sink.log("a", "two");
    await sink.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^pith: cannot write the MCP log .*not-a-dir\/mcp\.log: /);
  });
});
