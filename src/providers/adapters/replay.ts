// How provider metadata round-trips through pith's content blocks. Each wire api has a codec:
// `capture*` turns AI SDK providerMetadata from the stream into block fields (signatures),
// `*Options` turns those fields back into providerOptions for the next request.
import type { ThinkingContent, ToolCall } from "../../shared/types.js";

export type ProviderMeta = Record<string, Record<string, unknown> | undefined> | undefined;
// The SDK types provider options as JSON values; the codecs fill them from unknown metadata it produced itself.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type PartOptions = Record<string, Record<string, any>>;

export interface ReplayCodec {
  /** providerOptions namespace the SDK reads */
  namespace: string;
  /** Thinking blocks without a signature can still be replayed as reasoning (e.g. reasoning_content). */
  replayUnsignedThinking: boolean;
  captureThinkingSignature(meta: ProviderMeta): string | undefined;
  captureRedacted(meta: ProviderMeta): string | undefined;
  captureToolCallSignature(meta: ProviderMeta): string | undefined;
  thinkingOptions(block: ThinkingContent): PartOptions | undefined;
  redactedOptions(data: string): PartOptions | undefined;
  toolCallOptions(call: ToolCall): PartOptions | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

const none: Omit<ReplayCodec, "namespace" | "replayUnsignedThinking"> = {
  captureThinkingSignature: () => undefined,
  captureRedacted: () => undefined,
  captureToolCallSignature: () => undefined,
  thinkingOptions: () => undefined,
  redactedOptions: () => undefined,
  toolCallOptions: () => undefined,
};

export const anthropicCodec: ReplayCodec = {
  ...none,
  namespace: "anthropic",
  replayUnsignedThinking: false,
  captureThinkingSignature: (m) => str(m?.anthropic?.signature),
  captureRedacted: (m) => str(m?.anthropic?.redactedData),
  thinkingOptions: (b) => (b.thinkingSignature ? { anthropic: { signature: b.thinkingSignature } } : undefined),
  redactedOptions: (data) => ({ anthropic: { redactedData: data } }),
};

export const googleCodec: ReplayCodec = {
  ...none,
  namespace: "google",
  replayUnsignedThinking: true,
  captureThinkingSignature: (m) => str(m?.google?.thoughtSignature),
  captureToolCallSignature: (m) => str(m?.google?.thoughtSignature),
  thinkingOptions: (b): PartOptions => (b.thinkingSignature ? { google: { thoughtSignature: b.thinkingSignature } } : {}),
  toolCallOptions: (c) => (c.thoughtSignature ? { google: { thoughtSignature: c.thoughtSignature } } : undefined),
};

/** Completions servers replay reasoning as `reasoning_content`; no signatures exist. */
export const completionsCodec: ReplayCodec = { ...none, namespace: "openaiCompatible", replayUnsignedThinking: true };

/** Responses reasoning items: the signature is JSON `{itemId, reasoningEncryptedContent}`. */
export const responsesCodec: ReplayCodec = {
  ...none,
  namespace: "openai",
  replayUnsignedThinking: false,
  captureThinkingSignature: (m) => {
    const itemId = str(m?.openai?.itemId);
    const enc = str(m?.openai?.reasoningEncryptedContent);
    return itemId || enc ? JSON.stringify({ itemId, reasoningEncryptedContent: enc }) : undefined;
  },
  thinkingOptions: (b) => {
    if (!b.thinkingSignature) return undefined;
    try {
      const parsed = JSON.parse(b.thinkingSignature) as Record<string, unknown>;
      return { openai: { itemId: parsed.itemId, reasoningEncryptedContent: parsed.reasoningEncryptedContent } };
    } catch (err) {
      void err; // not ours (e.g. an Anthropic signature under the same model name): replay as text
      return undefined;
    }
  },
};

/** Merge providerMetadata seen across start/delta/end parts of one block. */
export function mergeMeta(into: Record<string, Record<string, unknown>>, meta: ProviderMeta): void {
  if (!meta) return;
  for (const [ns, values] of Object.entries(meta)) {
    if (!values) continue;
    into[ns] = { ...into[ns], ...values };
  }
}
