// Anthropic's prompt-cache billing, simulated for the fake server. A request is cut
// into blocks in Anthropic's prefix order: each tool, each system block, each content block of
// each message (a string content is one text block). A block's bytes are its JSON without
// `cache_control`, so moving a breakpoint never changes the bytes. A block's tokens are
// ⌈bytes / 4⌉ (per block, so the parts of a bill add up exactly).
//
// Billing, like Anthropic's: the longest prefix that ends at a block boundary a previous request
// cached (a breakpoint of it) and that lies within 20 blocks before one of this request's
// breakpoints is a cache read; the rest up to this request's last breakpoint is a cache write
// (at the ttl of the breakpoint that ends each stretch); what follows is plain input. Every
// breakpoint of the request is cached afterwards. Caches are per model; entries never expire
// (a bench runs in minutes) and there is no minimum cacheable length.
import { createHash } from "node:crypto";

/** USD per million tokens (Claude Sonnet): input, 5-minute write, 1-hour write, read, output. */
export const SIM_PRICES = { input: 3, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3, output: 15 };

const LOOKBACK_BLOCKS = 20;

export interface CacheBill {
  input: number;
  cacheRead: number;
  /** Every cache write, 1-hour ones included. */
  cacheWrite: number;
  cacheWrite1h: number;
  output: number;
  /** Bytes of the request body as sent. */
  requestBytes: number;
  breakpoints: number;
  usd: number;
}

interface Block {
  bytes: number;
  tokens: number;
  /** undefined: no breakpoint; else the breakpoint's ttl. */
  ttl?: "5m" | "1h";
}

const tokens = (bytes: number): number => Math.ceil(bytes / 4);

function withoutCacheControl(v: unknown): string {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return JSON.stringify(v);
  const { cache_control: _drop, ...rest } = v as Record<string, unknown>;
  return JSON.stringify(rest);
}

function ttlOf(v: unknown): Block["ttl"] {
  if (v === null || typeof v !== "object") return undefined;
  const cc = (v as { cache_control?: { ttl?: string } }).cache_control;
  if (!cc) return undefined;
  return cc.ttl === "1h" ? "1h" : "5m";
}

/** The request's blocks in prefix order, each with its text for hashing. */
function blocksOf(body: any): Array<Block & { text: string }> {
  const out: Array<Block & { text: string }> = [];
  const push = (prefix: string, v: unknown) => {
    const text = prefix + withoutCacheControl(v);
    const bytes = Buffer.byteLength(text);
    out.push({ text, bytes, tokens: tokens(bytes), ttl: ttlOf(v) });
  };
  for (const t of Array.isArray(body?.tools) ? body.tools : []) push("tool:", t);
  if (typeof body?.system === "string") push("system:", { type: "text", text: body.system });
  else for (const s of Array.isArray(body?.system) ? body.system : []) push("system:", s);
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    const role = String(m?.role);
    if (typeof m?.content === "string") push(`${role}:`, { type: "text", text: m.content });
    else for (const c of Array.isArray(m?.content) ? m.content : []) push(`${role}:`, c);
  }
  return out;
}

export class PromptCacheSim {
  private readonly cached = new Set<string>();
  readonly bills: CacheBill[] = [];

  /** Bills one request body (`outputBytes`: the reply's text and tool-call JSON). */
  bill(body: any, rawBytes: number, outputBytes: number): CacheBill {
    const blocks = blocksOf(body);
    const hashes: string[] = [];
    let h = createHash("sha256").update(`model:${String(body?.model)}`).digest("hex");
    for (const b of blocks) {
      h = createHash("sha256").update(h).update(b.text).digest("hex");
      hashes.push(h);
    }
    const bps = blocks.flatMap((b, i) => (b.ttl ? [i] : []));
    const lastBp = bps.length > 0 ? bps[bps.length - 1] : -1;
    let readTo = -1;
    for (const bp of bps) {
      for (let k = bp; k >= Math.max(0, bp - LOOKBACK_BLOCKS + 1); k--) {
        if (k <= readTo) break;
        if (this.cached.has(hashes[k])) {
          readTo = k;
          break;
        }
      }
    }
    let read = 0;
    let write5m = 0;
    let write1h = 0;
    let input = 0;
    blocks.forEach((b, i) => {
      if (i <= readTo) read += b.tokens;
      else if (i <= lastBp) {
        // the stretch is written at the ttl of the first breakpoint at or after it
        const end = bps.find((bp) => bp >= i)!;
        if (blocks[end].ttl === "1h") write1h += b.tokens;
        else write5m += b.tokens;
      } else input += b.tokens;
    });
    for (const bp of bps) this.cached.add(hashes[bp]);
    const bill: CacheBill = {
      input,
      cacheRead: read,
      cacheWrite: write5m + write1h,
      cacheWrite1h: write1h,
      output: tokens(outputBytes),
      requestBytes: rawBytes,
      breakpoints: bps.length,
      usd: 0,
    };
    bill.usd = billUsd(bill);
    this.bills.push(bill);
    return bill;
  }
}

export function billUsd(b: Pick<CacheBill, "input" | "cacheRead" | "cacheWrite" | "cacheWrite1h" | "output">): number {
  const p = SIM_PRICES;
  const short = b.cacheWrite - b.cacheWrite1h;
  return (b.input * p.input + b.cacheRead * p.cacheRead + short * p.cacheWrite + b.cacheWrite1h * p.cacheWrite1h + b.output * p.output) / 1e6;
}
