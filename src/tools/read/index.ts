// `read`: a text file (with line numbers when asked), paged by offset/limit, or an image.
import { Type, type Static } from "typebox";
import type { AgentToolResult } from "../../shared/types.js";
import type { FsOps } from "../ops/fs-ops.js";
import type { OutputMeta } from "../output-notice.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from "../truncate.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import type { FileObserver } from "../write/file-observer.js";
import { formatHashLines, loadLineHasher, type LineHasher } from "../hashline/line-hash.js";
import { detectImageMime, MAX_IMAGE_BYTES } from "./image.js";

/** Line numbers cost bytes on every later request: off by default, like pi and xcsh. */
function readDescription(lineNumbers: boolean): string {
  const text = lineNumbers ? "Text comes back with line numbers (number, tab, text)" : "Text comes back as is";
  return `Read a file. ${text}, at most 2000 lines or 50KB: page with offset and limit. Images (png, jpg, gif, webp) come back as attachments.`;
}

const ReadParams = Type.Object({
  path: Type.String(),
  offset: Type.Optional(Type.Integer({ minimum: 1, description: "First line (1-based)" })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type ReadArgs = Static<typeof ReadParams>;

export interface ReadToolOptions {
  fs: FsOps;
  modelAcceptsImages: () => boolean;
  /** Prefix each text line with its number and a tab (setting `readLineNumbers`); default off. */
  lineNumbers?: boolean;
  /** Hashline edit mode: lines come back as `N#HH:<text>` instead of numbered. */
  hashLines?: boolean;
  /** Told of every text file read (a language server starts on it before the model writes). */
  observer?: FileObserver;
}

const HASHLINE_DESCRIPTION = readDescription(false).replace(
  "Text comes back as is",
  "Text comes back as LINE#ID:text lines (e.g. 12#QV:const x = 1;), the LINE#ID parts being the anchors edit takes",
);

export function createReadTool(opts: ReadToolOptions): Tool<ReadArgs> {
  return {
    name: "read",
    label: "Read",
    description: opts.hashLines ? HASHLINE_DESCRIPTION : readDescription(opts.lineNumbers ?? false),
    parameters: jsonSchema(ReadParams),
    effect: "read-only",
    paths: (a) => pathArg(a, "path", "file"),
    concurrency: "shared",
    nonAbortable: true,
    source: "builtin",
    async execute(args, ctx) {
      const abs = resolveToolPath(args.path, ctx.cwd);
      const buf = await readOrExplain(opts.fs, abs, args.path);
      const mime = detectImageMime(buf);
      if (mime) return readImage(buf, mime, opts.modelAcceptsImages());
      const text = buf.toString("utf8");
      opts.observer?.afterRead?.(abs, text);
      const lineNumbers = opts.lineNumbers ?? false;
      const format: LineFormat = opts.hashLines ? hashFormat(await loadLineHasher()) : (lines, first) => numbered(lines, first, lineNumbers);
      return readText(text, args, args.path, format, opts.hashLines === true);
    },
  };
}

/**
 * Reads the file in one filesystem round trip; only when that fails does a `stat` decide the
 * message (missing, a directory), so the common case costs one call instead of two.
 */
async function readOrExplain(fs: FsOps, abs: string, shown: string): Promise<Buffer> {
  try {
    return await fs.readFile(abs);
  } catch (err) {
    const st = await fs.stat(abs);
    if (!st) throw new Error(`File not found: ${shown}`);
    if (st.isDirectory) throw new Error(`Path is a directory: ${shown}. Use ls to list its contents.`);
    throw err;
  }
}

function readImage(buf: Buffer, mime: string, acceptsImages: boolean): AgentToolResult {
  if (buf.length > MAX_IMAGE_BYTES) {
    throw new Error(`Image file too large: ${formatSize(buf.length)} exceeds ${formatSize(MAX_IMAGE_BYTES)} limit.`);
  }
  if (!acceptsImages) {
    return {
      content: [{ type: "text", text: `Read image file [${mime}]\n[The current model does not accept images; image content omitted.]` }],
      details: { kind: "image", mimeType: mime, omitted: true },
    };
  }
  return {
    content: [
      { type: "text", text: `Read image file [${mime}]` },
      { type: "image", data: buf.toString("base64"), mimeType: mime },
    ],
    details: { kind: "image", mimeType: mime },
  };
}

function numbered(lines: string[], first: number, on: boolean): string {
  return on ? lines.map((l, i) => `${first + i}\t${l}`).join("\n") : lines.join("\n");
}

type LineFormat = (lines: string[], first: number) => string;

function hashFormat(hash: LineHasher): LineFormat {
  return (lines, first) => formatHashLines(hash, lines, first);
}

function readText(text: string, args: ReadArgs, shownPath: string, format: LineFormat, hashLines: boolean): AgentToolResult {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const total = text === "" ? 0 : lines.length;
  const start = (args.offset ?? 1) - 1;
  if (total === 0 && start === 0) return { content: [{ type: "text", text: "(empty file)" }], details: { kind: "text" } };
  if (start >= total) throw new Error(`Offset ${args.offset} is beyond end of file (${total} lines total)`);
  const end = args.limit !== undefined ? Math.min(start + args.limit, total) : total;
  const body = format(lines.slice(start, end), start + 1);
  const t = truncateHead(body);
  if (t.firstLineExceedsLimit) {
    const n = start + 1;
    const size = formatSize(Buffer.byteLength(lines[start], "utf8"));
    const msg =
      !hashLines
        ? `[Line ${n} is ${size}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${n}p' ${shownPath} | head -c ${DEFAULT_MAX_BYTES}]`
        : `[Line ${n} is ${size}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Hashline output requires full lines; cannot compute hashes for a truncated preview.]`;
    return { content: [{ type: "text", text: msg }], details: { kind: "text", truncation: t } };
  }
  const meta: OutputMeta = {};
  if (t.truncated) {
    const endLine = start + t.outputLines;
    meta.truncation = { startLine: start + 1, endLine, totalLines: total };
    if (t.truncatedBy === "bytes") meta.truncation.maxBytes = t.maxBytes;
    meta.hint = `Use offset=${endLine + 1} to continue.`;
  } else if (end < total) {
    meta.notes = [`${total - end} more lines in file. Use offset=${end + 1} to continue.`];
  }
  const details = t.truncated || end < total ? { kind: "text", truncation: t.truncated ? t : undefined, meta } : { kind: "text" };
  return { content: [{ type: "text", text: t.content }], details };
}
