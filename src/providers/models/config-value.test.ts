import { describe, expect, it } from "vitest";
import { CommandRunner, hasValue, interpolate, resolveValue } from "./config-value.js";

const env = { MY_KEY: "from-env", A: "a", B: "b" };

describe("models.json value resolution", () => {
  it("uses an env var by name when it is set, else the literal", async () => {
    const runner = new CommandRunner(env);
    expect(await resolveValue("MY_KEY", env, runner)).toBe("from-env");
    expect(await resolveValue("NOT_SET_KEY", env, runner)).toBe("NOT_SET_KEY");
    expect(await resolveValue("sk-literal-123", env, runner)).toBe("sk-literal-123");
  });

  it("interpolates $VAR and ${VAR}, with $$ and $! escapes", () => {
    expect(interpolate("$MY_KEY", env)).toBe("from-env");
    expect(interpolate("${A}_${B}", env)).toBe("a_b");
    expect(interpolate("$$x$!y", env)).toBe("$x!y");
    expect(interpolate("$MISSING", env)).toBeUndefined();
  });

  it("runs !command once and caches the trimmed stdout", async () => {
    const runner = new CommandRunner({ ...env, PATH: "/usr/local/bin:/usr/bin:/bin" });
    const cmd = "!echo \"  k-$RANDOM  \"";
    const first = await resolveValue(cmd, env, runner);
    expect(first).toMatch(/^k-\d*$/);
    expect(await resolveValue(cmd, env, runner)).toBe(first);
  });

  it("rejects a failing or silent command", async () => {
    const runner = new CommandRunner({ PATH: "/usr/local/bin:/usr/bin:/bin" });
    await expect(resolveValue("!exit 3", env, runner)).rejects.toThrow(/command failed/);
    await expect(resolveValue("!true", env, runner)).rejects.toThrow(/printed nothing/);
  });

  it("hasValue: commands and literals count, unset interpolations do not", () => {
    expect(hasValue("!anything", env)).toBe(true);
    expect(hasValue("literal", env)).toBe(true);
    expect(hasValue("$MISSING", env)).toBe(false);
    expect(hasValue("", env)).toBe(false);
    expect(hasValue(undefined, env)).toBe(false);
  });
});
