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

/**
 * A transport that carries each frame as one message (WebSocket): frames have no line to outgrow,
 * so protocol version 2's chunked framing is not offered, and `ready` names the transport and the
 * largest inbound message it accepts.
 */
export interface MessageTransportInfo {
  transport: "websocket";
  maxMessageBytes: number;
}

/** The protocol versions `negotiate_protocol` may switch to over this transport. */
export function supportedProtocolVersions(wire: MessageTransportInfo | undefined): number[] {
  return wire ? [1] : [1, 2];
}

export function readyFrame(version: string, wire?: MessageTransportInfo): ReadyFrame {
  if (wire) {
    return {
      type: "ready",
      version,
      protocolVersion: 1,
      supportedProtocolVersions: supportedProtocolVersions(wire),
      capabilities: CAPABILITIES.filter((c) => c !== "protocol_v2"),
      transport: wire.transport,
      maxMessageBytes: wire.maxMessageBytes,
    };
  }
  return {
    type: "ready",
    version,
    protocolVersion: 1,
    supportedProtocolVersions: supportedProtocolVersions(undefined),
    maxFrameBytes: MAX_FRAME_BYTES,
    maxReassembledFrameBytes: MAX_REASSEMBLED_FRAME_BYTES,
    capabilities: [...CAPABILITIES],
  };
}
