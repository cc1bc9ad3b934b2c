// What an extension gets when it imports pi's coding-agent package in pith: the helpers pi
// exports for extensions, implemented by pith (no terminal: key hints are plain text, themes do
// not style, components render to plain lines). Types need nothing at run time.
import { createBuiltinTools } from "../../tools/builtin-tools.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateTail } from "../../tools/truncate.js";
import type { AgentToolResult } from "../../shared/types.js";
import { parseFrontmatter, stripFrontmatter } from "../frontmatter.js";
import { HeadlessTheme, headlessMarkdownTheme, headlessTheme } from "../theme.js";
import { CancellableLoader, Container, type Component } from "./tui-components.js";
import { isToolCallEventType, isToolResultOf } from "./tool-guards.js";
import type { PiModuleServices } from "./services.js";

/** A horizontal rule as wide as it is drawn. */
export class DynamicBorder implements Component {
  constructor(private readonly color: (text: string) => string = (t) => t) {}
  invalidate(): void {}
  render(width: number): string[] {
    return [this.color("─".repeat(Math.max(1, width)))];
  }
}

/** A cancellable loader inside a border (the TUI argument is unused). */
export class BorderedLoader extends Container {
  private readonly loader: CancellableLoader;
  constructor(_tui: unknown, _theme: unknown, message: string, _options?: unknown) {
    super();
    this.loader = new CancellableLoader(undefined, undefined, message);
    this.addChild(new DynamicBorder());
    this.addChild(this.loader);
    this.addChild(new DynamicBorder());
  }
  get signal(): AbortSignal {
    return this.loader.signal;
  }
  set onAbort(fn: (() => void) | undefined) {
    this.loader.onAbort = fn;
  }
  handleInput(data: string): void {
    if (data === "\x1b") this.loader.cancel();
  }
  dispose(): void {}
}

const LANGUAGES: Record<string, string> = {
  ts: "typescript", tsx: "tsx", js: "javascript", jsx: "jsx", mjs: "javascript", cjs: "javascript", py: "python", rb: "ruby",
  rs: "rust", go: "go", java: "java", kt: "kotlin", c: "c", h: "c", cpp: "cpp", cc: "cpp", hpp: "cpp", cs: "csharp",
  sh: "bash", bash: "bash", zsh: "bash", json: "json", yaml: "yaml", yml: "yaml", toml: "toml", md: "markdown",
  html: "html", css: "css", scss: "scss", sql: "sql", swift: "swift", php: "php", lua: "lua", xml: "xml",
};

export function getLanguageFromPath(filePath: string): string | undefined {
  const ext = /\.([^./\\]+)$/.exec(filePath)?.[1]?.toLowerCase();
  return ext ? LANGUAGES[ext] : undefined;
}

/** No terminal colours: the code's lines as they are. */
export function highlightCode(code: string, _lang?: string): string[] {
  return code.split("\n");
}

/** Key hints name the action: pith has no key bindings. */
export function keyText(action: string): string {
  return String(action);
}
export function keyHint(action: string, description: string): string {
  return `${keyText(action)} ${description}`;
}
export function rawKeyHint(key: string, description: string): string {
  return `${key} ${description}`;
}

const fileQueues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier mutation of the same file queued here has settled. */
export function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
  const previous = fileQueues.get(filePath) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch((err: unknown) => void err);
  fileQueues.set(filePath, tail);
  void tail.then(() => {
    if (fileQueues.get(filePath) === tail) fileQueues.delete(filePath);
  });
  return run;
}

/** pith's read, grep, find and ls tools in pi's AgentTool shape, rooted at `cwd`. */
export function createReadOnlyTools(cwd: string): unknown[] {
  const keep = new Set(["read", "grep", "find", "ls"]);
  return createBuiltinTools({ cwd })
    .filter((t) => keep.has(t.name))
    .map((t) => ({
      name: t.name,
      label: t.label,
      description: t.description,
      parameters: t.parameters,
      execute: (toolCallId: string, params: unknown, signal?: AbortSignal, onUpdate?: (p: AgentToolResult) => void): Promise<AgentToolResult> =>
        Promise.resolve(t.execute(params, { cwd, toolCallId, signal: signal ?? new AbortController().signal, onUpdate: onUpdate ?? (() => {}) })),
    }));
}

/** The module object: `services` carries what only the composition root knows. */
export function codingAgentModule(services: PiModuleServices): Record<string, unknown> {
  const unavailable = (name: string) => () => Promise.reject(new Error(`${name} is not available in pith (headless, no clipboard or image resizing)`));
  return {
    VERSION: "0.87.1",
    CONFIG_DIR_NAME: ".pith",
    getAgentDir: () => services.agentDir,
    parseFrontmatter,
    stripFrontmatter,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    formatSize,
    truncateHead,
    truncateTail,
    getLanguageFromPath,
    highlightCode,
    keyText,
    keyHint,
    rawKeyHint,
    getMarkdownTheme: headlessMarkdownTheme,
    getSelectListTheme: () => ({}),
    getEditorTheme: () => ({}),
    getSettingsListTheme: () => ({}),
    Theme: HeadlessTheme,
    theme: headlessTheme,
    DynamicBorder,
    BorderedLoader,
    withFileMutationQueue,
    createReadOnlyTools,
    convertToLlm: services.convertToLlm,
    copyToClipboard: unavailable("copyToClipboard"),
    resizeImage: unavailable("resizeImage"),
    defineTool: <T>(tool: T): T => tool,
    isToolCallEventType,
    isBashToolResult: isToolResultOf("bash"),
    isReadToolResult: isToolResultOf("read"),
    isEditToolResult: isToolResultOf("edit"),
    isWriteToolResult: isToolResultOf("write"),
    isGrepToolResult: isToolResultOf("grep"),
    isFindToolResult: isToolResultOf("find"),
    isLsToolResult: isToolResultOf("ls"),
    isPowerShellToolResult: isToolResultOf("powershell"),
  };
}
