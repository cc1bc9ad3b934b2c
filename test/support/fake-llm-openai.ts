// OpenAI chat completions SSE chunks for the fake LLM server (`data:` lines, usage chunk when
// `stream_options.include_usage`, then `data: [DONE]`).
import { argsText, asChunks, deltaTexts, fragments, type FakeReply, type FakeRequest } from "./fake-llm-server.js";

export function openaiFrames(reply: FakeReply, request: FakeRequest, seq: number): string[] {
  const model = typeof request.body?.model === "string" ? request.body.model : "fake-model";
  const id = `chatcmpl-fake-${seq}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames: string[] = [chunk({ role: "assistant", content: "" })];
  for (const t of asChunks(reply.thinking)) frames.push(chunk({ reasoning_content: t }));
  for (const t of asChunks(reply.text)) frames.push(chunk({ content: t }));
  for (const t of deltaTexts(reply.deltas)) frames.push(chunk({ content: t }));
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const callId = call.id ?? `call_fake_${seq}_${i}`;
    frames.push(chunk({ tool_calls: [{ index: i, id: callId, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const f of fragments(argsText(call.arguments))) {
      frames.push(chunk({ tool_calls: [{ index: i, function: { arguments: f } }] }));
    }
  }
  if (reply.hang || reply.endEarly) return frames;
  const finish = reply.stopReason ?? (reply.toolCalls?.length ? "tool_calls" : "stop");
  frames.push(chunk({}, finish));
  if (request.body?.stream_options?.include_usage) {
    const u = reply.usage ?? { input: 10, output: 5 };
    const cached = u.cacheRead ?? 0;
    const usage = {
      prompt_tokens: u.input + cached,
      completion_tokens: u.output,
      total_tokens: u.input + cached + u.output,
      prompt_tokens_details: { cached_tokens: cached },
    };
    frames.push(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model, choices: [], usage })}\n\n`);
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}
