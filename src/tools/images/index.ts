// `inspect_image` (an image and a question to a vision-capable model, the answer back) and
// `display_image` (the image as image content, for the host to show), as in the reference.
import { Type, type Static } from "typebox";
import type { ImageContent, Usage } from "../../shared/types.js";
import type { FsOps } from "../ops/fs-ops.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { detectImageMime } from "../read/image.js";
import { jsonSchema } from "../schema.js";
import { formatSize } from "../truncate.js";
import { fitImage, type Resized } from "./fit.js";
import type { Tool } from "../types.js";

/** Image files larger than this are refused; smaller ones too big to send are scaled down (fit.ts). */
export const MAX_IMAGE_INPUT_BYTES = 20 * 1024 * 1024;

export const INSPECT_SYSTEM_PROMPT = `You are an image-analysis assistant.
- Be evidence-first: distinguish direct observations from inferences.
- If something is unclear, say uncertain rather than guessing; do not fabricate unreadable or occluded details.
- For OCR-style requests preserve exact visible text, including casing and punctuation.
- Keep output compact: 1) Answer 2) Key evidence 3) Caveats / uncertainty (unless the question asks for another format).`;

/** The session's side of inspect_image: one request to a vision-capable model. */
export type VisionPort = (req: { image: ImageContent; question: string; systemPrompt: string; signal: AbortSignal }) => Promise<{
  text: string;
  model: string;
  usage?: Usage;
}>;

const InspectParams = Type.Object(
  {
    path: Type.String({ description: "Filesystem path to an image" }),
    question: Type.String({ description: "Question to ask about the image" }),
  },
  { additionalProperties: false },
);
const DisplayParams = Type.Object(
  {
    path: Type.String({ description: "Filesystem path to an image file" }),
    caption: Type.Optional(Type.String({ description: "Caption text shown below the image" })),
  },
  { additionalProperties: false },
);
export type InspectImageArgs = Static<typeof InspectParams>;
export type DisplayImageArgs = Static<typeof DisplayParams>;

async function loadImage(fs: FsOps, shown: string, cwd: string, tool: string): Promise<{ image: ImageContent; abs: string; resized?: Resized }> {
  const abs = resolveToolPath(shown, cwd);
  const st = await fs.stat(abs);
  if (!st || !st.isFile) throw new Error(st ? `Not a file: ${shown}` : `File not found: ${shown}`);
  if (st.size > MAX_IMAGE_INPUT_BYTES) throw new Error(`Image file too large: ${formatSize(st.size)} exceeds ${formatSize(MAX_IMAGE_INPUT_BYTES)} limit.`);
  const buf = await fs.readFile(abs);
  const mimeType = detectImageMime(buf);
  if (!mimeType) throw new Error(`${tool} only supports PNG, JPEG, GIF, and WEBP files detected by file content.`);
  const { image, resized } = await fitImage(buf, mimeType);
  return resized ? { image, abs, resized } : { image, abs };
}

export function createInspectImageTool(opts: { fs: FsOps; vision: VisionPort }): Tool<InspectImageArgs> {
  return {
    name: "inspect_image",
    summary: "Ask a vision model about an image file",
    label: "Inspect Image",
    description:
      "Inspect an image file with a vision-capable model: give the path and a question (what it shows, text in it (OCR), UI state in a screenshot, …); returns the model's answer. Use this instead of reading image files.",
    parameters: jsonSchema(InspectParams),
    // reads the image and asks the session's vision model about it
    effect: "read-only",
    paths: (a) => pathArg(a, "path", "file"),
    concurrency: "shared",
    source: "builtin",
    async execute(args, ctx) {
      if (!args.question.trim()) throw new Error("question must not be empty");
      const { image, abs } = await loadImage(opts.fs, args.path, ctx.cwd, "inspect_image");
      const answer = await opts.vision({ image, question: args.question, systemPrompt: INSPECT_SYSTEM_PROMPT, signal: ctx.signal });
      if (!answer.text.trim()) throw new Error("inspect_image model returned no text output.");
      return {
        content: [{ type: "text", text: answer.text }],
        details: { model: answer.model, imagePath: abs, mimeType: image.mimeType, ...(answer.usage ? { usage: answer.usage } : {}) },
      };
    },
  };
}

export function createDisplayImageTool(opts: { fs: FsOps }): Tool<DisplayImageArgs> {
  return {
    name: "display_image",
    summary: "Show an image file to the user",
    label: "Display Image",
    description: "Show an image file (PNG, JPEG, GIF, WEBP) to the user; the host displays it. Use inspect_image to understand an image yourself.",
    parameters: jsonSchema(DisplayParams),
    effect: "read-only",
    paths: (a) => pathArg(a, "path", "file"),
    concurrency: "shared",
    source: "builtin",
    async execute(args, ctx) {
      const { image, abs, resized } = await loadImage(opts.fs, args.path, ctx.cwd, "display_image");
      return {
        content: [image, ...(args.caption ? [{ type: "text" as const, text: args.caption }] : [])],
        details: { imagePath: abs, mimeType: image.mimeType, displayMethod: "inline", ...(resized ? { resized } : {}) },
      };
    },
  };
}
