// `${VAR}` and `${VAR:-default}` in MCP server configuration values, as Claude Code expands
// them in `.mcp.json`. Values come from the env map passed in (the composition root's), never
// from process.env. `$VAR` without braces is left alone; so is anything that is not a valid
// reference. `${VAR:-default}` uses the default when VAR is unset or empty.

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Expansion = { ok: true; value: string } | { ok: false; missing: string[] };

/** Expands every reference in `text`; an unset variable without a default is reported, not guessed. */
export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (fallback !== undefined) return v ? v : fallback;
    if (v === undefined) {
      missing.push(name);
      return whole;
    }
    return v;
  });
  return missing.length > 0 ? { ok: false, missing: [...new Set(missing)] } : { ok: true, value };
}
