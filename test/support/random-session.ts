// Random session files for the tests comparing the indexed load with a full parse (not used by
// production code): trees with branches, labels, names, compactions, custom entries, lines in
// other writers' key order, duplicate ids and damaged lines of every kind.
import fc from "fast-check";

/** One step of the generated file. `pick` chooses among earlier ids; `n` varies the content. */
export interface SessionOp {
  kind: number;
  pick: number;
  n: number;
}
export const OP_KINDS = 18;

export const sessionOps = (maxLength = 60): fc.Arbitrary<SessionOp[]> =>
  fc.array(fc.record({ kind: fc.nat(OP_KINDS - 1), pick: fc.nat(1000), n: fc.nat(1000) }), { maxLength });

export interface BuiltSession {
  text: string;
  /** Every id written, damaged lines' included. */
  ids: string[];
  /** A line is damaged so that only reading it finds out (the index trusts its first bytes). */
  lazyDamage: boolean;
}

const TS = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function message(role: number, n: number, i: number): object {
  if (role === 0) return { role: "user", content: [{ type: "text", text: `question ${n} ü "q" \u2028` }], timestamp: i };
  if (role === 1) {
    return { role: "assistant", content: [{ type: "text", text: `answer ${n}` }, { type: "toolCall", id: `c${n}`, name: "read", arguments: { path: `f${n}.ts` } }], api: "openai-completions", provider: "p", model: `m${n % 3}`, usage, stopReason: "toolUse", timestamp: i };
  }
  return { role: "toolResult", toolCallId: `c${n}`, toolName: "read", content: [{ type: "text", text: `body ${n}` }], isError: false, timestamp: i };
}

/** The file text for `ops` (header first), ending as `ending` says. */
export function buildSession(ops: readonly SessionOp[], ending: "lf" | "no-lf" | "torn" = "lf"): BuiltSession {
  const lines: string[] = [JSON.stringify({ type: "session", version: 3, id: "0000000000000042", timestamp: TS(0), cwd: "/w" })];
  const ids: string[] = [];
  let leaf: string | null = null;
  let lazyDamage = false;
  let next = 0;
  const newId = (): string => `e${(next++).toString(16).padStart(4, "0")}`;
  const pickId = (pick: number): string | null => (ids.length === 0 ? null : ids[pick % ids.length]);
  const entry = (fields: Record<string, unknown>, id = newId()): Record<string, unknown> => {
    const e = { type: fields.type, id, parentId: leaf, timestamp: TS(lines.length), ...fields };
    ids.push(id);
    leaf = id;
    return e;
  };
  for (const op of ops) {
    const { pick, n } = op;
    switch (op.kind) {
      case 0:
      case 1:
      case 2:
      case 3:
        lines.push(JSON.stringify(entry({ type: "message", message: message(op.kind % 3, n, lines.length) })));
        break;
      case 4:
        leaf = pickId(pick); // the next entry starts a branch there
        break;
      case 5:
        lines.push(JSON.stringify(entry({ type: "compaction", summary: `summary ${n}`, firstKeptEntryId: pickId(pick) ?? "none", tokensBefore: n })));
        break;
      case 6:
        if (ids.length > 0) lines.push(JSON.stringify(entry({ type: "label", targetId: pickId(pick), label: n % 3 === 0 ? "" : `label ${n}` })));
        break;
      case 7:
        lines.push(JSON.stringify(entry({ type: "session_info", name: n % 4 === 0 ? "" : `name ${n}` })));
        break;
      case 8:
        lines.push(JSON.stringify(entry({ type: "custom", customType: ["pith.checkpoint", "pith:permission_allow", "ext"][n % 3], data: { n } })));
        break;
      case 9:
        lines.push(JSON.stringify(entry({ type: "custom_message", customType: "ttsr-injection", content: `rule ${n}`, display: false, details: { rules: [`r${n % 4}`] } })));
        break;
      case 10:
        lines.push(JSON.stringify(entry(n % 2 ? { type: "model_change", provider: "p", modelId: `m${n}` } : { type: "thinking_level_change", thinkingLevel: ["low", "high", null][n % 3] })));
        break;
      case 11:
        lines.push(["", "   ", "not json {", "[1,2]", '{"type":"message","id":"x"', "null"][n % 6]);
        break;
      case 12: {
        // pith's key order, damaged body: the index finds out when it reads the entry
        lazyDamage = true;
        const e = entry({ type: "message", message: { role: "user", content: 5 } });
        lines.push(n % 2 ? JSON.stringify(e) : JSON.stringify(e).slice(0, -2) + ',}}');
        break;
      }
      case 13: {
        // another writer's key order, damaged body: checked while indexing, dropped and relinked
        const e = entry({ type: "message", message: null });
        lines.push(JSON.stringify({ id: e.id, type: e.type, parentId: e.parentId, timestamp: e.timestamp, message: null }));
        break;
      }
      case 14: {
        const e = entry({ type: "message", message: message(n % 3, n, lines.length) });
        lines.push(JSON.stringify({ parentId: e.parentId, message: e.message, id: e.id, timestamp: e.timestamp, type: e.type }));
        break;
      }
      case 15:
        if (ids.length > 0) lines.push(JSON.stringify(entry({ type: "message", message: message(n % 3, n, lines.length) }, pickId(pick) as string)));
        break;
      case 16:
        lines.push(JSON.stringify(entry({ type: "message", message: { role: "custom", customType: "note", content: `note ${n}`, display: true, timestamp: 1 } })));
        break;
      default:
        lines.push(JSON.stringify(entry({ type: "branch_summary", fromId: pickId(pick) ?? "root", summary: `went back ${n}` })));
    }
  }
  let text = lines.join("\n") + "\n";
  if (ending === "no-lf") text = text.slice(0, -1);
  if (ending === "torn") text += '{"type":"message","id":"torn","parentId":null,"timestamp":"x","message":{"role":"user","content":[{"type":"te';
  return { text, ids, lazyDamage };
}
