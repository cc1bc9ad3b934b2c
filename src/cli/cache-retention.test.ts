import { describe, expect, it } from "vitest";
import { resolveCacheRetention } from "./cache-retention.js";
import { validateSettings } from "./settings.js";

describe("cacheRetention", () => {
  it('defaults to "short"; the settings value applies; PITH_CACHE_RETENTION wins', () => {
    expect(resolveCacheRetention(undefined, {})).toBe("short");
    expect(resolveCacheRetention("none", {})).toBe("none");
    expect(resolveCacheRetention("none", { PITH_CACHE_RETENTION: "LONG" })).toBe("long");
    expect(resolveCacheRetention("long", { PITH_CACHE_RETENTION: " " })).toBe("long");
  });

  it("rejects a bad value in the variable or the settings file with a clear error", () => {
    expect(() => resolveCacheRetention(undefined, { PITH_CACHE_RETENTION: "forever" })).toThrow(/PITH_CACHE_RETENTION "forever": expected one of none, short, long/);
    expect(() => validateSettings({ cacheRetention: "1h" }, "s.json", () => {})).toThrow(/cacheRetention in s.json: expected one of "none", "short", "long"/);
    expect(validateSettings({ cacheRetention: "long" }, "s.json", () => {})).toEqual({ cacheRetention: "long" });
  });
});
