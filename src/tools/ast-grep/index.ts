// `ast_grep` / `ast_edit`: structural search and rewrite on @ast-grep/napi (the reference's tools).
// The native module and the file walk load on the first call (./engine.ts).
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { EditParams, GrepParams, scopePaths, type AstEditArgs, type AstGrepArgs, type AstToolOptions } from "./params.js";

export type { AstEditArgs, AstGrepArgs, AstToolOptions };

const LANGS = "typescript, tsx, javascript, html, css";

const GREP_DESCRIPTION = `Performs structural code search using AST matching via native ast-grep.
- Use this when syntax shape matters more than raw text (calls, declarations, specific language constructs).
- \`pat\` (required): one or more AST patterns, e.g. \`console.log($$$ARGS)\`, \`function $NAME($$$) { $$$ }\`. \`$NAME\` captures one node, \`$$$NAME\` a list (arguments, statements), \`$_\` matches any node without capturing. Patterns match structure, not text: whitespace is ignored. A pattern must parse as one node; wrap fragments in valid context and pick the inner node with \`sel\` (its kind, e.g. \`method_definition\`).
- \`path\`: file, directory or glob (default: the working directory; .gitignore respected); \`glob\`: extra filter relative to path; \`lang\`: ${LANGS} (default: from each file's extension).
- \`limit\` (default 50) and \`offset\` page through matches.
Returns matches grouped by file: the first matched line as \`LINE:text\`, further lines as \`LINE-text\`, and the captures (\`meta: NAME=text\`).`;

const EDIT_DESCRIPTION = `Performs structural AST-aware rewrites via native ast-grep (codemods where plain text replace is unsafe).
- \`ops\`: [{pat, out}]: each match of \`pat\` is replaced by the template \`out\`, whose \`$NAME\` / \`$$$NAME\` are the pattern's captures. An empty \`out\` deletes the match.
- \`path\`, \`glob\`, \`lang\` (${LANGS}) and \`sel\` as for ast_grep; \`limit\`: max total replacements.
- \`dryRun: true\` previews without writing; otherwise every file is rewritten atomically (all its replacements or none).
Returns per-file replacement counts with the first line before (-) and after (+) each replacement, and unified diffs in details.`;

export function createAstGrepTool(opts: AstToolOptions): Tool<AstGrepArgs> {
  return {
    name: "ast_grep",
    summary: "Structural code search (ast-grep patterns)",
    label: "AST Grep",
    description: GREP_DESCRIPTION,
    parameters: jsonSchema(GrepParams),
    effect: "read-only",
    paths: scopePaths,
    concurrency: "shared",
    source: "builtin",
    async execute(args, ctx) {
      const { astGrep } = await import("./engine.js");
      return astGrep(args, ctx, opts);
    },
  };
}

export function createAstEditTool(opts: AstToolOptions): Tool<AstEditArgs> {
  return {
    name: "ast_edit",
    summary: "Structural rewrites (ast-grep codemods)",
    label: "AST Edit",
    description: EDIT_DESCRIPTION,
    parameters: jsonSchema(EditParams),
    // judged on the whole tree it may rewrite (the files it changes are found by matching)
    effect: "writes-files",
    paths: scopePaths,
    concurrency: "exclusive",
    nonAbortable: true,
    source: "builtin",
    async execute(args, ctx) {
      const { astEdit } = await import("./engine.js");
      return astEdit(args, ctx, opts);
    },
  };
}
