// Tool-name patterns, as settings and agent definitions write them: an exact name, or `prefix*`
// for every name with that prefix (`mcp__github__*`).

/** A test for `patterns`; matches nothing when there are none. */
export function namePatternMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.endsWith("*")));
  const prefixes = patterns.filter((p) => p.endsWith("*")).map((p) => p.slice(0, -1));
  return (name) => exact.has(name) || prefixes.some((p) => name.startsWith(p));
}
