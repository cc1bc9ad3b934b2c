// Frames of protocol version 2 and command discovery (oh-my-pi 18 shapes): what `ready` says about
// framing, the chunk of an oversized frame, the notice for a frame too large even for chunks, and
// the slash command list update.
import Type from "typebox";
import { AvailableSlashCommandSchema } from "./extra-commands.js";

const Str = Type.String();
const Num = Type.Number();

/** Fields `ready` gains (all optional in the schema: a seed `ready` stays valid). */
export const READY_PROTOCOL_FIELDS = {
  protocolVersion: Type.Optional(Type.Literal(1, { description: "Framing in force at startup." })),
  supportedProtocolVersions: Type.Optional(Type.Array(Num, { description: "[1, 2]: negotiate_protocol accepts 2." })),
  maxFrameBytes: Type.Optional(Num),
  maxReassembledFrameBytes: Type.Optional(Num),
  capabilities: Type.Optional(Type.Array(Str, { description: "pith: names of the extensions this process supports." })),
  transport: Type.Optional(
    Type.Literal("websocket", { description: "pith serve: this connection carries one frame per WebSocket text message (absent on stdio)." }),
  ),
  maxMessageBytes: Type.Optional(Num),
};

export const RpcChunkFrameSchema = Type.Object(
  {
    type: Type.Literal("rpc_chunk"),
    chunkId: Str,
    index: Num,
    count: Num,
    byteLength: Num,
    data: Str,
  },
  { description: "Version 2: one base64 slice of a logical frame's UTF-8 JSON; `count` consecutive chunks make the frame." },
);

export const RpcFrameErrorSchema = Type.Object(
  { type: Type.Literal("rpc_frame_error"), originalType: Type.Optional(Str), error: Str },
  { description: "Version 2: a frame larger than maxReassembledFrameBytes was dropped." },
);

export const AvailableCommandsUpdateSchema = Type.Object(
  { type: Type.Literal("available_commands_update"), commands: Type.Array(AvailableSlashCommandSchema) },
  { description: "The slash command list changed (extensions registered commands)." },
);

export const FRAMING_FRAME_SCHEMAS = [RpcChunkFrameSchema, RpcFrameErrorSchema, AvailableCommandsUpdateSchema] as const;
