// `pi.events`: an in-process bus shared by all extensions of one load.
import { errorMessage } from "../shared/errors.js";
import type { EventBus, ExtensionErrorListener } from "./types.js";

export function createEventBus(onError: ExtensionErrorListener): EventBus {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  return {
    on(channel, handler) {
      const set = listeners.get(channel) ?? new Set();
      set.add(handler);
      listeners.set(channel, set);
      return () => set.delete(handler);
    },
    emit(channel, data) {
      for (const handler of [...(listeners.get(channel) ?? [])]) {
        try {
          handler(data);
        } catch (err) {
          onError({ extensionPath: "events", event: channel, error: errorMessage(err) });
        }
      }
    },
  };
}
