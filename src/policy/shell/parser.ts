// The bash parser: tree-sitter-bash (the grammar `@ast-grep/lang-bash` ships prebuilt for
// Linux, macOS and Windows) driven through `@ast-grep/napi`. Both load on the first bash
// command judged, never at startup. When they cannot load (a platform with no prebuilt
// grammar), `loadBashParser` resolves to an error and every command counts as unparsable:
// it is never allowed by a prefix rule.
import type { SyntaxNode } from "./syntax-node.js";

export type BashParser = (source: string) => SyntaxNode;

let loading: Promise<BashParser | Error> | undefined;

async function load(): Promise<BashParser> {
  const napi = (await import("@ast-grep/napi")) as unknown as {
    registerDynamicLanguage(langs: Record<string, unknown>): void;
    parse(lang: string, source: string): { root(): SyntaxNode };
  };
  const langModule = (await import("@ast-grep/lang-bash")) as { default?: unknown };
  const bash = langModule.default ?? langModule;
  // Registering again (another feature registering its languages) keeps the earlier ones.
  napi.registerDynamicLanguage({ bash });
  return (source) => napi.parse("bash", source).root();
}

/** The parser, or the Error saying why it could not load (the same answer for the whole process). */
export function loadBashParser(): Promise<BashParser | Error> {
  loading ??= load().catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  return loading;
}
