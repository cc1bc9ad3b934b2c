// HTML for one session entry: a message card or a compact state line.
import { customMessageOf, type SessionEntry } from "../../store/entry-types.js";
import { contentText } from "../../store/message-text.js";
import { esc, escJson, preview } from "./escape.js";
import { messageRole, renderMessageBody } from "./render-message.js";

function card(e: SessionEntry, cls: string, label: string, body: string, isLeaf: boolean): string {
  const badge = isLeaf ? `<span class="badge">current leaf</span>` : "";
  const classes = `entry ${cls}${isLeaf ? " leaf" : ""}`;
  return `<article class="${esc(classes)}" id="entry-${esc(e.id)}"><div class="role">${esc(label)}${badge}</div>${body}</article>`;
}

function stateLine(e: SessionEntry, text: string, isLeaf: boolean): string {
  return card(e, "state", text, "", isLeaf);
}

/** One entry of the page; `label` is the entry's current label, if any. */
export function renderEntry(e: SessionEntry, isLeaf: boolean, label?: string): string {
  const tag = label ? ` · 🏷 ${label}` : "";
  switch (e.type) {
    case "message": {
      const r = messageRole(e.message);
      return card(e, r.cls, r.label + tag, renderMessageBody(e.message), isLeaf);
    }
    case "custom_message": {
      const m = customMessageOf(e);
      return card(e, "custom", `custom · ${e.customType}${e.display ? "" : " (hidden)"}${tag}`, renderMessageBody(m), isLeaf);
    }
    case "compaction": {
      const body = `<div class="muted">${esc(e.tokensBefore)} tokens before; kept from <a href="#entry-${esc(e.firstKeptEntryId)}">${esc(e.firstKeptEntryId)}</a></div><div class="text">${esc(e.summary)}</div>`;
      return card(e, "summary", `compaction${tag}`, body, isLeaf);
    }
    case "branch_summary":
      return card(e, "summary", `branch summary (from ${e.fromId})${tag}`, `<div class="text">${esc(e.summary)}</div>`, isLeaf);
    case "model_change":
      return stateLine(e, `model → ${e.provider}/${e.modelId}${tag}`, isLeaf);
    case "thinking_level_change":
      return stateLine(e, `thinking level → ${e.thinkingLevel ?? "off"}${tag}`, isLeaf);
    case "session_init":
      return card(e, "state", `subagent session · tools: ${e.tools.join(", ")}${tag}`, `<details><summary>task</summary><div class="text">${esc(e.task)}</div></details><details><summary>system prompt</summary><pre>${esc(e.systemPrompt)}</pre></details>`, isLeaf);
    case "session_info":
      return stateLine(e, `session name → ${e.name ?? ""}${tag}`, isLeaf);
    case "label":
      return stateLine(e, `label ${e.targetId} → ${e.label ?? "(cleared)"}${tag}`, isLeaf);
    case "custom":
      return card(e, "state", `custom entry · ${e.customType}${tag}`, e.data === undefined ? "" : `<details><summary>data</summary><pre>${escJson(e.data)}</pre></details>`, isLeaf);
    default:
      return card(e, "state", "entry", `<pre>${escJson(e)}</pre>`, isLeaf);
  }
}

/** One-line description of an entry for the tree (plain text, escaped by the caller). */
export function entrySummary(e: SessionEntry): string {
  switch (e.type) {
    case "message": {
      const m = e.message;
      if (m.role === "user" || m.role === "developer") return `${m.role}: ${preview(contentText(m.content), 80)}`;
      if (m.role === "assistant") {
        const text = m.content.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? `[${b.name}]` : "")).join(" ");
        return `assistant: ${preview(text, 80)}`;
      }
      if (m.role === "toolResult") return `tool result: ${m.toolName}`;
      if (m.role === "bashExecution") return `bash: ${preview(m.command, 80)}`;
      return m.role;
    }
    case "custom_message":
      return `custom: ${preview(contentText(e.content), 80)}`;
    case "model_change":
      return `model: ${e.provider}/${e.modelId}`;
    case "thinking_level_change":
      return `thinking: ${e.thinkingLevel ?? "off"}`;
    case "compaction":
      return `compaction: ${preview(e.summary, 60)}`;
    case "branch_summary":
      return `branch summary: ${preview(e.summary, 60)}`;
    default:
      return e.type;
  }
}
