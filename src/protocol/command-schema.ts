// The envelope every command schema shares: an optional readable id and a literal `type`.
import Type, { type Static, type TSchema } from "typebox";

/** A readable request id: echoed verbatim in the response. */
export const RpcIdSchema = Type.Union([Type.String(), Type.Number()]);
export type RpcId = Static<typeof RpcIdSchema>;

export function command<T extends string, P extends Record<string, TSchema>>(type: T, props: P, description: string) {
  return Type.Object({ id: Type.Optional(RpcIdSchema), type: Type.Literal(type), ...props }, { description });
}
