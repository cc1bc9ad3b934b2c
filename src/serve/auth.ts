// Authentication at the WebSocket upgrade. A capability token is presented as
// `Authorization: Bearer <token>` or `?token=<token>`; the server keeps only its SHA-256 and
// compares digests in constant time, so neither the token's bytes nor its length leak through
// timing. A browser page always sends `Origin`: an upgrade carrying one is refused unless that
// origin was allowed, so a web page the user visits cannot drive a local agent.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { PithError } from "../shared/errors.js";

export interface TokenCheck {
  /** True when `presented` is the token. */
  accepts(presented: string | undefined): boolean;
}

const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

export function tokenCheckFromDigest(digest: Buffer): TokenCheck {
  return { accepts: (presented) => presented !== undefined && timingSafeEqual(sha256(presented), digest) };
}

/** `--ws-token-sha256 <hex>`: the hex SHA-256 of the token. */
export function tokenCheckFromSha256(hex: string): TokenCheck {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new PithError("invalid_request", "--ws-token-sha256 needs 64 hex digits (the SHA-256 of the token)");
  return tokenCheckFromDigest(Buffer.from(hex, "hex"));
}

/** `--ws-token-file <path>`: the token is the file's text without surrounding whitespace. */
export function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (err) {
    throw new PithError("invalid_request", `Cannot read --ws-token-file ${file}: ${(err as Error).message}`);
  }
  if (text.length < 16) throw new PithError("invalid_request", `--ws-token-file ${file}: the token must have at least 16 characters`);
  return text;
}

export function tokenCheckFromToken(token: string): TokenCheck {
  return tokenCheckFromDigest(sha256(token));
}

/** A fresh 256-bit token, URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The token an upgrade request presents: the Bearer header first, else `?token=`. */
export function presentedToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === "string") {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    return m ? m[1] : undefined;
  }
  const query = new URL(req.url ?? "/", "http://pith").searchParams.get("token");
  return query ?? undefined;
}

/** Why an upgrade is refused (HTTP status and a short reason), or undefined when it may go on. */
export function refusal(req: IncomingMessage, auth: TokenCheck | undefined, allowedOrigins: readonly string[]): { status: 401 | 403; reason: string } | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins.includes(origin)) return { status: 403, reason: `origin ${JSON.stringify(origin)} is not allowed (--allow-origin)` };
  if (auth && !auth.accepts(presentedToken(req))) {
    return { status: 401, reason: presentedToken(req) === undefined ? "no token presented" : "wrong token" };
  }
  return undefined;
}
