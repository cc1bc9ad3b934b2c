// `pith sessions import|export` below the CLI: JSONL session files into the database and back out,
// every line equal byte for byte both ways; files that are not sessions, or already imported, are
// reported and left alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usePostgres } from "../../../test/support/pg-test.js";
import { createJsonlStorage } from "../jsonl-storage.js";
import { createPostgresStorage, sessionFilesUnder, type DatabaseStorage, type ExportResult } from "./index.js";

const pgdb = usePostgres();
let db: DatabaseStorage;
let tmp: string;
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pith-transfer-"));
  if (pgdb.skip) return;
  db = await createPostgresStorage({ url: await pgdb.freshDatabase(), env: {} });
}, 60_000);
afterAll(() => {
  db?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: 1 });
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const reply = (text: string) => ({ role: "assistant" as const, content: [{ type: "text" as const, text }], api: "x", provider: "p", model: "m", usage, stopReason: "stop" as const, timestamp: 2 });

describe("sessions import and export", () => {
  it("imports a folder of session files and exports them back byte for byte", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const src = path.join(tmp, "src");
    const jsonl = createJsonlStorage();
    const written: string[] = [];
    for (const cwd of ["/work/one", "/work/two"]) {
      const log = jsonl.create({ dir: path.join(src, cwd.replace(/\//g, "-")), cwd });
      log.appendMessage(user(`hello from ${cwd} — ünïcode ✓`));
      log.appendMessage(reply("hi"));
      log.setName(`named ${cwd}`);
      log.close();
      written.push(log.path as string);
    }
    // a hand-edited line (other key order, spaces) must come back exactly as it was
    const lines = fs.readFileSync(written[0], "utf8").split("\n");
    const entry = JSON.parse(lines[1]) as Record<string, unknown>;
    lines[1] = JSON.stringify(Object.fromEntries(Object.entries(entry).reverse()), null, 0).replace(/,"/g, ', "');
    fs.writeFileSync(written[0], lines.join("\n"));
    fs.writeFileSync(path.join(src, "notes.jsonl"), '{"hello":"world"}\n');

    const files = sessionFilesUnder(src);
    expect(files).toHaveLength(3);
    const results = files.map((f) => db.importFile(f));
    expect(results.filter((r) => r.ref).map((r) => r.entries)).toEqual([3, 3]);
    expect(results.find((r) => r.file.endsWith("notes.jsonl"))?.skipped).toMatch(/not a session file/);
    // a second import changes nothing
    expect(db.importFile(written[0]).skipped).toMatch(/already in the database/);

    // the imported session opens, lists by its cwd, and continues
    const ref = results.find((r) => r.file === written[0])?.ref as string;
    const listed = await db.list({ dirs: ["/work/one"] });
    expect(listed.sessions.map((s) => s.path)).toEqual([ref]);
    expect(listed.sessions[0].name).toBe("named /work/one");

    const out = path.join(tmp, "out");
    const exported: ExportResult[] = [];
    db.exportTo(out, (r) => exported.push(r));
    expect(exported.map((r) => r.skipped)).toEqual([undefined, undefined]);
    for (const file of written) {
      const id = path.basename(file, ".jsonl").split("_").pop() as string;
      const back = exported.find((r) => r.ref === `pg:${id}`)?.file as string;
      expect(fs.readFileSync(back, "utf8")).toBe(fs.readFileSync(file, "utf8").replace(/\n?$/, "\n"));
      expect(path.relative(out, back).split(path.sep)[0]).toMatch(/^--work-(one|two)--$/);
    }
    // exporting again over the same files is a no-op; a different file there is never overwritten
    const again: ExportResult[] = [];
    fs.appendFileSync(exported[0].file, "\n");
    db.exportTo(out, (r) => again.push(r));
    expect(again.map((r) => r.skipped)).toEqual(expect.arrayContaining(["a different file is already there", undefined]));
    expect(fs.readFileSync(exported[0].file, "utf8").endsWith("\n\n")).toBe(true);
  });
});
