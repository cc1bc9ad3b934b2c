// Thinking levels: which efforts a model supports, clamping a requested level, cycling.
import { EFFORTS, type Effort, type Model, type ThinkingLevel } from "../../shared/types.js";

type ThinkingMode = NonNullable<Model["thinking"]>["mode"];
type ModelShape = Pick<Model, "id" | "api" | "reasoning"> & Partial<Pick<Model, "thinking" | "compat">>;

const LEVELS: readonly ThinkingLevel[] = ["off", ...EFFORTS];

function range(from: Effort, to: Effort): Effort[] {
  return EFFORTS.slice(EFFORTS.indexOf(from), EFFORTS.indexOf(to) + 1);
}

/** The part of an id after any routing prefix (`openai/gpt-5.2` → `gpt-5.2`), lower-cased. */
function bareId(id: string): string {
  const lower = id.toLowerCase();
  return lower.slice(lower.lastIndexOf("/") + 1);
}

/** Orderable version number: 4.6 → 4006, 5.10 → 5010. */
function version(major: string | number, minor?: string | number): number {
  return Number(major) * 1000 + Number(minor ?? 0);
}

function gptEfforts(id: string): Effort[] | undefined {
  const m = /(?:^|[^a-z])gpt-(\d+)(?:\.(\d+))?/.exec(id);
  if (!m || Number(m[1]) < 5) return undefined;
  if (id.includes("gpt-5.1-codex-mini")) return ["medium", "high"];
  if (version(m[1], m[2]) >= version(5, 2)) return range("low", "xhigh");
  return range("minimal", "high");
}

function geminiEfforts(id: string): Effort[] | undefined {
  const m = /gemini-(\d+)(?:\.(\d+))?/.exec(id);
  if (!m) return undefined;
  if (Number(m[1]) >= 3 && id.includes("pro")) return ["low", "high"];
  return range("minimal", "high");
}

/** Claude tier and orderable version (`claude-opus-4-6`, `claude-opus-4.6` → opus, 4006). */
export function claudeVersion(id: string): { tier: string; version: number } | undefined {
  const m = /claude-(opus|sonnet|haiku)-(\d+)(?:[.-](\d)(?!\d))?/.exec(bareId(id));
  if (!m) return undefined;
  return { tier: m[1], version: version(m[2], m[3]) };
}

function claudeEfforts(model: ModelShape): Effort[] | undefined {
  const c = claudeVersion(model.id);
  if (!c || c.version < version(4, 6)) return undefined;
  if (model.api !== "anthropic-messages" && model.api !== "bedrock-converse-stream") return undefined;
  return c.tier === "opus" ? range("minimal", "xhigh") : range("minimal", "high");
}

function apiEfforts(model: ModelShape): Effort[] {
  switch (model.api) {
    case "anthropic-messages":
    case "openai-responses":
    case "openai-codex-responses":
    case "scripted":
      return range("minimal", "xhigh");
    case "openai-completions": {
      const compat = model.compat ?? {};
      const openAiStyle =
        compat.supportsReasoningEffort !== false &&
        (compat.thinkingFormat === undefined || compat.thinkingFormat === "openai");
      return openAiStyle ? range("minimal", "xhigh") : range("minimal", "high");
    }
    default:
      return range("minimal", "high");
  }
}

/** Efforts allowed by the model-family rules, ignoring `model.thinking`. */
export function familyEfforts(model: ModelShape): Effort[] {
  const id = bareId(model.id);
  return gptEfforts(id) ?? geminiEfforts(id) ?? claudeEfforts(model) ?? apiEfforts(model);
}

/** Supported efforts in ascending order; empty for a non-reasoning model. */
export function supportedEfforts(model: ModelShape): Effort[] {
  if (!model.reasoning) return [];
  const family = familyEfforts(model);
  if (!model.thinking) return family;
  const allowed = range(model.thinking.minLevel, model.thinking.maxLevel);
  const both = family.filter((e) => allowed.includes(e));
  return both.length > 0 ? both : allowed;
}

function isLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (LEVELS as readonly string[]).includes(value);
}

/** Clamps an effort to `supported`: itself, else the highest below it, else the lowest. */
function clamp(level: Effort, supported: Effort[]): Effort | undefined {
  if (supported.includes(level)) return level;
  const idx = EFFORTS.indexOf(level);
  const below = supported.filter((e) => EFFORTS.indexOf(e) < idx);
  return below.length > 0 ? below[below.length - 1] : supported[0];
}

/**
 * `inherit`, missing or unknown → undefined (unset); `off` → `off`;
 * an effort is clamped to the model (non-reasoning model → undefined); no model → kept as is.
 */
export function resolveThinkingLevel(model: ModelShape | undefined, input: unknown): ThinkingLevel | undefined {
  if (!isLevel(input)) return undefined;
  if (input === "off" || !model) return input;
  if (!model.reasoning) return undefined;
  return clamp(input, supportedEfforts(model));
}

/** The level after `current` in `["off", ...supportedEfforts]`, or null. */
export function cycleThinkingLevel(model: ModelShape | undefined, current: ThinkingLevel | undefined): ThinkingLevel | null {
  if (!model || !model.reasoning) return null;
  const cycle: ThinkingLevel[] = ["off", ...supportedEfforts(model)];
  if (current === undefined) return "off";
  const idx = cycle.indexOf(current);
  if (idx === -1) {
    // An effort the model does not support: continue after where it would clamp to.
    const clamped = current === "off" ? "off" : clamp(current, supportedEfforts(model));
    const at = clamped ? cycle.indexOf(clamped) : -1;
    return cycle[(at + 1) % cycle.length];
  }
  return cycle[(idx + 1) % cycle.length];
}

/** How efforts travel to the provider (informational, for adapters). */
export function thinkingMode(model: Pick<Model, "id" | "api">): ThinkingMode {
  const id = bareId(model.id);
  if (model.api === "anthropic-messages") {
    const c = claudeVersion(id);
    if (c && c.version >= version(4, 6)) return "anthropic-adaptive";
    if (c && c.version >= version(4, 5)) return "anthropic-budget-effort";
    return "budget";
  }
  if (model.api === "google-generative-ai") {
    const m = /gemini-(\d+)/.exec(id);
    return (m && Number(m[1]) >= 3) || id.startsWith("gemma-4") ? "google-level" : "budget";
  }
  return "effort";
}

/**
 * Efforts a pi `thinkingLevelMap` allows (pi semantics: `null` = unsupported; `xhigh` only
 * when mapped). No map: every effort up to `high`.
 */
export function levelMapEfforts(map: Record<string, unknown> | undefined): Effort[] {
  return EFFORTS.filter((e) => {
    const v = map?.[e];
    if (v === null) return false;
    return e === "xhigh" ? v !== undefined : true;
  });
}

/**
 * The `thinking` field of a reasoning model: family rules intersected with what the pi
 * level map allows. Undefined for non-reasoning models.
 */
export function deriveThinking(
  model: ModelShape,
  levelMap: Record<string, unknown> | undefined,
): Model["thinking"] | undefined {
  if (!model.reasoning) return undefined;
  const fromMap = levelMapEfforts(levelMap);
  const family = familyEfforts(model);
  let efforts = family.filter((e) => fromMap.includes(e));
  if (efforts.length === 0) efforts = fromMap.length > 0 ? fromMap : family;
  return { minLevel: efforts[0], maxLevel: efforts[efforts.length - 1], mode: thinkingMode(model) };
}
