import { describe, expect, it } from "vitest";
import { formatSize, headBytes, tailBytes, truncateHead, truncateLine, truncateTail } from "./truncate.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("truncateHead", () => {
  it("leaves small text alone", () => {
    const t = truncateHead("a\nb");
    expect(t).toMatchObject({ truncated: false, content: "a\nb", totalLines: 2, outputLines: 2 });
  });
  it("cuts by lines", () => {
    const t = truncateHead(lines(2500));
    expect(t).toMatchObject({ truncated: true, truncatedBy: "lines", outputLines: 2000, totalLines: 2500 });
    expect(t.content.split("\n").at(-1)).toBe("line 2000");
  });
  it("cuts by bytes on whole lines", () => {
    const text = Array.from({ length: 100 }, () => "x".repeat(1000)).join("\n");
    const t = truncateHead(text);
    expect(t.truncatedBy).toBe("bytes");
    expect(t.outputBytes).toBeLessThanOrEqual(50 * 1024);
    expect(t.content.split("\n").every((l) => l.length === 1000)).toBe(true);
    expect(t.outputLines).toBe(51);
  });
  it("reports a first line over the limit", () => {
    const t = truncateHead("y".repeat(60 * 1024) + "\nshort");
    expect(t).toMatchObject({ truncated: true, firstLineExceedsLimit: true, content: "" });
  });
});

describe("truncateTail", () => {
  it("keeps the end by lines", () => {
    const t = truncateTail(lines(3000));
    expect(t.outputLines).toBe(2000);
    expect(t.content.split("\n")[0]).toBe("line 1001");
  });
  it("keeps a UTF-8-safe tail of one huge line", () => {
    const t = truncateTail("é".repeat(40 * 1024));
    expect(t.lastLinePartial).toBe(true);
    expect(t.outputBytes).toBeLessThanOrEqual(50 * 1024);
    expect(t.content).not.toContain("\uFFFD");
    expect([...t.content].every((c) => c === "é")).toBe(true);
  });
});

describe("byte helpers", () => {
  it("never split a multi-byte character", () => {
    expect(headBytes("aé", 2)).toBe("a");
    expect(tailBytes("éa", 2)).toBe("a");
    expect(headBytes("😀😀", 5)).toBe("😀");
  });
  it("format sizes and cut lines", () => {
    expect(formatSize(51200)).toBe("50.0KB");
    expect(formatSize(10)).toBe("10B");
    expect(truncateLine("abcdef", 3)).toEqual({ text: "abc... [truncated]", wasTruncated: true });
  });
});
