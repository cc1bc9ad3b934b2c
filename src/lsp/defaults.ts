// The built-in servers: used when their command is on PATH, each field overridable in settings
// (`lsp.servers.<name>`). Names follow the reference's table.
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
