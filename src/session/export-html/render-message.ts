// HTML for one message's content (user, assistant, tool result, bash, custom, summaries).
import type { AgentMessage, AssistantContent, UserContent } from "../../shared/types.js";
import { esc, escJson, imageDataUri } from "./escape.js";

function image(mimeType: string, data: string): string {
  const uri = imageDataUri(mimeType, data);
  return uri ? `<img class="attachment" alt="${esc(mimeType)} image" src="${esc(uri)}">` : `<div class="muted">[image: ${esc(mimeType)}]</div>`;
}

/** User-side content: a string or text/image blocks. */
export function renderUserContent(content: string | readonly UserContent[]): string {
  if (typeof content === "string") return `<div class="text">${esc(content)}</div>`;
  return content
    .map((b) => (b.type === "text" ? `<div class="text">${esc(b.text)}</div>` : image(b.mimeType, b.data)))
    .join("");
}

function renderAssistantBlock(b: AssistantContent): string {
  switch (b.type) {
    case "text":
      return `<div class="text">${esc(b.text)}</div>`;
    case "thinking":
      return `<details class="thinking"><summary>Thinking</summary><div class="text">${esc(b.thinking)}</div></details>`;
    case "redactedThinking":
      return `<details class="thinking"><summary>Thinking (redacted)</summary></details>`;
    case "toolCall":
      return (
        `<div class="toolcall"><span class="name">${esc(b.name)}</span> <code>${esc(b.id)}</code>` +
        (b.intent ? ` <span class="muted">${esc(b.intent)}</span>` : "") +
        `<pre>${escJson(b.arguments)}</pre></div>`
      );
    default:
      return `<pre>${escJson(b)}</pre>`;
  }
}

/** The label shown above a message and the extra CSS class it gets. */
export function messageRole(m: AgentMessage): { label: string; cls: string } {
  switch (m.role) {
    case "assistant":
      return { label: `assistant · ${m.provider}/${m.model}`, cls: m.stopReason === "error" || m.stopReason === "aborted" ? "assistant error" : "assistant" };
    case "toolResult":
      return { label: `tool result · ${m.toolName}`, cls: m.isError ? "toolResult error" : "toolResult" };
    case "bashExecution":
      return { label: "bash", cls: "bashExecution" };
    case "custom":
      return { label: `custom · ${m.customType}`, cls: "custom" };
    case "compactionSummary":
      return { label: "compaction summary", cls: "summary" };
    case "branchSummary":
      return { label: "branch summary", cls: "summary" };
    default:
      return { label: m.role, cls: m.role };
  }
}

/** The body of a message (without its card). */
export function renderMessageBody(m: AgentMessage): string {
  switch (m.role) {
    case "user":
    case "developer":
    case "custom":
      return renderUserContent(m.content);
    case "assistant": {
      const err = m.errorMessage ? `<div class="errmsg">${esc(m.stopReason)}: ${esc(m.errorMessage)}</div>` : "";
      return m.content.map(renderAssistantBlock).join("") + err;
    }
    case "toolResult":
      if (m.toolName === "task") return `<div class="muted">call <code>${esc(m.toolCallId)}</code></div>${renderTaskSections(m.content)}`;
      return `<div class="muted">call <code>${esc(m.toolCallId)}</code></div>${renderUserContent(m.content)}`;
    case "bashExecution": {
      const status = m.cancelled ? "(command cancelled)" : `exit code ${esc(m.exitCode ?? "?")}`;
      return `<pre>$ ${esc(m.command)}</pre><pre>${esc(m.output || "(no output)")}</pre><div class="muted">${status}${m.truncated ? " · truncated" : ""}</div>`;
    }
    case "compactionSummary":
      return `<div class="muted">${esc(m.tokensBefore)} tokens before</div><div class="text">${esc(m.summary)}</div>`;
    case "branchSummary":
      return `<div class="text">${esc(m.summary)}</div>`;
    default:
      return `<pre>${escJson(m)}</pre>`;
  }
}

/** The `task` tool's result: each subagent's `## Task <id>` section collapsed under its heading. */
function renderTaskSections(content: readonly UserContent[]): string {
  const text = content.map((b) => (b.type === "text" ? b.text : "")).join("");
  const parts = text.split(/^(?=## Task )/m).filter((p) => p.trim() !== "");
  if (parts.length === 0 || !parts[0]!.startsWith("## Task ")) return renderUserContent(content);
  return parts
    .map((p) => {
      const nl = p.indexOf("\n");
      const head = nl < 0 ? p : p.slice(0, nl);
      const body = nl < 0 ? "" : p.slice(nl + 1).trim();
      return `<details class="subagent"><summary>${esc(head.replace(/^## /, ""))}</summary><div class="text">${esc(body)}</div></details>`;
    })
    .join("");
}
