// Approval dialogs over RPC: a permission ask is an `extension_ui_request` of method `select`
// with the `permission` field (so every host that answers extension dialogs can answer it),
// and the way it ended — an option, cancel, timeout, or stdin EOF — goes back to the session.
import type { PermissionAsker } from "../session/index.js";
import type { RpcUiBridge } from "./ui-bridge.js";

export function createRpcPermissionAsker(ui: RpcUiBridge): PermissionAsker {
  return {
    async ask(request, signal) {
      if (ui.closed) return "eof";
      let timedOut = false;
      const value = await ui.selectWith(
        request.title,
        request.options,
        { permission: request.permission },
        { timeout: request.timeout, signal, onTimeout: () => (timedOut = true) },
      );
      if (value !== undefined) return { value };
      if (timedOut) return "timeout";
      if (ui.closed) return "eof";
      return "cancelled";
    },
  };
}
