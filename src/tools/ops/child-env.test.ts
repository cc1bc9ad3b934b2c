import { describe, expect, it } from "vitest";
import { childEnvironment } from "./child-env.js";

const ENV = { PATH: "/bin", HOME: "/h", OPENAI_API_KEY: "sk-1", MY_PROXY_KEY: "p", AWS_SECRET_ACCESS_KEY: "a", GITHUB_TOKEN: "g", EMPTY: undefined };

describe("childEnvironment", () => {
  it("drops the credential variables pith reads and keeps the rest", async () => {
    expect(await childEnvironment(ENV, { secrets: ["OPENAI_API_KEY", "MY_PROXY_KEY", "ANTHROPIC_API_KEY"] })).toEqual({
      PATH: "/bin",
      HOME: "/h",
      AWS_SECRET_ACCESS_KEY: "a",
      GITHUB_TOKEN: "g",
    });
  });

  it("drops names matching tools.env.exclude (case-insensitive globs) unless passthrough keeps them", async () => {
    const out = await childEnvironment(ENV, { secrets: ["OPENAI_API_KEY"], exclude: ["aws_*", "*_TOKEN", "MY_PROXY_???"], passthrough: ["GITHUB_TOKEN"] });
    expect(out).toEqual({ PATH: "/bin", HOME: "/h", GITHUB_TOKEN: "g" });
    const kept = await childEnvironment(ENV, { secrets: ["OPENAI_API_KEY"], passthrough: ["OPENAI_API_KEY"] });
    expect(kept.OPENAI_API_KEY).toBe("sk-1");
  });
});
