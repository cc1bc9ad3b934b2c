// The lsp tool's questions about a position: definition, type_definition, implementation,
// references and hover. Locations come back as `path:line:col` with the line's text.
import { fileURLToPath } from "node:url";
import type { Hover, Location, MarkedString, MarkupContent, Position } from "vscode-languageserver-protocol";
import { readText, type Target } from "./call-context.js";
import { uriOf } from "./documents.js";
import { displayPath, locationsOf } from "./format.js";
import { lineText } from "./text-edits.js";
import type { FsOps } from "../tools/index.js";

const MAX_LOCATIONS = 100;
const MAX_HOVER_CHARS = 4000;
const LINE_CHARS = 200;

const METHODS = {
  definition: "textDocument/definition",
  type_definition: "textDocument/typeDefinition",
  implementation: "textDocument/implementation",
  references: "textDocument/references",
} as const;

export type LocationAction = keyof typeof METHODS;

export async function findLocations(action: LocationAction, t: Target, position: Position, fs: FsOps, cwd: string, signal: AbortSignal): Promise<string> {
  const params: Record<string, unknown> = { textDocument: { uri: uriOf(t.abs) }, position };
  if (action === "references") params.context = { includeDeclaration: true };
  const locations = locationsOf(await t.server.request(METHODS[action], params, signal));
  const what = action.replace("_", " ");
  if (locations.length === 0) return `No ${what} found.`;
  const lines = await Promise.all(locations.slice(0, MAX_LOCATIONS).map((l) => locationLine(l, fs, cwd)));
  if (locations.length > MAX_LOCATIONS) lines.push(`… ${locations.length - MAX_LOCATIONS} more not shown`);
  const noun = action === "references" ? "reference" : what;
  return `${locations.length} ${noun}${locations.length === 1 ? "" : "s"}:\n${lines.join("\n")}`;
}

export async function hover(t: Target, position: Position, signal: AbortSignal): Promise<string> {
  const result = await t.server.request<Hover | null>("textDocument/hover", { textDocument: { uri: uriOf(t.abs) }, position }, signal);
  const text = result ? hoverText(result.contents).trim() : "";
  if (!text) return "No hover information.";
  return text.length > MAX_HOVER_CHARS ? `${text.slice(0, MAX_HOVER_CHARS)}…` : text;
}

function hoverText(contents: MarkupContent | MarkedString | MarkedString[]): string {
  if (Array.isArray(contents)) return contents.map((c) => hoverText(c)).join("\n\n");
  if (typeof contents === "string") return contents;
  if ("kind" in contents) return contents.value;
  return "```" + contents.language + "\n" + contents.value + "\n```";
}

/** `a.ts:3:17: export function greet(name: string) {` */
async function locationLine(l: Location, fs: FsOps, cwd: string): Promise<string> {
  const where = `${displayPath(l.uri, cwd)}:${l.range.start.line + 1}:${l.range.start.character + 1}`;
  let text: string | undefined;
  try {
    const file = await readText(fs, fileURLToPath(l.uri));
    text = file === undefined ? undefined : lineText(file, l.range.start.line)?.trim();
  } catch {
    text = undefined; // a location outside the file system (a library inside an archive): its place only
  }
  if (!text) return where;
  return `${where}: ${text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text}`;
}
