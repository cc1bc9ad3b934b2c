// Commands pi 0.87.1's RpcClient and pi-acp send that the seed protocol lacked, with pi's shapes
// (dist/modes/rpc/rpc-types.d.ts): thinking levels, clear_queue, the entry list and tree.
import type { SessionEntry } from "../../session/index.js";
import type { CommandHandler } from "./types.js";

export const get_available_thinking_levels: CommandHandler<"get_available_thinking_levels"> = (_cmd, ctx) => ({
  levels: ctx.session.models.availableThinkingLevels(),
});

export const clear_queue: CommandHandler<"clear_queue"> = (_cmd, ctx) => ctx.session.clearQueue();

export const get_entries: CommandHandler<"get_entries"> = (cmd, ctx) => {
  const all = ctx.session.history.entries();
  let entries = all;
  if (cmd.since !== undefined) {
    const at = all.findIndex((e) => e.id === cmd.since);
    if (at === -1) throw new Error(`Entry not found: ${cmd.since}`);
    entries = all.slice(at + 1);
  }
  return { entries, leafId: ctx.session.history.leafId };
};

interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  label?: string;
}

export const get_tree: CommandHandler<"get_tree"> = (_cmd, ctx) => {
  const history = ctx.session.history;
  const nodes = new Map<string, TreeNode>();
  const roots: TreeNode[] = [];
  for (const entry of history.entries()) {
    const label = history.label(entry.id);
    nodes.set(entry.id, { entry, children: [], ...(label !== undefined ? { label } : {}) });
  }
  for (const node of nodes.values()) {
    const parent = node.entry.parentId === null ? undefined : nodes.get(node.entry.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return { tree: roots, leafId: history.leafId };
};
