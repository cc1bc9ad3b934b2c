// Anthropic messages SSE frames for the fake LLM server: the real event sequence
// (message_start, content_block_start/delta/stop, message_delta, message_stop).
import { argsText, asChunks, deltaTexts, fragments, type FakeReply, type FakeRequest } from "./fake-llm-server.js";

function ev(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

export function anthropicFrames(reply: FakeReply, request: FakeRequest, seq: number): string[] {
  const usage = reply.usage ?? { input: 10, output: 5 };
  const model = typeof request.body?.model === "string" ? request.body.model : "fake-model";
  const frames: string[] = [
    ev("message_start", {
      message: {
        id: `msg_fake_${seq}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_read_input_tokens: usage.cacheRead ?? 0,
          cache_creation_input_tokens: usage.cacheWrite ?? 0,
          ...(usage.cacheWrite1h !== undefined && {
            cache_creation: {
              ephemeral_5m_input_tokens: (usage.cacheWrite ?? 0) - usage.cacheWrite1h,
              ephemeral_1h_input_tokens: usage.cacheWrite1h,
            },
          }),
        },
      },
    }),
  ];
  let index = 0;
  const thinking = asChunks(reply.thinking);
  if (thinking.length > 0) {
    frames.push(ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    for (const t of thinking) frames.push(ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: t } }));
    const signature = reply.signature ?? `sig-${seq}`;
    frames.push(ev("content_block_delta", { index, delta: { type: "signature_delta", signature } }));
    frames.push(ev("content_block_stop", { index }));
    index++;
  }
  const text = [...asChunks(reply.text), ...deltaTexts(reply.deltas)];
  if (text.length > 0) {
    frames.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const t of text) frames.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: t } }));
    frames.push(ev("content_block_stop", { index }));
    index++;
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_fake_${seq}_${i}`;
    frames.push(ev("content_block_start", { index, content_block: { type: "tool_use", id, name: call.name, input: {} } }));
    for (const f of fragments(argsText(call.arguments))) {
      frames.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: f } }));
    }
    frames.push(ev("content_block_stop", { index }));
    index++;
  }
  if (reply.hang || reply.endEarly) return frames;
  const stop = reply.stopReason ?? (reply.toolCalls?.length ? "tool_use" : "end_turn");
  frames.push(ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } }));
  frames.push(ev("message_stop", {}));
  return frames;
}
