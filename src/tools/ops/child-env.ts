// The environment every child process of a tool (and of the host's `bash` command) gets
//: pith's own environment without the credential variables it reads for its
// providers, without names matching `tools.env.exclude`, except names `tools.env.passthrough`
// keeps. Computed once at startup; the patterns' matcher (globs on the linear-time regex engine)
// loads only when there are patterns.

export interface ChildEnvOptions {
  /** Credential variables pith reads (the catalogue's and models.json's): never handed on. */
  secrets: Iterable<string>;
  /** `tools.env.exclude`: glob patterns of more names to drop (`*`, `?`, `[…]`; case-insensitive). */
  exclude?: readonly string[];
  /** `tools.env.passthrough`: names kept even when a rule above drops them. */
  passthrough?: readonly string[];
}

/** The filtered copy of `env` (unset values left out). */
export async function childEnvironment(env: Record<string, string | undefined>, options: ChildEnvOptions): Promise<Record<string, string>> {
  const secrets = new Set(options.secrets);
  const keep = new Set(options.passthrough ?? []);
  const excluded = await nameMatcher(options.exclude ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!keep.has(name) && (secrets.has(name) || excluded(name))) continue;
    out[name] = value;
  }
  return out;
}

async function nameMatcher(patterns: readonly string[]): Promise<(name: string) => boolean> {
  if (patterns.length === 0) return () => false;
  const { compileLinearGlob } = await import("../../shared/linear-glob.js");
  const tests = patterns.map((p) => compileLinearGlob(p, { ignoreCase: true }));
  return (name) => tests.some((t) => t(name));
}
