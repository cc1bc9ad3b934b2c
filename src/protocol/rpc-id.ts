// The request id every command may carry.
import Type, { type Static } from "typebox";

/** A readable request id: echoed verbatim in the response. */
export const RpcIdSchema = Type.Union([Type.String(), Type.Number()]);
export type RpcId = Static<typeof RpcIdSchema>;
