// Byte-level I/O: LF-only line reader, backpressure-aware frame writer, stdio and memory transports.
export * from "./jsonl-reader.js";
export * from "./frame-writer.js";
export * from "./stream-transport.js";
export * from "./stdio.js";
export * from "./memory.js";
export * from "./chunked-frames.js";
export * from "./websocket.js";
