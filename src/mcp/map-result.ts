// An MCP `CallToolResult` in pith's content: text stays text; images the model can take stay
// images; embedded resources become their text (or an image, for an image blob); other binary
// content and resource links become one line saying what they are. `structuredContent` is kept
// in `details` and becomes the text when the server sent no content blocks.
import type { AgentToolResult, UserContent } from "../shared/types.js";

/** The MCP content block shapes pith reads (structural: the SDK is not imported here). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: "resource_link"; uri: string; name: string; description?: string; mimeType?: string }
  | { type: string; [key: string]: unknown };

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Pre-2024-11 servers answer `{toolResult}` instead of content. */
  toolResult?: unknown;
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export interface MapOptions {
  server: string;
  tool: string;
  acceptsImages: boolean;
}

/** Maps a successful result (`isError` is the caller's business). */
export function mapToolResult(result: McpCallResult, opts: MapOptions): AgentToolResult {
  const content = (result.content ?? []).flatMap((block) => mapBlock(block, opts.acceptsImages));
  if (content.length === 0) {
    const fallback = result.structuredContent ?? result.toolResult;
    if (fallback !== undefined) content.push({ type: "text", text: JSON.stringify(fallback, null, 2) });
  }
  const details: Record<string, unknown> = { server: opts.server, tool: opts.tool };
  if (result.structuredContent !== undefined) details.structuredContent = result.structuredContent;
  return { content, details };
}

/** The text an `isError` result carries, for the tool error the model sees. */
export function errorText(result: McpCallResult, opts: Pick<MapOptions, "server" | "tool">): string {
  const text = (result.content ?? [])
    .flatMap((b) => mapBlock(b, false))
    .map((c) => (c.type === "text" ? c.text : ""))
    .filter(Boolean)
    .join("\n");
  return text || `MCP tool "${opts.tool}" on server "${opts.server}" reported an error without a message`;
}

function mapBlock(block: McpContent, acceptsImages: boolean): UserContent[] {
  switch (block.type) {
    case "text":
      return [{ type: "text", text: String(block.text ?? "") }];
    case "image":
    case "audio":
      return binary(block.type, String(block.mimeType ?? ""), String(block.data ?? ""), undefined, acceptsImages);
    case "resource":
      return resource(block as Extract<McpContent, { type: "resource" }>, acceptsImages);
    case "resource_link": {
      const link = block as Extract<McpContent, { type: "resource_link" }>;
      return [{ type: "text", text: `[resource link] ${link.name}: ${link.uri}${link.description ? ` (${link.description})` : ""}` }];
    }
    default:
      return [{ type: "text", text: `[unsupported MCP content of type "${block.type}"]` }];
  }
}

function resource(block: Extract<McpContent, { type: "resource" }>, acceptsImages: boolean): UserContent[] {
  const r = block.resource ?? { uri: "(no uri)" };
  if (typeof r.text === "string") return [{ type: "text", text: `[resource ${r.uri}]\n${r.text}` }];
  if (typeof r.blob === "string") return binary("resource", r.mimeType ?? "application/octet-stream", r.blob, r.uri, acceptsImages);
  return [{ type: "text", text: `[resource ${r.uri}: no content]` }];
}

function binary(kind: string, mimeType: string, data: string, uri: string | undefined, acceptsImages: boolean): UserContent[] {
  if (IMAGE_TYPES.has(mimeType) && acceptsImages) {
    return uri ? [{ type: "text", text: `[resource ${uri}]` }, { type: "image", data, mimeType }] : [{ type: "image", data, mimeType }];
  }
  const bytes = Math.floor((data.replace(/=+$/, "").length * 3) / 4);
  const what = uri ? `resource ${uri}` : kind;
  const why = IMAGE_TYPES.has(mimeType) ? "the current model does not accept images" : "binary content is not shown to the model";
  return [{ type: "text", text: `[${what}: ${mimeType || "unknown type"}, ${bytes} bytes; ${why}]` }];
}
