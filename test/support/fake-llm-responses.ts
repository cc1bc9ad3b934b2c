// OpenAI Responses API SSE events for the fake LLM server (`POST …/responses`): text replies
// and function calls, then `response.completed` with usage (cached tokens split out).
import { argsText, asChunks, deltaTexts, type FakeReply, type FakeRequest } from "./fake-llm-server.js";

function ev(data: Record<string, unknown>): string {
  return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function responsesFrames(reply: FakeReply, request: FakeRequest, seq: number): string[] {
  const model = typeof request.body?.model === "string" ? request.body.model : "fake-model";
  const frames: string[] = [ev({ type: "response.created", response: { id: `resp_fake_${seq}`, created_at: 1, model } })];
  let index = 0;
  const text = [...asChunks(reply.text), ...deltaTexts(reply.deltas)];
  if (text.length > 0) {
    const id = `msg_fake_${seq}`;
    frames.push(ev({ type: "response.output_item.added", output_index: index, item: { type: "message", id } }));
    for (const t of text) frames.push(ev({ type: "response.output_text.delta", item_id: id, delta: t }));
    frames.push(ev({ type: "response.output_item.done", output_index: index, item: { type: "message", id } }));
    index++;
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const id = `fc_fake_${seq}_${i}`;
    const item = { type: "function_call", id, call_id: call.id ?? `call_fake_${seq}_${i}`, name: call.name, arguments: "" };
    frames.push(ev({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress" } }));
    const args = argsText(call.arguments);
    frames.push(ev({ type: "response.function_call_arguments.delta", item_id: id, output_index: index, delta: args }));
    frames.push(ev({ type: "response.output_item.done", output_index: index, item: { ...item, arguments: args, status: "completed" } }));
    index++;
  }
  if (reply.hang || reply.endEarly) return frames;
  const u = reply.usage ?? { input: 10, output: 5 };
  const cached = u.cacheRead ?? 0;
  const usage = { input_tokens: u.input + cached, input_tokens_details: { cached_tokens: cached }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: 0 } };
  frames.push(ev({ type: "response.completed", response: { usage } }));
  return frames;
}
