// A bash call, judged part by part (shell/analyse.ts):
// - deny, then ask: a rule matches when it could match ANY reading of ANY part (nested `sh -c`
//   scripts included, shell/readings.ts), or, for an edit/write rule, any file a redirection
//   writes; when some part may run a program pith cannot name (opaque: `python -c`, a glob or
//   computed command name, a shell reading a pipe, an alias, ...), every bash deny and ask rule
//   could match what it runs, so the command is denied when a deny rule exists, else asked;
// - allow: EVERY part must match an allow rule as written, and every redirected file must be
//   allowed as a write (by an edit/write rule, or by the mode);
// - an exact rule equal to the whole command allows it (what "Allow always" records for a
//   command pith cannot read);
// - a command pith cannot read with confidence is never allowed by a prefix rule: only a bare
//   `bash` / `bash(*)` rule, or an exact rule equal to the whole command, allows it; otherwise
//   it asks (denied in read-only mode) whenever a rule could have been dodged or the mode wants
//   proof.
import { matchBashPattern, squashSpaces } from "./bash-pattern.js";
import { modeVerdict } from "./mode.js";
import { describePath, judgedPath, pathRuleMatches, type JudgedPath } from "./path-call.js";
import type { PathContext } from "./path-pattern.js";
import { ruleAppliesTo, type ParsedRule, type ParsedRules } from "./rule.js";
import { analyseCommand, type CommandPart, type ShellAnalysis } from "./shell/analyse.js";
import { nestedParts, nestedWrites, readingMatches, shapedReadings } from "./shell/readings.js";
import type { PermissionCall, PermissionDecision, PermissionMode, RuleList } from "./types.js";
import { fromMode, fromRule } from "./verdicts.js";

export async function decideBash(call: PermissionCall, rules: ParsedRules, mode: PermissionMode, ctx: PathContext): Promise<PermissionDecision> {
  const command = typeof call.arguments.command === "string" ? call.arguments.command : "";
  const analysis: ShellAnalysis = command.trim() === "" ? { parts: [], writes: [], unsure: "the command is empty" } : await analyseCommand(command);
  const every = analysis.parts.flatMap((p) => [p, ...nestedParts(p)]);
  const writes = await Promise.all(
    [...analysis.writes, ...analysis.parts.flatMap(nestedWrites)].map((w) => judgedPath({ path: w, scope: "file" }, ctx)),
  );
  for (const list of ["deny", "ask"] as const) {
    const hit = await restrictingHit(rules[list], list, { parts: every, writes, opaque: analysis.opaque }, ctx);
    if (hit) return hit;
  }
  const whole = rules.allow.find((r) => ruleAppliesTo(r, "bash") && (!r.bash || r.bash.kind === "any"));
  if (whole) return fromRule("allow", [whole]);
  const text = squashSpaces(command);
  const exact = rules.allow.find((r) => ruleAppliesTo(r, "bash") && r.bash?.kind === "exact" && r.bash.command === text);
  if (exact) return fromRule("allow", [exact], "the whole command");
  if (analysis.unsure) return unsure(analysis.unsure, rules, mode);
  return (await allowedPartByPart(analysis.parts, writes, rules, mode, ctx)) ?? fromMode(mode, "bash", "runs-commands");
}

interface Judged {
  parts: CommandPart[];
  writes: JudgedPath[];
  /** Why some part may run any program. */
  opaque?: string;
}

/** The first rule of a deny or ask list that could match any reading of any part, or any redirected file. */
async function restrictingHit(list: ParsedRule[], name: Exclude<RuleList, "allow">, c: Judged, ctx: PathContext): Promise<PermissionDecision | undefined> {
  for (const rule of list) {
    if (ruleAppliesTo(rule, "bash")) {
      if (!rule.bash) return fromRule(name, [rule]);
      for (const p of c.parts) {
        const reading = shapedReadings(p).find((r) => readingMatches(rule.bash!, r));
        if (reading) return fromRule(name, [rule], reading.shape ? `"${reading.text}" (its computed or glob words can expand to a command the rule names)` : `"${reading.text}"`);
      }
      if (c.opaque) {
        const reason = `The ${name} rule "${rule.text}" could match what this command runs: pith cannot name every program it starts (${c.opaque}).`;
        return { ...fromRule(name, [rule]), reason };
      }
    }
    if (ruleAppliesTo(rule, "write")) {
      for (const w of c.writes) {
        if (await pathRuleMatches(rule, w, name, ctx)) return fromRule(name, [rule], `the file ${describePath(w)} the command writes to`);
      }
    }
  }
  return undefined;
}

/** Allowed when every part matches an allow rule as written and every redirected file may be written. */
async function allowedPartByPart(
  parts: CommandPart[],
  writes: JudgedPath[],
  rules: ParsedRules,
  mode: PermissionMode,
  ctx: PathContext,
): Promise<PermissionDecision | undefined> {
  if (parts.length === 0 && writes.length === 0) return undefined;
  const used: ParsedRule[] = [];
  for (const p of parts) {
    const rule = rules.allow.find((r) => r.bash && ruleAppliesTo(r, "bash") && matchBashPattern(r.bash, p.text));
    if (!rule) return undefined;
    if (!used.includes(rule)) used.push(rule);
  }
  for (const w of writes) {
    let rule: ParsedRule | undefined;
    for (const r of rules.allow) {
      if (ruleAppliesTo(r, "write") && (await pathRuleMatches(r, w, "allow", ctx))) {
        rule = r;
        break;
      }
    }
    if (!rule) {
      const verdict = modeVerdict(mode, "writes-files");
      if (verdict === "allow") continue;
      const how = verdict === "ask" ? "asks before" : "does not allow";
      const reason = `The command writes to ${describePath(w)}, and the permission mode "${mode}" ${how} writing files unless an edit or write rule allows it.`;
      return { decision: verdict, reason };
    }
    if (!used.includes(rule)) used.push(rule);
  }
  if (used.length === 0) return fromMode(mode, "bash", "runs-commands");
  return fromRule("allow", used, parts.length + writes.length > 1 ? "every part of the command" : `"${parts[0]?.text ?? ""}"`);
}

/** A command that cannot be read with confidence (and no rule for the whole of it allowed it). */
function unsure(why: string, rules: ParsedRules, mode: PermissionMode): PermissionDecision {
  const guarded = [...rules.deny, ...rules.ask].some((r) => ruleAppliesTo(r, "bash") || ruleAppliesTo(r, "write"));
  if (!guarded && mode === "allow") return fromMode(mode, "bash", "runs-commands");
  const decision = mode === "read-only" ? "deny" : "ask";
  const because = guarded ? "so the deny and ask rules cannot be checked against it" : "so no prefix rule can allow it";
  return { decision, reason: `pith cannot read this command with confidence (${why}), ${because}.` };
}
