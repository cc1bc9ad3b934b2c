// What a provider request offers the model: tools with their own definition, and the deferred
// ones listed by call_tool (src/agent/tool-shelf.ts), read from the request body of any API.
interface Def {
  name?: string;
  description?: string;
  function?: { name?: string; description?: string };
}

export interface OfferedTools {
  /** Tools with their own definition, in request order (call_tool included when present). */
  native: string[];
  /** Tools reached through call_tool, in its list order. */
  deferred: string[];
  /** Every tool the model can use: native (without call_tool) then deferred. */
  all: string[];
}

export function offeredTools(body: unknown): OfferedTools {
  const defs = ((body as { tools?: Def[] } | undefined)?.tools ?? []).map((d) => ({ name: d.function?.name ?? d.name ?? "", description: d.function?.description ?? d.description ?? "" }));
  const native = defs.map((d) => d.name);
  const shelf = defs.find((d) => d.name === "call_tool");
  const deferred = shelf ? [...shelf.description.matchAll(/^- ([\w-]+)\(/gm)].map((m) => m[1]!) : [];
  return { native, deferred, all: [...native.filter((n) => n !== "call_tool"), ...deferred] };
}
