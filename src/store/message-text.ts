// Text of message content: text blocks concatenated with no separator, images ignored.
import type { AssistantContent, UserContent } from "../shared/types.js";

export function contentText(content: string | readonly (UserContent | AssistantContent)[]): string {
  if (typeof content === "string") return content;
  let out = "";
  for (const block of content) if (block.type === "text") out += block.text;
  return out;
}
