// Language servers as `get_lsp_servers` and `get_state.lspServers` report them.
import Type, { type Static } from "typebox";
import { literals } from "./primitives.js";

export const LspServerStatusSchema = Type.Object(
  {
    /** The server's name in settings (`lsp.servers.<name>`), e.g. "typescript-language-server". */
    name: Type.String(),
    /** The language it serves, e.g. "typescript". */
    language: Type.String(),
    /** The command as configured (looked up on PATH). */
    command: Type.String(),
    /**
     * unavailable: the command is not on PATH; disabled: switched off in settings; idle: not
     * started (no file of its language yet); starting; running; crashed: exited, restarts on next
     * use; failed: did not start or crashed again within a minute (restarts at most once a minute).
     */
    status: literals(["unavailable", "disabled", "idle", "starting", "running", "crashed", "failed"]),
    /** The workspace root this instance serves (one instance per root). */
    root: Type.Optional(Type.String()),
    /** The process id (of the sandbox wrapper when sandboxed). */
    pid: Type.Optional(Type.Number()),
    /** Why it is not used, or how it ended. */
    error: Type.Optional(Type.String()),
    /** How many times it was restarted after a crash. */
    restarts: Type.Optional(Type.Number()),
  },
  { description: "One language server (per workspace root once started): its status, process and error." },
);
export type LspServerStatus = Static<typeof LspServerStatusSchema>;
