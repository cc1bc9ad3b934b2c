// Property-based checks of the bash rules: a command with a denied part is never allowed, however
// it is joined or nested, in any mode and whatever the allow rules say.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useScratch } from "../../test/support/policy.js";
import type { PermissionMode } from "./types.js";

const t = useScratch();
const decide = t.decide;

const arg = fc.constantFrom("-la", "x", "src/a.ts", "--force", "origin", "main", '"two words"', "'q'", "1");
const harmless = fc.tuple(fc.constantFrom("ls", "git status", "echo", "npm test", "cat", "grep x", "make"), fc.array(arg, { maxLength: 2 })).map(([c, a]) => [c, ...a].join(" "));
const denied = fc.tuple(fc.constantFrom("rm", "rm -rf", "/bin/rm", "sudo rm", "timeout 5 rm", "X=1 rm"), fc.array(arg, { maxLength: 2 })).map(([c, a]) => [c, ...a].join(" "));

/** Puts a command somewhere a shell still runs it. */
function disguise(cmd: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(cmd, fc.constantFrom("plain", "subst", "backtick", "subshell", "brace", "shc", "if", "func", "string")).map(([c, how]) => {
    switch (how) {
      case "subst":
        return `echo $(${c})`;
      case "backtick":
        return `echo \`${c}\``;
      case "subshell":
        return `(${c})`;
      case "brace":
        return `{ ${c}; }`;
      case "shc":
        return c.includes("'") ? `(${c})` : `sh -c '${c}'`;
      case "if":
        return `if true; then ${c}; fi`;
      case "func":
        return `f() { ${c}; }; f`;
      case "string":
        return `echo "x $(${c}) y"`;
      default:
        return c;
    }
  });
}

const joiner = fc.constantFrom(" && ", " || ", "; ", " | ", " & ", "\n", " |& ");

/** A compound command: harmless parts and one denied part, at a random place, joined at random. */
const compound = fc
  .tuple(fc.array(disguise(harmless), { maxLength: 4 }), disguise(denied), fc.nat(), fc.array(joiner, { minLength: 5, maxLength: 5 }))
  .map(([parts, bad, at, joins]) => {
    const all = [...parts];
    all.splice(at % (parts.length + 1), 0, bad);
    return all.reduce((acc, p, i) => (i === 0 ? p : acc + joins[i - 1] + p), "");
  });

const allowLists = fc.subarray(["bash(ls:*)", "bash(git status:*)", "bash(echo:*)", "bash(npm test)", "bash(cat:*)", "bash(grep:*)", "bash(make:*)", "bash(sh:*)", "bash(sudo:*)", "bash(timeout:*)", "bash(*)", "bash", "bash(rm:*)", "bash(f)"]);
const modes = fc.constantFrom<PermissionMode>("allow", "ask", "ask-writes", "read-only");

describe("bash rules, property-based", () => {
  it("no compound command with a denied part is ever allowed", async () => {
    await fc.assert(
      fc.asyncProperty(compound, allowLists, modes, async (command, allow, mode) => {
        const d = await decide("bash", { command }, { allow, deny: ["bash(rm:*)"] }, mode);
        expect(d.decision, command).toBe("deny");
        expect(d.rule).toBe("bash(rm:*)");
      }),
      { numRuns: 300 },
    );
  });

  it("a command made only of allowed parts is allowed, however it is joined", async () => {
    const allowed = fc.array(harmless, { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(allowed, fc.array(joiner, { minLength: 4, maxLength: 4 }), modes, async (parts, joins, mode) => {
        const command = parts.reduce((acc, p, i) => (i === 0 ? p : acc + joins[i - 1] + p), "");
        const allow = ["bash(ls:*)", "bash(git status:*)", "bash(echo:*)", "bash(npm test:*)", "bash(cat:*)", "bash(grep:*)", "bash(make:*)"];
        expect((await decide("bash", { command }, { allow }, mode)).decision, command).toBe("allow");
      }),
      { numRuns: 200 },
    );
  });

  it("a prefix rule never allows a command that merely starts with the same characters", async () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z0-9_.-]{1,5}$/), modes, async (prefix, glued, mode) => {
        const rule = `bash(${prefix.join(" ")}:*)`;
        const d = await decide("bash", { command: prefix.join(" ") + glued }, { allow: [rule] }, mode);
        expect(d.rule).toBeUndefined();
        expect(d.decision).toBe(mode === "allow" ? "allow" : mode === "read-only" ? "deny" : "ask");
      }),
      { numRuns: 200 },
    );
  });
});
