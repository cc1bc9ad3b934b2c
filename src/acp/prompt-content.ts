// ACP prompt content → the text and images of a pith user message. Embedded resources become
// tagged text; resource links to files are read (through the same reader the tools use, so an
// editor's unsaved buffer wins when the client offers its file system).
import { fileURLToPath } from "node:url";
import type { ImageContent } from "../shared/types.js";

export type PromptBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string; uri?: string | null }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string | null }
  | { type: "resource"; resource: { uri: string; text?: string; blob?: string; mimeType?: string | null } };

export interface PromptMessage {
  text: string;
  images: ImageContent[];
}

function fileTag(uri: string, body: string): string {
  return `<file uri="${uri}">\n${body}\n</file>`;
}

function filePathOf(uri: string): string | undefined {
  if (uri.startsWith("file://")) {
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  }
  return uri.startsWith("/") ? uri : undefined;
}

/**
 * Builds the user message. `readFile` reads a linked file's text (undefined when it cannot), and
 * is only called for `resource_link` blocks that name a local file.
 */
export async function promptMessage(blocks: readonly PromptBlock[], readFile: (path: string) => Promise<string | undefined>): Promise<PromptMessage> {
  const parts: string[] = [];
  const images: ImageContent[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        parts.push(b.text);
        break;
      case "image":
        images.push({ type: "image", data: b.data, mimeType: b.mimeType });
        break;
      case "resource": {
        const r = b.resource;
        if (typeof r.text === "string") parts.push(fileTag(r.uri, r.text));
        else if (typeof r.blob === "string" && r.mimeType?.startsWith("image/")) images.push({ type: "image", data: r.blob, mimeType: r.mimeType });
        else parts.push(`[binary resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""} not included]`);
        break;
      }
      case "resource_link": {
        const file = filePathOf(b.uri);
        const text = file === undefined ? undefined : await readFile(file);
        parts.push(text === undefined ? `[${b.name}](${b.uri})` : fileTag(b.uri, text));
        break;
      }
      case "audio":
        parts.push("[audio input is not supported]");
        break;
    }
  }
  return { text: parts.join("\n\n"), images };
}
