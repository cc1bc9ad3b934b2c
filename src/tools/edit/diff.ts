// The unified diff and first changed line reported in edit results.
import { createTwoFilesPatch, structuredPatch } from "diff";

export function unifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(path, path, before, after, undefined, undefined, { context: 3 });
}

/** 1-based line number (in the new file) of the first changed line, or undefined if identical. */
export function firstChangedLine(before: string, after: string): number | undefined {
  const patch = structuredPatch("a", "b", before, after, undefined, undefined, { context: 0 });
  const hunk = patch.hunks[0];
  if (!hunk) return undefined;
  return Math.max(1, hunk.newStart);
}
