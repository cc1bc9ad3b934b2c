import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../shared/types.js";
import { MAX_PAGE_BYTES, PAGE_STALE_ERROR, decodeCursor, pageMessages } from "./messages-page.js";

const msg = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 }) as AgentMessage;
const snap = (n: number) => ({ sessionId: "s1", leafId: "l1", messageCount: n });

describe("get_messages_page", () => {
  it("pages through every message in order with cursors", () => {
    const all = Array.from({ length: 250 }, (_, i) => msg(`m${i}`));
    const seen: AgentMessage[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = pageMessages(all, snap(all.length), { cursor, limit: 100 });
      expect(page.totalMessages).toBe(250);
      seen.push(...page.messages);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
  });

  it("keeps a page under the byte budget (one oversized message still goes alone)", () => {
    const all = [msg("a".repeat(500_000)), msg("b".repeat(500_000)), msg("c".repeat(2_000_000))];
    const first = pageMessages(all, snap(3));
    expect(first.messages).toHaveLength(1);
    expect(Buffer.byteLength(JSON.stringify(first.messages))).toBeLessThan(MAX_PAGE_BYTES);
    const second = pageMessages(all, snap(3), { cursor: first.nextCursor });
    expect(second.messages).toHaveLength(1);
    const third = pageMessages(all, snap(3), { cursor: second.nextCursor });
    expect(third.messages).toEqual([all[2]]);
    expect(third.nextCursor).toBeUndefined();
  });

  it("refuses bad limits, malformed cursors and stale ones", () => {
    const all = [msg("a"), msg("b")];
    expect(() => pageMessages(all, snap(2), { limit: 0 })).toThrow("RPC message page limit must be between 1 and 256");
    expect(() => pageMessages(all, snap(2), { limit: 1.5 })).toThrow("between 1 and 256");
    expect(() => pageMessages(all, snap(2), { cursor: "!!" })).toThrow("Invalid RPC message cursor");
    expect(() => decodeCursor(Buffer.from("[1]").toString("base64url"))).toThrow("Invalid RPC message cursor");
    const { nextCursor } = pageMessages(all, snap(2), { limit: 1 });
    expect(() => pageMessages([...all, msg("c")], snap(3), { cursor: nextCursor })).toThrow(PAGE_STALE_ERROR);
  });
});

describe("get_messages_page (property)", () => {
  it("pages of random messages concatenate to the whole context and respect the budget", async () => {
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 400_000 }), { maxLength: 40 }), fc.integer({ min: 1, max: 256 }), (sizes, limit) => {
        const all = sizes.map((n, i) => msg(`${i}:` + "m".repeat(n)));
        const seen: AgentMessage[] = [];
        let cursor: string | undefined;
        do {
          const page = pageMessages(all, snap(all.length), { cursor, limit });
          expect(page.messages.length).toBeLessThanOrEqual(limit);
          if (page.messages.length > 1) expect(Buffer.byteLength(JSON.stringify(page.messages))).toBeLessThanOrEqual(MAX_PAGE_BYTES);
          if (all.length > 0) expect(page.messages.length).toBeGreaterThan(0);
          seen.push(...page.messages);
          cursor = page.nextCursor;
        } while (cursor);
        expect(seen).toEqual(all);
      }),
      { numRuns: 40 },
    );
  });
});
