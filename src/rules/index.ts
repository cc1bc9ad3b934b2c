// TTSR: time-traveling stream rules.
export { loadTtsrRules, readTtsrRules, type LoadTtsrRulesOptions } from "./load-rules.js";
export { findRuleFiles, type FindRuleFilesOptions, type RuleFileRef } from "./rule-files.js";
export { parseRuleFile } from "./rule-file.js";
export { parseFrontmatter, type FrontmatterValue, type ParsedMarkdown } from "./frontmatter.js";
export { TtsrMatcher, type TtsrMatcherOptions, type TtsrToolContext, type TtsrStreamKind, type TtsrInterruptMode } from "./matcher.js";
export { buildTtsrInjection, injectedRuleNames, TTSR_INJECTION_TYPE, type InjectionEntryLike } from "./injection.js";
