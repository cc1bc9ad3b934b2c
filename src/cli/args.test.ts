import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readApiKeyFile } from "./api-key-file.js";
import { CliError, FILE_ARGS_IN_RPC_ERROR, HELP_TEXT, displayOnlyNotes, parseArgs, rejectFileArgsInRpc, resolveMode } from "./args.js";

function usageError(argv: string[]): CliError {
  try {
    parseArgs(argv);
  } catch (err) {
    if (err instanceof CliError) return err;
    throw err;
  }
  throw new Error(`expected a CliError for ${argv.join(" ")}`);
}

describe("parseArgs", () => {
  it("parses every option", () => {
    const args = parseArgs([
      "--mode", "rpc", "--provider", "anthropic", "--model", "claude-x", "--models", "a,b", "--models=c",
      "--thinking", "high", "--api-key", "k", "--no-session", "--session", "s1", "-c", "--session-dir", "/d",
      "--cwd", "/w", "--tools", "read, bash", "--no-tools", "-e", "x.ts", "--extension=y.ts", "--no-extensions",
      "--system-prompt", "sys", "--append-system-prompt", "a1", "--append-system-prompt", "a2", "--delta-streaming",
      "--provider-session-id", "cache-1", "--no-rules", "--no-skills", "--no-title", "--no-themes", "--version", "--help",
      "--file-checkpoints",
    ]);
    expect(args).toEqual({
      mode: "rpc", print: false, provider: "anthropic", model: "claude-x", models: ["a", "b", "c"], thinking: "high",
      apiKey: "k", noSession: true, session: "s1", continue: true, sessionDir: "/d", cwd: "/w", tools: ["read", "bash"],
      noTools: true, extensions: ["x.ts", "y.ts"], noExtensions: true, systemPrompt: "sys", appendSystemPrompt: ["a1", "a2"],
      deltaStreaming: true, providerSessionId: "cache-1", noRules: true, noSkills: true, noTitle: true, noThemes: true,
      fileCheckpoints: true, version: true, help: true, messages: [], fileArgs: [], extensionFlags: [],
    });
  });

  it("accepts every flag the xcsh-rpc, pi and pi-acp launchers pass, with a note only for display-only ones", () => {
    const xcsh = parseArgs(["--mode", "rpc", "--provider", "p", "--model", "m", "--no-session", "--no-title", "--no-skills", "--no-rules", "--provider-session-id", "x"]);
    expect(displayOnlyNotes(xcsh)).toEqual([]);
    expect(displayOnlyNotes(parseArgs(["--mode", "rpc", "--no-themes"]))).toEqual(["Note: --no-themes has no effect (pith has no themes)"]);
    expect(usageError(["--no-title=yes"])).toMatchObject({ message: "Option --no-title does not take a value" });
    expect(usageError(["--provider-session-id"])).toMatchObject({ message: "Option --provider-session-id requires a value" });
  });

  it("collects messages and @file arguments separately, and honours --", () => {
    const args = parseArgs(["-p", "hello", "@src/a.ts", "world", "--", "--not-a-flag", "@b"]);
    expect(args.print).toBe(true);
    expect(args.messages).toEqual(["hello", "world", "--not-a-flag"]);
    expect(args.fileArgs).toEqual(["src/a.ts", "b"]);
  });

  it("splits --model provider/id unless --provider is given", () => {
    expect(parseArgs(["--model", "openai/gpt-5"])).toMatchObject({ provider: "openai", model: "gpt-5" });
    expect(parseArgs(["--model", "openrouter/anthropic/claude"])).toMatchObject({ provider: "openrouter", model: "anthropic/claude" });
    expect(parseArgs(["--provider", "groq", "--model", "openai/gpt-oss"])).toMatchObject({ provider: "groq", model: "openai/gpt-oss" });
  });

  it("keeps unknown --options for the extensions' flags, with pi's value rule", () => {
    const args = parseArgs(["-p", "first", "--plan", "--name=alpha", "--level", "3", "second", "--mode", "json", "--dry", "@f.ts", "--last"]);
    expect(args.messages).toEqual(["first", "second"]);
    expect(args.fileArgs).toEqual(["f.ts"]);
    expect(args.mode).toBe("json");
    expect(args.extensionFlags).toEqual([
      { arg: "--plan", name: "plan", separate: false, messageIndex: 1 },
      { arg: "--name=alpha", name: "name", value: "alpha", separate: false, messageIndex: 1 },
      { arg: "--level", name: "level", value: "3", separate: true, messageIndex: 1 },
      { arg: "--dry", name: "dry", separate: false, messageIndex: 2 },
      { arg: "--last", name: "last", separate: false, messageIndex: 2 },
    ]);
  });

  it("rejects unknown short options, missing values, bad enums and values on switches (exit 2)", () => {
    expect(usageError(["-z"])).toMatchObject({ exitCode: 2, message: "Unknown option: -z (see pith --help)" });
    expect(usageError(["--model"]).message).toBe("Option --model requires a value");
    expect(usageError(["--model", "--print"]).message).toBe("Option --model requires a value");
    expect(usageError(["--mode", "tui"]).message).toBe('Invalid value for --mode: "tui" (expected one of rpc, acp, json, print)');
    expect(usageError(["--thinking=max"]).message).toMatch(/Invalid value for --thinking: "max"/);
    expect(usageError(["--print=yes"]).message).toBe("Option --print does not take a value");
    expect(usageError(["-x"]).exitCode).toBe(2);
  });
});

