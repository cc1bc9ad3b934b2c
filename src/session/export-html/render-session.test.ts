import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SessionStore } from "../../store/session-store.js";
import { assistant, tmpDir, toolResult, user } from "../../../test/support/store.js";
import type { AssistantMessage } from "../../shared/types.js";
import { renderSessionHtml } from "./render-session.js";
import { exportSessionHtml } from "./export-session.js";

const EVIL = `<x-evil a="1" b='2'>&amp;</x-evil><script>alert(1)</script>`;

/** A session in which every string a user, model or extension controls carries EVIL. */
function evilSession(): SessionStore {
  const s = SessionStore.create({ sessionDir: tmpDir(), cwd: `/w/${EVIL}`, deferUntilAssistant: false });
  s.append({ type: "model_change", provider: `prov${EVIL}`, modelId: `model${EVIL}` });
  s.append({ type: "thinking_level_change", thinkingLevel: "high" });
  const u = s.appendMessage({ role: "user", content: [{ type: "text", text: `hello ${EVIL}` }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }], timestamp: 1 });
  const a: AssistantMessage = assistant(`answer ${EVIL}`);
  a.provider = `p${EVIL}`;
  a.model = `m${EVIL}`;
  a.content.unshift({ type: "thinking", thinking: `ponder ${EVIL}` });
  a.content.push({ type: "toolCall", id: `id${EVIL}`, name: `tool${EVIL}`, arguments: { [`k${EVIL}`]: `v${EVIL}` }, intent: `why${EVIL}` });
  a.stopReason = "error";
  a.errorMessage = `boom ${EVIL}`;
  s.appendMessage(a);
  const tr = toolResult(`out ${EVIL}`, `id${EVIL}`);
  tr.toolName = `tool${EVIL}`;
  tr.content.push({ type: "image", data: "AAAA", mimeType: `image/png" onerror="alert(2)` });
  s.appendMessage(tr);
  s.appendMessage({ role: "bashExecution", command: `ls ${EVIL}`, output: `o ${EVIL}`, exitCode: 1, cancelled: false, truncated: false, timestamp: 2 });
  s.appendMessage({ role: "custom", customType: `ct${EVIL}`, content: `c ${EVIL}`, display: true, timestamp: 3 });
  s.append({ type: "compaction",  summary: `sum ${EVIL}`, firstKeptEntryId: u.id, tokensBefore: 5 });
  s.append({ type: "branch_summary",  fromId: `f${EVIL}`, summary: `bs ${EVIL}` });
  s.append({ type: "label", targetId: u.id, label: `lab ${EVIL}` });
  s.setName(`name ${EVIL}`);
  s.append({ type: "custom", customType: `cu${EVIL}`, data: { d: EVIL } });
  return s;
}

describe("renderSessionHtml", () => {
  it("escapes every piece of content", () => {
    const s = evilSession();
    const html = renderSessionHtml({
      header: s.header,
      entries: s.entries(),
      leafId: s.leafId,
      systemPrompt: `sys ${EVIL}`,
      tools: [{ name: `t${EVIL}`, description: `d${EVIL}` }],
    });
    s.close();
    expect(html).not.toContain("<x-evil");
    expect(html).not.toContain("alert(1)</script>");
    expect(html).not.toContain('onerror="alert(2)');
    expect(html.match(/<script/g)).toEqual(["<script"]); // only the data block
    expect(html).toContain('<script type="application/json" id="session-data">');
    expect(html).toContain("hello &lt;x-evil a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;amp;&lt;/x-evil&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    for (const word of ["ponder", "answer", "boom", "out", "ls", "sum", "bs", "lab", "name", "sys"]) {
      expect(html, word).toContain(`${word} &lt;x-evil`);
    }
    for (const word of ["tool", "ct", "cu", "prov", "model", "t", "d"]) expect(html, word).toContain(`${word}&lt;x-evil`);
  });

  it("renders the active branch, marks the leaf, collapses thinking and keeps other branches", () => {
    const s = SessionStore.inMemory({ cwd: "/w" });
    const first = s.appendMessage(user("root question"));
    const a = assistant("first answer");
    a.content.unshift({ type: "thinking", thinking: "secret reasoning" });
    s.appendMessage(a);
    s.moveLeaf(first.id);
    const leaf = s.appendMessage(assistant("second answer"));
    s.appendMessage({ role: "user", content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }], timestamp: 1 });
    s.moveLeaf(leaf.id);
    const html = renderSessionHtml({ header: s.header, entries: s.entries(), leafId: s.leafId });
    const mainPart = html.slice(html.indexOf('<section class="branch">'), html.indexOf('<section class="other">'));
    expect(mainPart).toContain("second answer");
    expect(mainPart).not.toContain("first answer");
    expect(mainPart).toMatch(new RegExp(`<article class="entry assistant leaf" id="entry-${leaf.id}">`));
    expect(html).toContain("current leaf");
    expect(html).toMatch(/<details class="thinking"><summary>Thinking<\/summary><div class="text">secret reasoning/);
    expect(html).toContain("Other branches (2 entries)");
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).toMatch(/<li class="on-branch leaf"/);
    const b64 = /id="session-data">([^<]*)</.exec(html)![1];
    const data = JSON.parse(Buffer.from(b64, "base64").toString("utf8"));
    expect(data.entries).toEqual(JSON.parse(JSON.stringify(s.entries())));
    expect(data.leafId).toBe(leaf.id);
    expect(html).not.toMatch(/https?:\/\//);
  });
});

describe("subagents in the export", () => {
  it("collapses each task section and the session_init entry", () => {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", deferUntilAssistant: false });
    s.append({ type: "session_init", systemPrompt: `sys ${EVIL}`, task: `do ${EVIL}`, tools: ["read", "grep"] });
    s.appendMessage(user("go"));
    const tr = toolResult(`## Task a: find ${EVIL}\nalpha answer\n\n## Task b\n[error] boom`, "t1");
    tr.toolName = "task";
    s.appendMessage(tr);
    const html = renderSessionHtml({ header: s.header, entries: s.entries(), leafId: s.leafId });
    expect(html).not.toContain("<x-evil");
    expect(html).toContain(`<details class="subagent"><summary>Task a: find &lt;x-evil`);
    expect(html).toContain(`<details class="subagent"><summary>Task b</summary><div class="text">[error] boom</div></details>`);
    expect(html).toContain("subagent session · tools: read, grep");
  });
});

describe("exportSessionHtml", () => {
  it("writes pith-session-<basename>.html relative to cwd and returns the path as given", async () => {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", eager: true });
    s.appendMessage(user("exported"));
    const cwd = tmpDir();
    const out = await exportSessionHtml(s, { cwd });
    expect(out).toBe(`pith-session-${path.basename(s.path!, ".jsonl")}.html`);
    expect(fs.readFileSync(path.join(cwd, out), "utf8")).toContain("exported");
    const explicit = await exportSessionHtml(s, { cwd, outputPath: "sub/x.html" });
    expect(explicit).toBe("sub/x.html");
    expect(fs.existsSync(path.join(cwd, "sub/x.html"))).toBe(true);
    s.close();
  });

  it("refuses in-memory sessions", async () => {
    await expect(exportSessionHtml(SessionStore.inMemory({ cwd: "/" }), { cwd: "/" })).rejects.toThrow(
      "Cannot export in-memory session to HTML",
    );
  });
});
