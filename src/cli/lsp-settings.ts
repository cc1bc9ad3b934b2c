// The `lsp` key of settings.json: the switches of the lsp tool and of diagnostics after writes
// (the reference's names), and the servers (`lsp.servers.<name>`, the reference's shape, merged
// field by field over the built-in table).

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");

/** Field → what it must be, for one server entry. Other fields (the reference has more) are ignored. */
const SERVER_FIELDS: Record<string, [check: (v: unknown) => boolean, expected: string]> = {
  command: [(v) => typeof v === "string" && v.length > 0, "a non-empty string"],
  args: [isStrings, "an array of strings"],
  fileTypes: [(v) => isStrings(v) && (v as string[]).length > 0, 'a non-empty array of strings (".ts", "Dockerfile")'],
  rootMarkers: [isStrings, "an array of strings"],
  initOptions: [isObj, "an object"],
  settings: [isObj, "an object"],
  language: [(v) => typeof v === "string", "a string"],
  disabled: [(v) => typeof v === "boolean", "true or false"],
};

function serverProblem(servers: unknown): string | undefined {
  if (!isObj(servers)) return "lsp.servers: expected an object mapping server names to servers";
  for (const [name, server] of Object.entries(servers)) {
    if (!isObj(server)) return `lsp.servers.${name}: expected an object ({"command", "args", "fileTypes", ...})`;
    for (const [field, value] of Object.entries(server)) {
      const rule = SERVER_FIELDS[field];
      if (rule && !rule[0](value)) return `lsp.servers.${name}.${field}: expected ${rule[1]}`;
    }
  }
  return undefined;
}

const bool = { check: (v: unknown) => typeof v === "boolean", expected: "true or false" };

/** The validation rules of the `lsp` key (merged into settings.ts's table). */
export const LSP_SPEC = {
  lsp: {
    enabled: bool,
    diagnosticsOnWrite: bool,
    diagnosticsOnEdit: bool,
    formatOnWrite: bool,
    diagnosticsTimeoutMs: { check: (v: unknown) => Number.isInteger(v) && (v as number) > 0, expected: "a positive integer (milliseconds)" },
    servers: { check: (v: unknown) => serverProblem(v) === undefined, expected: "an object of servers", problem: serverProblem },
  },
};
