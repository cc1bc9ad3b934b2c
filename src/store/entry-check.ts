// The shape every loaded entry must have before pith uses it: a damaged or
// hostile line — a `message` that is null, a role or content of the wrong type, a value nested
// deeper than any real entry — is skipped with a reason instead of crashing a later walk.
import { exceedsDepth, fieldOf, findTooDeep } from "../shared/json-depth.js";
import { AgentMessageSchema, UserContentSchema } from "../shared/schema/index.js";
import { compiled } from "../shared/schema/compiled.js";

/** Deeper than any entry pith writes (a message's tool arguments included): refused on load. */
export const MAX_ENTRY_DEPTH = 128;

type Rec = Record<string, unknown>;

const isObj = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => typeof v === "string";
const optStr = (v: unknown) => v === undefined || typeof v === "string";
const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);

/** Per entry type: undefined when the entry is usable, else what is wrong with it. */
const CHECKS: Record<string, (r: Rec) => string | undefined> = {
  message: (r) => (isObj(r.message) && compiled(AgentMessageSchema).Check(r.message) ? undefined : "a message that is not a valid message"),
  custom_message: (r) =>
    str(r.customType) && (str(r.content) || (Array.isArray(r.content) && r.content.every((c) => compiled(UserContentSchema).Check(c))))
      ? undefined
      : "a custom message without customType or valid content",
  model_change: (r) => (str(r.provider) && str(r.modelId) ? undefined : "a model change without provider and modelId"),
  thinking_level_change: (r) => (r.thinkingLevel === null || str(r.thinkingLevel) ? undefined : "a thinking level that is not a string"),
  compaction: (r) => (str(r.summary) && str(r.firstKeptEntryId) && num(r.tokensBefore) ? undefined : "a compaction without summary, firstKeptEntryId and tokensBefore"),
  branch_summary: (r) => (str(r.summary) && str(r.fromId) ? undefined : "a branch summary without summary and fromId"),
  label: (r) => (str(r.targetId) && optStr(r.label) ? undefined : "a label without a targetId"),
  session_info: (r) => (optStr(r.name) ? undefined : "a session name that is not a string"),
  custom: (r) => (str(r.customType) ? undefined : "a custom entry without customType"),
};

/** Why `record` (a migrated entry with a valid type/id/parentId/timestamp) cannot be used, if it cannot. */
export function entryProblem(record: Rec): string | undefined {
  if (exceedsDepth(record, MAX_ENTRY_DEPTH)) {
    return `a value nested deeper than ${MAX_ENTRY_DEPTH} levels (at ${fieldOf(findTooDeep(record, MAX_ENTRY_DEPTH) ?? [])})`;
  }
  const check = CHECKS[record.type as string];
  return check ? check(record) : undefined;
}
