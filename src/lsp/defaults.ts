// The built-in servers: used when their command is on PATH, each field overridable in settings
// (`lsp.servers.<name>`). Names follow the reference's table.
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ServerConfig } from "./types.js";

export const BUILTIN_SERVERS: Readonly<Record<string, ServerConfig>> = {
  "typescript-language-server": {
    command: "typescript-language-server",
    args: ["--stdio"],
    fileTypes: [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
    rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"],
    // Type acquisition would download @types packages from the registry behind the agent's back.
    initOptions: { disableAutomaticTypingAcquisition: true },
    language: "typescript",
  },
  pyright: {
    command: "pyright-langserver",
    args: ["--stdio"],
    fileTypes: [".py", ".pyi"],
    rootMarkers: ["pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"],
    language: "python",
  },
  gopls: { command: "gopls", args: [], fileTypes: [".go"], rootMarkers: ["go.work", "go.mod"], language: "go" },
  "rust-analyzer": { command: "rust-analyzer", args: [], fileTypes: [".rs"], rootMarkers: ["Cargo.toml"], language: "rust" },
  clangd: {
    command: "clangd",
    args: [],
    fileTypes: [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"],
    rootMarkers: ["compile_commands.json", "compile_flags.txt", ".clangd", "CMakeLists.txt"],
    language: "c",
  },
  zls: { command: "zls", args: [], fileTypes: [".zig"], rootMarkers: ["build.zig"], language: "zig" },
};

/**
 * Initialization options a built-in server gets from where it is installed, unless settings give
 * initOptions of their own. typescript-language-server would otherwise run the TypeScript it
 * finds in the workspace (or any folder above it): a repository's own `node_modules/typescript`
 * is code the repository chose. As editors do, the TypeScript installed beside the server is used
 * instead; settings may point `initOptions.tsserver.path` at the workspace's.
 */
export function installedInitOptions(name: string, resolvedCommand: string): Record<string, unknown> | undefined {
  if (name !== "typescript-language-server") return undefined;
  let tsserver: string;
  try {
    const ts = createRequire(realpathSync(resolvedCommand)).resolve("typescript");
    tsserver = path.join(path.dirname(ts), "tsserver.js");
  } catch {
    return undefined; // no TypeScript beside the server: it looks for one itself
  }
  return existsSync(tsserver) ? { tsserver: { path: tsserver } } : undefined;
}

/** The LSP `languageId` of a file by its extension (the server is told it in `didOpen`). */
const LANGUAGE_IDS: Readonly<Record<string, string>> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".zig": "zig",
  ".rb": "ruby",
  ".java": "java",
  ".lua": "lua",
  ".sh": "shellscript",
  ".bash": "shellscript",
};

/** `.ts` → "typescript"; an unknown extension → the extension without its dot. */
export function languageIdOf(ext: string): string {
  const lower = ext.toLowerCase();
  return LANGUAGE_IDS[lower] ?? (lower.replace(/^\./, "") || "plaintext");
}
