// Images that models and hosts cannot take as they are (over 2,000 px a side, or over 4.5 MB,
// under Anthropic's 5 MB per-image limit) are scaled down with sharp, loaded on first use.
import type { ImageContent } from "../../shared/types.js";

export const MAX_IMAGE_SIDE = 2000;
export const MAX_IMAGE_SEND_BYTES = 4.5 * 1024 * 1024;

export interface Resized {
  from: { width: number; height: number; bytes: number };
  to: { width: number; height: number; bytes: number };
}

/** The image as is when it fits, else scaled to fit (PNG stays PNG, everything else becomes JPEG). */
export async function fitImage(buf: Buffer, mimeType: string): Promise<{ image: ImageContent; resized?: Resized }> {
  const sharp = (await import("sharp")).default;
  const meta = await sharp(buf, { animated: false }).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && buf.length <= MAX_IMAGE_SEND_BYTES) {
    return { image: { type: "image", data: buf.toString("base64"), mimeType } };
  }
  let side = MAX_IMAGE_SIDE;
  for (;;) {
    const pipeline = sharp(buf, { animated: false }).rotate().resize({ width: side, height: side, fit: "inside", withoutEnlargement: true });
    const png = mimeType === "image/png";
    const { data, info } = await (png ? pipeline.png({ compressionLevel: 9 }) : pipeline.jpeg({ quality: 85 })).toBuffer({ resolveWithObject: true });
    if (data.length <= MAX_IMAGE_SEND_BYTES || side <= 256) {
      return {
        image: { type: "image", data: data.toString("base64"), mimeType: png ? "image/png" : "image/jpeg" },
        resized: { from: { width, height, bytes: buf.length }, to: { width: info.width, height: info.height, bytes: data.length } },
      };
    }
    side = Math.floor(side * 0.7);
  }
}
