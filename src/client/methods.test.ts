// The client has exactly one method per protocol command (the type-level twin is
// `RpcCommands implements CommandMethods` in command-methods.ts, which RpcClient extends).
import { describe, expect, expectTypeOf, it } from "vitest";
import { COMMAND_TYPES, type RpcResponseData } from "../protocol/index.js";
import { RpcClient } from "./rpc-client.js";
import { methodNameOf, type CamelCase, type CommandMethods } from "./types.js";

describe("RpcClient command methods", () => {
  it("maps snake_case command types to camelCase method names", () => {
    expect(methodNameOf("follow_up")).toBe("followUp");
    expect(methodNameOf("abort_and_prompt")).toBe("abortAndPrompt");
    expect(methodNameOf("get_last_assistant_text")).toBe("getLastAssistantText");
    expect(methodNameOf("prompt")).toBe("prompt");
    expectTypeOf<CamelCase<"set_follow_up_mode">>().toEqualTypeOf<"setFollowUpMode">();
  });

  it("has a method for every command type in COMMAND_TYPES", () => {
    const missing = COMMAND_TYPES.filter((t) => typeof (RpcClient.prototype as any)[methodNameOf(t)] !== "function");
    expect(missing).toEqual([]);
    expect(COMMAND_TYPES.length).toBeGreaterThanOrEqual(36);
  });

  it("types each method's result as that command's response data", () => {
    expectTypeOf<ReturnType<RpcClient["getState"]>>().toEqualTypeOf<Promise<RpcResponseData<"get_state">>>();
    expectTypeOf<ReturnType<RpcClient["bash"]>>().toEqualTypeOf<Promise<RpcResponseData<"bash">>>();
    expectTypeOf<RpcClient>().toMatchTypeOf<CommandMethods>();
  });
});
