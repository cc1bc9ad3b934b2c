// The `ready` frame: the version, oh-my-pi's framing fields (so its RpcClient negotiates version 2)
// and pith's capability names, which a host checks before relying on an extension of the seed
// protocol.
import type { ReadyFrame } from "../protocol/index.js";
import { MAX_FRAME_BYTES, MAX_REASSEMBLED_FRAME_BYTES } from "../transport/chunked-frames.js";

/** Names of the protocol extensions this build supports. */
export const CAPABILITIES: readonly string[] = [
  "protocol_v2",
  "event_filter",
  "messages_page",
  "available_commands",
  "delta_streaming",
  "host_tools",
  "prompt_result",
  "session_settled",
  "message_ids",
  "heartbeat",
  "integrations",
];

export function readyFrame(version: string): ReadyFrame {
  return {
    type: "ready",
    version,
    protocolVersion: 1,
    supportedProtocolVersions: [1, 2],
    maxFrameBytes: MAX_FRAME_BYTES,
    maxReassembledFrameBytes: MAX_REASSEMBLED_FRAME_BYTES,
    capabilities: [...CAPABILITIES],
  };
}
