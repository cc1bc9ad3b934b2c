// One session of a multi-session agent process: every command it sends carries its
// `sessionId`, and its event subscriptions see only the frames stamped with that id (the first
// session's frames carry none).
import type { CreateSessionParams, RpcCommandType, RpcHostToolDefinition, RpcResponseData } from "../protocol/index.js";
import type { AgentMessage, ImageContent } from "../shared/types.js";
import { RpcClientError } from "./errors.js";
import type { CommandParams, FrameHandler, FrameOf, OutboundFrameType, UiRequestHandler, AnyHostTool } from "./types.js";

/** What a handle needs of the client. */
export interface SessionHost {
  request<T extends RpcCommandType>(type: T, params: CommandParams<T>): Promise<RpcResponseData<T>>;
  on<T extends OutboundFrameType>(type: T, handler: FrameHandler<T>): () => void;
  registerHostTools(tools: AnyHostTool[], sessionId?: string): RpcHostToolDefinition[];
  setUiHandler(handler: UiRequestHandler | undefined, sessionId?: string): void;
  closeSession(sessionId: string): Promise<RpcResponseData<"close_session">>;
}

export type { CreateSessionParams };

export class SessionHandle {
  /** `sessionId` undefined: the session the process started with. */
  constructor(
    private readonly host: SessionHost,
    readonly sessionId: string | undefined,
  ) {}

  /** Sends any command to this session. */
  request<T extends RpcCommandType>(type: T, params: Omit<CommandParams<T>, "sessionId">): Promise<RpcResponseData<T>> {
    const withId = this.sessionId === undefined ? params : { ...params, sessionId: this.sessionId };
    return this.host.request(type, withId as CommandParams<T>);
  }

  /** Frames of `type` written by this session only. */
  on<T extends OutboundFrameType>(type: T, handler: FrameHandler<T>): () => void {
    return this.host.on(type, (frame) => {
      if ((frame as { sessionId?: unknown }).sessionId === this.sessionId) handler(frame);
    });
  }

  prompt(message: string, opts: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" } = {}): Promise<RpcResponseData<"prompt">> {
    return this.request("prompt", { message, ...opts });
  }
  steer(message: string): Promise<RpcResponseData<"steer">> {
    return this.request("steer", { message });
  }
  followUp(message: string): Promise<RpcResponseData<"follow_up">> {
    return this.request("follow_up", { message });
  }
  abort(): Promise<RpcResponseData<"abort">> {
    return this.request("abort", {});
  }
  getState(): Promise<RpcResponseData<"get_state">> {
    return this.request("get_state", {});
  }
  getMessages(): Promise<RpcResponseData<"get_messages">> {
    return this.request("get_messages", {});
  }
  setModel(provider: string, modelId: string): Promise<RpcResponseData<"set_model">> {
    return this.request("set_model", { provider, modelId });
  }
  getEntries(since?: string): Promise<RpcResponseData<"get_entries">> {
    return this.request("get_entries", { since });
  }
  /**
   * Registers this session's host tools and answers their calls with these executors (other
   * sessions' tools, even of the same name, are theirs); `[]` removes them all.
   */
  setHostTools(tools: AnyHostTool[]): Promise<RpcResponseData<"set_host_tools">> {
    return this.request("set_host_tools", { tools: this.host.registerHostTools(tools, this.sessionId) });
  }
  /**
   * Installs (undefined: removes) the handler that answers this session's select/confirm/input/
   * editor dialogs; a session without one has its dialogs answered by the client's `onUiRequest`.
   * For the first session this is the client's `onUiRequest`.
   */
  onUiRequest(handler: UiRequestHandler | undefined): void {
    this.host.setUiHandler(handler, this.sessionId);
  }
  /** Closes this session (not the first one): its run stops, its file is flushed and unlocked, its open dialogs are aborted. */
  close(): Promise<RpcResponseData<"close_session">> {
    if (this.sessionId === undefined) return Promise.reject(new RpcClientError("closed", "the first session closes with the process"));
    return this.host.closeSession(this.sessionId);
  }

  /** Prompts and resolves with the messages of the run once this session is idle again. */
  async promptAndWait(message: string, opts: { timeoutMs?: number } = {}): Promise<AgentMessage[]> {
    const messages: AgentMessage[] = [];
    let wake: () => void = () => {};
    const offEnd = this.on("agent_end", (frame: FrameOf<"agent_end">) => {
      messages.push(...frame.messages);
      wake();
    });
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    try {
      await this.prompt(message);
      for (;;) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
        if (messages.length > 0 && !(await this.getState()).isStreaming) return messages;
        if (Date.now() > deadline) throw new RpcClientError("timeout", `session ${this.sessionId ?? "(first)"} did not become idle in time`);
      }
    } finally {
      offEnd();
    }
  }
}
