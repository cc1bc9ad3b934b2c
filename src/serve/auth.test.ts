import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { generateToken, presentedToken, refusal, tokenCheckFromSha256, tokenCheckFromToken } from "./auth.js";
import { isLoopback, parseListenAddress } from "./listen-address.js";

const req = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage;
const TOKEN = "a-token-of-enough-length";

describe("upgrade authentication", () => {
  it("accepts the token as a Bearer header or ?token=, the header first", () => {
    expect(presentedToken(req("/", { authorization: `Bearer ${TOKEN}` }))).toBe(TOKEN);
    expect(presentedToken(req(`/?token=${TOKEN}`))).toBe(TOKEN);
    expect(presentedToken(req(`/?token=other`, { authorization: `Basic ${TOKEN}` }))).toBeUndefined();
    expect(presentedToken(req("/"))).toBeUndefined();
  });

  it("checks the token and its SHA-256 alike; a prefix, a longer string or nothing fails", () => {
    const hex = createHash("sha256").update(TOKEN).digest("hex");
    for (const check of [tokenCheckFromToken(TOKEN), tokenCheckFromSha256(hex)]) {
      expect(check.accepts(TOKEN)).toBe(true);
      expect(check.accepts(TOKEN.slice(0, -1))).toBe(false);
      expect(check.accepts(TOKEN + "x")).toBe(false);
      expect(check.accepts(undefined)).toBe(false);
    }
    expect(() => tokenCheckFromSha256("abc")).toThrow(/64 hex digits/);
    expect(generateToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("refuses an Origin not allowed (403) before the token (401)", () => {
    const auth = tokenCheckFromToken(TOKEN);
    expect(refusal(req("/", { origin: "https://evil.example", authorization: `Bearer ${TOKEN}` }), auth, [])).toMatchObject({ status: 403 });
    expect(refusal(req("/", { origin: "https://ide.example", authorization: `Bearer ${TOKEN}` }), auth, ["https://ide.example"])).toBeUndefined();
    expect(refusal(req("/?token=nope"), auth, [])).toEqual({ status: 401, reason: "wrong token" });
    expect(refusal(req("/"), auth, [])).toEqual({ status: 401, reason: "no token presented" });
    expect(refusal(req("/"), undefined, [])).toBeUndefined();
  });
});

describe("--listen", () => {
  it("parses ws://HOST:PORT and unix:PATH and knows which are loopback", () => {
    expect(parseListenAddress("ws://127.0.0.1:8787")).toEqual({ kind: "tcp", host: "127.0.0.1", port: 8787 });
    expect(parseListenAddress("ws://[::1]:0")).toEqual({ kind: "tcp", host: "::1", port: 0 });
    expect(parseListenAddress("unix:/run/pith.sock")).toEqual({ kind: "unix", path: "/run/pith.sock" });
    for (const bad of ["http://127.0.0.1:1", "ws://127.0.0.1", "ws://127.0.0.1:1/x", "unix:", "nonsense"]) expect(() => parseListenAddress(bad)).toThrow(/--listen/);
    expect(isLoopback(parseListenAddress("ws://localhost:1"))).toBe(true);
    expect(isLoopback(parseListenAddress("ws://127.1.2.3:1"))).toBe(true);
    expect(isLoopback(parseListenAddress("ws://[::1]:1"))).toBe(true);
    expect(isLoopback(parseListenAddress("unix:/tmp/s"))).toBe(true);
    expect(isLoopback(parseListenAddress("ws://0.0.0.0:1"))).toBe(false);
    expect(isLoopback(parseListenAddress("ws://10.0.0.5:1"))).toBe(false);
  });
});