describe("resolveMode", () => {
  const tty = { stdinIsTTY: true };
  it("prefers --mode, then -p / messages / piped stdin", () => {
    expect(resolveMode(parseArgs(["--mode", "json", "-p"]), tty)).toBe("json");
    expect(resolveMode(parseArgs(["-p"]), tty)).toBe("print");
    expect(resolveMode(parseArgs(["hi"]), tty)).toBe("print");
    expect(resolveMode(parseArgs([]), { stdinIsTTY: false })).toBe("print");
  });
  it("fails with exit 2 when there is nothing to do or -p contradicts rpc", () => {
    expect(() => resolveMode(parseArgs([]), tty)).toThrow(CliError);
    expect(() => resolveMode(parseArgs(["--mode", "rpc", "-p"]), tty)).toThrow("--print cannot be combined with --mode rpc");
  });
});

describe("rejectFileArgsInRpc", () => {
  it("rejects @file arguments with exit code 1 and the reference message", () => {
    let caught: unknown;
    try {
      rejectFileArgsInRpc(parseArgs(["--mode", "rpc", "@a.ts"]));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CliError);
    expect((caught as CliError).exitCode).toBe(1);
    expect(`Error: ${(caught as CliError).message}`).toBe(FILE_ARGS_IN_RPC_ERROR);
    expect(FILE_ARGS_IN_RPC_ERROR).toBe("Error: @file arguments are not supported in RPC mode");
    expect(() => rejectFileArgsInRpc(parseArgs(["--mode", "rpc", "plain"]))).not.toThrow();
  });
});

describe("--heartbeat", () => {
  it("takes 0 or 100 … 3600000 ms and refuses anything else with the flag's name", () => {
    expect(parseArgs(["--mode", "rpc", "--heartbeat", "250"]).heartbeat).toBe(250);
    expect(parseArgs(["--mode", "rpc", "--heartbeat=0"]).heartbeat).toBe(0);
    for (const bad of ["50", "1.5", "abc", "3600001", ""]) {
      expect(() => parseArgs(["--mode", "rpc", `--heartbeat=${bad}`])).toThrow(/Invalid value for --heartbeat/);
    }
  });
});

describe("--api-key-file", () => {
  it("names the file; with --api-key too it is a usage error", () => {
    expect(parseArgs(["--mode", "rpc", "--api-key-file", "/run/secrets/key"]).apiKeyFile).toBe("/run/secrets/key");
    expect(() => parseArgs(["--api-key", "k", "--api-key-file", "f"])).toThrow(/--api-key and --api-key-file exclude each other/);
  });

  it("readApiKeyFile: the key alone, a trailing newline dropped; unreadable or not a single key is exit 1", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pith-key-"));
    try {
      writeFileSync(path.join(dir, "key"), "sk-123\n");
      expect(readApiKeyFile("key", dir)).toBe("sk-123");
      writeFileSync(path.join(dir, "two"), "sk-1 sk-2\n");
      expect(() => readApiKeyFile("two", dir)).toThrow(/expected the key alone/);
      writeFileSync(path.join(dir, "empty"), "\n");
      expect(() => readApiKeyFile("empty", dir)).toThrow(/expected the key alone/);
      expect(() => readApiKeyFile("missing", dir)).toThrow(expect.objectContaining({ exitCode: 1, message: expect.stringMatching(/missing: cannot read it \(ENOENT\)/) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("HELP_TEXT", () => {
  it("documents every flag and the environment variables", () => {
    const flags = ["--mode", "--print", "--provider", "--model", "--models", "--thinking", "--api-key", "--api-key-file", "--no-session",
      "--session", "--continue", "--session-dir", "--cwd", "--tools", "--no-tools", "--extension", "--no-extensions",
      "--system-prompt", "--append-system-prompt", "--delta-streaming", "--heartbeat", "--provider-session-id", "--no-rules", "--no-skills",
      "--no-title", "--no-themes", "--version", "--help"];
    for (const flag of flags) expect(HELP_TEXT).toContain(flag);
    for (const v of ["PITH_HOME", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "PITH_RPC_EMIT_TITLE", "PI_RPC_EMIT_TITLE"]) expect(HELP_TEXT).toContain(v);
  });
});

