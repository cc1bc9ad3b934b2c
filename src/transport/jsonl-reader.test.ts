import { describe, expect, it } from "vitest";
import { JsonlLineSplitter, parseFrame, type LineItem } from "./jsonl-reader.js";

function split(chunks: Array<string | Buffer>, maxLineBytes?: number): LineItem[] {
  const splitter = new JsonlLineSplitter({ maxLineBytes });
  const items: LineItem[] = [];
  for (const chunk of chunks) items.push(...splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  return items.concat(splitter.end());
}
const lines = (items: LineItem[]) => items.map((i) => ("line" in i ? i.line : `ERR:${i.error}`));

describe("JsonlLineSplitter", () => {
  it("splits on LF and strips exactly one trailing CR", () => {
    expect(lines(split(['{"a":1}\r\n{"b":2}\n{"c":3}\r\r\n']))).toEqual(['{"a":1}', '{"b":2}', '{"c":3}\r']);
  });

  it("never treats a lone CR as a delimiter", () => {
    expect(lines(split(['{"a":1}\r{"b":2}\n']))).toEqual(['{"a":1}\r{"b":2}']);
  });

  it("skips empty and whitespace-only lines", () => {
    expect(lines(split(["\n  \n\t\r\n \r \n", '{"x":1}\n', "\n"]))).toEqual(['{"x":1}']);
  });

  it("keeps U+2028, U+2029 and U+0085 inside the line", () => {
    const frame = JSON.stringify({ type: "prompt", message: "a\u2028b\u2029c\u0085d" });
    const items = split([frame + "\n"]);
    expect(lines(items)).toEqual([frame]);
    expect(parseFrame(frame)).toEqual({ ok: true, value: { type: "prompt", message: "a\u2028b\u2029c\u0085d" } });
  });

  it("reassembles a multi-byte character split at every byte boundary", () => {
    const text = JSON.stringify({ message: "héllo € 𝄞 \u2028 日本" }) + "\n";
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(lines(split([bytes.subarray(0, cut), bytes.subarray(cut)]))).toEqual([text.slice(0, -1)]);
    }
    const oneByOne = [...bytes].map((b) => Buffer.from([b]));
    expect(lines(split(oneByOne))).toEqual([text.slice(0, -1)]);
  });

  it("reads a 5 MB line arriving in 64 KiB chunks", () => {
    const message = "x".repeat(5 * 1024 * 1024);
    const bytes = Buffer.from(JSON.stringify({ type: "prompt", message }) + "\n");
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 64 * 1024) chunks.push(bytes.subarray(i, i + 64 * 1024));
    const items = split(chunks);
    expect(items).toHaveLength(1);
    expect((items[0] as { line: string }).line.length).toBe(bytes.length - 1);
  });

  it("decodes a long line chunk by chunk to the same text as a whole decode (split characters, bad bytes, CR, cap)", () => {
    // past 1 MiB the splitter decodes as bytes arrive: characters split at chunk ends, invalid
    // sequences and a truncated character before the CR must come out as Buffer#toString gives them
    const unit = Buffer.concat([Buffer.from("aé€😀"), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from("z")]);
    const body = Buffer.concat(Array.from({ length: Math.ceil((1.5 * 1024 * 1024) / unit.length) }, () => unit));
    for (const tail of [Buffer.from("\r"), Buffer.from([0xe2, 0x0d]), Buffer.alloc(0)]) {
      const line = Buffer.concat([body, tail]);
      for (const size of [4093, 65536, 7]) {
        const bytes = Buffer.concat([line, Buffer.from("\n{\"b\":2}\n")]);
        const chunks: Buffer[] = [];
        for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
        const want = (tail[tail.length - 1] === 0x0d ? line.subarray(0, -1) : line).toString("utf8");
        expect(lines(split(chunks))).toEqual([want, '{"b":2}']);
      }
      // unterminated at the end of input, and over the cap
      expect(lines(split([line.subarray(0, 1024 * 1024), line.subarray(1024 * 1024)]))).toEqual([(tail[tail.length - 1] === 0x0d ? line.subarray(0, -1) : line).toString("utf8")]);
      expect(split([body.subarray(0, 1024 * 1024 + 10), body.subarray(1024 * 1024 + 10), Buffer.from("\n")], body.length - 1)[0]).toHaveProperty("error");
    }
  });

  it("reports an oversized line once, discards it up to its LF, then continues", () => {
    const big = "y".repeat(100);
    const items = split(['{"a":1}\n', big.slice(0, 40), big.slice(40) + "\n", '{"b":2}\n'], 50);
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual({ line: '{"a":1}' });
    expect("error" in items[1] && items[1].error).toMatch(/exceeds the maximum frame size of 50 bytes/);
    expect(items[2]).toEqual({ line: '{"b":2}' });
    expect(lines(split([big + "\n" + '{"c":3}\n'], 50)).slice(1)).toEqual(['{"c":3}']);
  });

  it("accepts a line of exactly the cap, even with its CR", () => {
    const exact = "z".repeat(50);
    expect(lines(split([exact + "\r\n"], 50))).toEqual([exact]);
    expect(split(["z".repeat(51) + "\n"], 50)[0]).toHaveProperty("error");
  });

  it("skips a UTF-8 BOM at stream start only, even split across chunks", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(lines(split([Buffer.concat([bom, Buffer.from('{"a":1}\n')])]))).toEqual(['{"a":1}']);
    expect(lines(split([bom.subarray(0, 1), bom.subarray(1, 2), Buffer.concat([bom.subarray(2), Buffer.from('{"a":1}\n')])]))).toEqual(['{"a":1}']);
    expect(lines(split(['{"a":1}\n', Buffer.concat([bom, Buffer.from('{"b":2}\n')])]))).toEqual(['{"a":1}', '\ufeff{"b":2}']);
    expect(lines(split([Buffer.from([0xef, 0xbb])]))).toEqual(["\ufffd"]);
  });

  it("returns the unterminated last fragment at end()", () => {
    const splitter = new JsonlLineSplitter();
    expect(splitter.push(Buffer.from('{"a":1}\n{"b":'))).toEqual([{ line: '{"a":1}' }]);
    expect(splitter.end()).toEqual([{ line: '{"b":' }]);
    expect(splitter.end()).toEqual([]);
  });
});

describe("parseFrame", () => {
  it("accepts objects and rejects bad JSON and non-objects with a clear error", () => {
    expect(parseFrame(' {"type":"get_state"} ')).toEqual({ ok: true, value: { type: "get_state" } });
    expect(parseFrame('{"a":')).toMatchObject({ ok: false, error: expect.stringMatching(/^Invalid JSON: /) });
    expect(parseFrame("{} {}")).toMatchObject({ ok: false });
    expect(parseFrame("42")).toEqual({ ok: false, error: "Invalid frame: expected a JSON object, got a number" });
    expect(parseFrame("null")).toEqual({ ok: false, error: "Invalid frame: expected a JSON object, got null" });
    expect(parseFrame("[1]")).toEqual({ ok: false, error: "Invalid frame: expected a JSON object, got an array" });
  });
});
