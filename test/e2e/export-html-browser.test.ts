// Opens an exported session page in headless Chromium and checks that hostile content is inert text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../src/store/index.js";
import { exportSessionHtml } from "../../src/session/export-html/index.js";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
const chromium = CANDIDATES.find((p) => fs.existsSync(p));
if (!chromium) console.warn(`export-html-browser: skipped, no headless Chromium at ${CANDIDATES.join(", ")}`);

const ATTACK = "<script>document.title='pwned'</script>";

describe("exported HTML in a real browser", () => {
  it.skipIf(!chromium)("shows hostile message text as text and never runs it", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pith-export-e2e-"));
    const store = SessionStore.create({ sessionDir: path.join(tmp, "sessions"), cwd: tmp, eager: true });
    store.appendMessage({ role: "user", content: [{ type: "text", text: ATTACK }], timestamp: 1 });
    store.appendMessage({ role: "user", content: [{ type: "text", text: "A perfectly normal message" }], timestamp: 2 });
    const out = await exportSessionHtml(store, { cwd: tmp, outputPath: "page.html", systemPrompt: ATTACK });
    store.close();
    const res = spawnSync(
      chromium!,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${path.join(tmp, "profile")}`,
        "--dump-dom",
        `file://${path.join(tmp, out)}`,
      ],
      { encoding: "utf8", timeout: 45_000, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(res.error, res.stderr).toBeUndefined();
    const dom = res.stdout;
    expect(dom).toContain("A perfectly normal message");
    expect(dom).toContain("&lt;script&gt;document.title='pwned'&lt;/script&gt;");
    expect(dom).not.toContain(ATTACK);
    const title = /<title>([^<]*)<\/title>/.exec(dom)?.[1];
    expect(title).toMatch(/^pith session [0-9a-f]{16}$/);
    expect(title).not.toBe("pwned");
  });
});
