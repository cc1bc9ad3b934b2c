// renderSessionHtml: one self-contained page (inline CSS, no scripts, no network) for a session.
import type { SessionEntry, SessionHeader } from "../../store/entry-types.js";
import { esc } from "./escape.js";
import { renderEntry } from "./render-entry.js";
import { SESSION_CSS } from "./styles.js";
import { renderTree } from "./tree.js";

export interface SessionHtmlInput {
  header: Readonly<SessionHeader>;
  /** All entries of the file, all branches, in file order. */
  entries: readonly SessionEntry[];
  leafId: string | null;
  systemPrompt?: string;
  tools?: ReadonlyArray<{ name: string; description: string }>;
}

/** Root-to-leaf ids (guarding against cycles). */
function branchIds(byId: Map<string, SessionEntry>, leafId: string | null): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let cur = leafId === null ? undefined : byId.get(leafId);
  while (cur && !seen.has(cur.id)) {
    seen.add(cur.id);
    out.push(cur.id);
    cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
  }
  return out.reverse();
}

function labelsOf(entries: readonly SessionEntry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    if (e.label) labels.set(e.targetId, e.label);
    else labels.delete(e.targetId);
  }
  return labels;
}

function renderMeta(input: SessionHtmlInput, entries: readonly SessionEntry[], name: string | undefined): string {
  let input_ = 0, output = 0, cacheRead = 0, cacheWrite = 0, cost = 0;
  for (const e of entries) {
    if (e.type !== "message" || e.message.role !== "assistant") continue;
    const u = e.message.usage;
    input_ += u.input; output += u.output; cacheRead += u.cacheRead; cacheWrite += u.cacheWrite; cost += u.cost.total;
  }
  const h = input.header;
  const rows: Array<[string, string | undefined]> = [
    ["Session", h.id],
    ["Created", h.timestamp],
    ["Working directory", h.cwd],
    ["Parent session", h.parentSession],
    ["Entries", String(entries.length)],
    ["Tokens (all branches)", `input ${input_}, output ${output}, cache read ${cacheRead}, cache write ${cacheWrite}`],
    ["Cost (all branches)", `$${cost.toFixed(4)}`],
  ];
  const dl = rows.filter(([, v]) => v !== undefined).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
  return `<header class="session"><h1>${esc(name ?? "pith session")}</h1><dl class="meta">${dl}</dl></header>`;
}

function renderSystem(input: SessionHtmlInput): string {
  const parts: string[] = [];
  if (input.systemPrompt) parts.push(`<details><summary>System prompt</summary><pre>${esc(input.systemPrompt)}</pre></details>`);
  if (input.tools && input.tools.length > 0) {
    const items = input.tools.map((t) => `<li><code>${esc(t.name)}</code> — ${esc(t.description)}</li>`).join("");
    parts.push(`<details><summary>Tools (${input.tools.length})</summary><ul>${items}</ul></details>`);
  }
  return parts.length > 0 ? `<section class="system">${parts.join("")}</section>` : "";
}

/** The session data for machine readers: base64 JSON, so no content can close the element. */
function dataBlock(input: SessionHtmlInput): string {
  const json = JSON.stringify({ header: input.header, entries: input.entries, leafId: input.leafId, systemPrompt: input.systemPrompt, tools: input.tools });
  return `<script type="application/json" id="session-data">${Buffer.from(json, "utf8").toString("base64")}</script>`;
}

/** The whole page. Every piece of session content is escaped; the CSP forbids scripts and loads. */
export function renderSessionHtml(input: SessionHtmlInput): string {
  const entries = input.entries;
  const byId = new Map(entries.map((e) => [e.id, e] as const));
  const branch = branchIds(byId, input.leafId);
  const onBranch = new Set(branch);
  const labels = labelsOf(entries);
  let name = input.header.name;
  for (const e of entries) if (e.type === "session_info" && e.name) name = e.name;
  const main = branch.map((id) => renderEntry(byId.get(id)!, id === input.leafId, labels.get(id))).join("\n");
  const others = entries.filter((e) => !onBranch.has(e.id));
  const otherHtml =
    others.length === 0
      ? ""
      : `<section class="other"><h2>Other branches (${others.length} entries)</h2><details><summary>Show</summary>${others
          .map((e) => renderEntry(e, false, labels.get(e.id)))
          .join("\n")}</details></section>`;
  const title = `pith session ${input.header.id}${name ? ` — ${name}` : ""}`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${SESSION_CSS}</style>`,
    "</head><body>",
    `<div class="layout">${renderTree(entries, onBranch, input.leafId, onBranch)}`,
    `<main>${renderMeta(input, entries, name)}${renderSystem(input)}<section class="branch">${main}</section>${otherHtml}</main>`,
    "</div>",
    dataBlock(input),
    "</body></html>",
    "",
  ].join("\n");
}
