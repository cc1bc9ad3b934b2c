// The ExtensionHost a session offers its extensions: narrow callbacks, never the session.
import type { ExtensionHost } from "../extensions/host.js";
import type { CustomMessageInput } from "../extensions/events.js";
import type { SendMessageOptions, SendUserMessageOptions } from "../extensions/types.js";
import type { ExtensionUi } from "../extensions/ui.js";
import type { CustomMessage, UserContent } from "../shared/types.js";
import type { AgentSession } from "./agent-session.js";
import { setModel, setThinkingLevel } from "./model-control.js";
import { branchSession, newSession, switchSession } from "./session-switching.js";
import { userMessage } from "./queues.js";
import { contentText } from "./store/message-text.js";

export interface ExtensionHostOptions {
  ui: ExtensionUi;
  hasUI: boolean;
  onShutdownRequested?(): void;
  onPromptError(command: "extension_send" | "extension_send_user", message: string): void;
}

export function createExtensionHost(session: AgentSession, opts: ExtensionHostOptions): ExtensionHost {
  const rt = () => session.rt;
  return {
    cwd: session.deps.cwd,
    ui: opts.ui,
    hasUI: opts.hasUI,
    abort: () => void session.abort(),
    isIdle: () => !session.isStreaming,
    hasPendingMessages: () => session.queues.count > 0,
    onShutdownRequested: opts.onShutdownRequested,
    getModel: () => session.model,
    getSystemPrompt: () => session.systemPrompt,
    sendUserMessage: (content, o) => sendUserMessage(session, content, o, opts),
    sendMessage: (message, o) => sendMessage(session, message, o),
    appendEntry: (customType, data) => void rt().store.appendCustom(customType, data),
    setSessionName: (name) => void rt().store.setName(name),
    getSessionName: () => rt().store.name,
    setLabel: (entryId, label) => void rt().store.appendLabel(entryId, label),
    getActiveTools: () => session.activeTools().map((t) => t.name),
    getAllTools: () => session.activeTools().map((t) => ({ name: t.name, description: t.description })),
    setModel: async (model) => {
      try {
        await setModel(session, model.provider, model.id);
        return true;
      } catch {
        return false;
      }
    },
    getThinkingLevel: () => session.thinkingLevel,
    setThinkingLevel: (level) => setThinkingLevel(session, level),
    waitForIdle: () => session.waitForIdle(),
    newSession: (o) => newSession(session, o?.parentSession),
    branch: async (entryId) => ({ cancelled: (await branchSession(session, entryId)).cancelled }),
    switchSession: (p) => switchSession(session, p),
  };
}

async function sendUserMessage(
  session: AgentSession,
  content: string | UserContent[],
  o: SendUserMessageOptions | undefined,
  opts: ExtensionHostOptions,
): Promise<void> {
  const text = contentText(content);
  const images = typeof content === "string" ? [] : content.filter((b) => b.type === "image");
  if (session.isStreaming) {
    const m = userMessage(text, images);
    if (o?.deliverAs === "followUp") session.queues.followUp(m);
    else session.queues.steer(m);
    return;
  }
  const handle = session.prompt(text, { images });
  handle.done.catch((err) => opts.onPromptError("extension_send_user", (err as Error).message));
  try {
    await handle.accepted;
  } catch (err) {
    opts.onPromptError("extension_send_user", (err as Error).message);
  }
}

function sendMessage(session: AgentSession, input: CustomMessageInput, o: SendMessageOptions | undefined): void {
  const message: CustomMessage = { role: "custom", ...input, timestamp: Date.now() };
  if (session.isStreaming || o?.deliverAs === "nextTurn") {
    if (o?.deliverAs === "followUp") session.queues.followUp(message);
    else if (o?.deliverAs === "nextTurn") session.queues.addNextTurn(message);
    else session.queues.steer(message);
    return;
  }
  session.rt.messages.push(message);
  session.rt.persist(message);
}
