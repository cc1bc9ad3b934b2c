// The envelope every command schema shares: an optional readable id, a literal `type`, and the
// optional `sessionId` that addresses one of the process's sessions.
import Type, { type Static, type TSchema } from "typebox";

/** A readable request id: echoed verbatim in the response. */
export const RpcIdSchema = Type.Union([Type.String(), Type.Number()]);
export type RpcId = Static<typeof RpcIdSchema>;

/** Addresses one of the process's sessions (create_session); absent: the session the process started with. */
export const SessionIdFieldSchema = Type.String({
  description: "The session this command addresses (create_session's sessionId); absent: the process's first session.",
});

export function command<T extends string, P extends Record<string, TSchema>>(type: T, props: P, description: string) {
  return Type.Object({ id: Type.Optional(RpcIdSchema), type: Type.Literal(type), sessionId: Type.Optional(SessionIdFieldSchema), ...props }, { description });
}
