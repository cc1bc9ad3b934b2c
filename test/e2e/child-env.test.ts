// Tool processes do not inherit provider secrets: with OPENAI_API_KEY (and
// a models.json key variable) in pith's environment, neither the model's `bash` tool nor the
// host's RPC `bash` command can print them; `tools.env.exclude` drops more names and
// `tools.env.passthrough` keeps named ones.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

const ENV = {
  OPENAI_API_KEY: "sk-openai-SECRET",
  ANTHROPIC_API_KEY: "sk-ant-SECRET",
  FAKE_PROXY_KEY: "proxy-SECRET",
  DEPLOY_TOKEN: "deploy-SECRET",
  KEEP_ME_TOKEN: "kept-VALUE",
  PITH_E2E_VISIBLE: "visible-VALUE",
};

async function start(settings: unknown): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify(settings));
  const models = fakeModelsJson(llm.url) as { providers: Record<string, Record<string, unknown>> };
  models.providers["fake-openai"].apiKey = "FAKE_PROXY_KEY"; // the key comes from this variable
  const p = await Pith.start({ pithHome, env: ENV, modelsJson: models, args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  return p;
}

function toolOutput(frames: Frame[]): string {
  const end = frames.find((f) => f.type === "tool_execution_end");
  return (end?.result.content as Frame[]).map((c) => c.text).join("");
}

describe("child process environment", () => {
  it("the model's bash tool and the host's bash command see no provider secrets", async () => {
    const p = await start({ tools: { env: { exclude: ["*_token"], passthrough: ["KEEP_ME_TOKEN"] } } });
    const before = llm.requests.length;
    llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "env" } }] }, { text: "done" });
    const frames = await p.promptAndWait("show the environment");
    const seenByTool = toolOutput(frames);
    const host = await p.request({ type: "bash", command: "env" });
    expect(host.success).toBe(true);
    for (const output of [seenByTool, host.data.output as string]) {
      expect(output).toContain("PITH_E2E_VISIBLE=visible-VALUE");
      expect(output).toContain("KEEP_ME_TOKEN=kept-VALUE");
      expect(output).not.toContain("SECRET");
      expect(output).not.toMatch(/OPENAI_API_KEY|ANTHROPIC_API_KEY|FAKE_PROXY_KEY|DEPLOY_TOKEN/);
    }
    // pith itself still authenticates with the models.json variable.
    expect(llm.requests[before].headers.authorization).toBe("Bearer proxy-SECRET");
    expect(await p.close()).toBe(0);
  });

  it("tools.env.passthrough hands a credential on when the user asks for it", async () => {
    const p = await start({ tools: { env: { passthrough: ["OPENAI_API_KEY"] } } });
    const host = await p.request({ type: "bash", command: "env" });
    expect(host.data.output).toContain("OPENAI_API_KEY=sk-openai-SECRET");
    expect(host.data.output).not.toContain("ANTHROPIC_API_KEY");
    expect(host.data.output).toContain("DEPLOY_TOKEN=deploy-SECRET"); // no exclude patterns here
    expect(await p.close()).toBe(0);
  });
});
