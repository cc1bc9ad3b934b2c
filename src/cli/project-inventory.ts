// What a folder's project layer holds: everything project-local that is code or policy, which
// loads only when the folder is trusted (`get_project_trust`'s `found`, and the stderr notice of
// an untrusted folder). Finding never loads or runs anything.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectExtensionPaths } from "../extensions/index.js";
import { readMcpJson } from "../mcp/mcp-json.js";
import { findRuleFiles } from "../session/index.js";
import type { ProjectLayerItem } from "../shared/schema/index.js";
import { agentFiles, parseAgentMarkdown, projectAgentDirs } from "../tools/index.js";
import { settingsPaths } from "./settings.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every item of `cwd`'s project layer, in load order by kind. */
export async function findProjectLayer(cwd: string, pithHome: string): Promise<ProjectLayerItem[]> {
  const items: ProjectLayerItem[] = [...settingsItems(settingsPaths(pithHome, cwd).projectPath)];
  for (const file of projectExtensionPaths(cwd)) items.push({ kind: "extension", path: file });
  for (const dir of projectAgentDirs(cwd)) {
    for (const file of agentFiles(dir)) items.push({ kind: "agent", path: file, name: agentName(file) });
  }
  for (const ref of findRuleFiles({ cwd, pithHome, levels: ["project"], warn: () => undefined })) {
    items.push({ kind: "rule", path: ref.path, name: path.basename(ref.path, path.extname(ref.path)) });
  }
  const prompts = path.join(cwd, ".pith", "prompts");
  for (const name of markdownFiles(prompts)) items.push({ kind: "prompt", path: path.join(prompts, name), name: name.replace(/\.md$/i, "") });
  const mcpJson = await readMcpJson(cwd);
  if (mcpJson.error) items.push({ kind: "mcp_server", path: mcpJson.path });
  if (isObj(mcpJson.servers)) for (const name of Object.keys(mcpJson.servers)) items.push({ kind: "mcp_server", path: mcpJson.path, name });
  return items;
}

/** The keys a project settings file sets (dotted, to the leaves), and its `mcpServers`. */
function settingsItems(file: string): ProjectLayerItem[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    return [{ kind: "settings", path: file }];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // not JSON: listed without keys (loading it would fail with the parse error)
    void err;
    return [{ kind: "settings", path: file }];
  }
  if (!isObj(json)) return [{ kind: "settings", path: file }];
  const { mcpServers, ...rest } = json;
  const items: ProjectLayerItem[] = leafKeys(rest, "").map((name) => ({ kind: "settings", path: file, name }));
  if (isObj(mcpServers)) for (const name of Object.keys(mcpServers)) items.push({ kind: "mcp_server", path: file, name });
  return items.length > 0 ? items : [{ kind: "settings", path: file }];
}

function leafKeys(obj: Record<string, unknown>, prefix: string): string[] {
  return Object.entries(obj).flatMap(([key, value]) => (isObj(value) && Object.keys(value).length > 0 ? leafKeys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
}

function agentName(file: string): string {
  try {
    return parseAgentMarkdown(readFileSync(file, "utf8"), file)?.name ?? path.basename(file, ".md");
  } catch (err) {
    // unreadable: named by its file
    void err;
    return path.basename(file, ".md");
  }
}

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith(".md"))
      .sort();
  } catch (err) {
    // no prompts folder: nothing from it
    void err;
    return [];
  }
}

const KIND_LABEL: Record<ProjectLayerItem["kind"], string> = {
  settings: "settings",
  extension: "extensions",
  agent: "agents",
  rule: "rules",
  prompt: "prompts",
  mcp_server: "MCP servers",
};

/** The stderr notice of an untrusted folder: what was ignored, and how to trust it. */
export function untrustedNotice(folder: string, cwd: string, items: readonly ProjectLayerItem[], pithHome: string): string {
  const rel = (p: string) => path.relative(cwd, p) || p;
  const groups = new Map<ProjectLayerItem["kind"], string[]>();
  for (const item of items) {
    const label = item.kind === "settings" ? (item.name ?? rel(item.path)) : item.name ? `${item.name} (${rel(item.path)})` : rel(item.path);
    groups.set(item.kind, [...(groups.get(item.kind) ?? []), label]);
  }
  const parts = [...groups].map(([kind, labels]) => `${KIND_LABEL[kind]}: ${labels.join(", ")}`);
  return (
    `pith: ${folder} is not a trusted folder; its project layer was ignored (${parts.join("; ")}). ` +
    `To trust it: start pith with --trust-project (or PITH_TRUST_PROJECT=1), add the folder to "trustedFolders" in ` +
    `${path.join(pithHome, "settings.json")}, or send {"type":"trust_project"} (RPC).`
  );
}
