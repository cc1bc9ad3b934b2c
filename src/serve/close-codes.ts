// The WebSocket close codes `pith serve` uses (docs/serve.md lists them for hosts).
export const CLOSE = {
  /** The front door ended (an extension shut the session down). */
  normal: 1000,
  /** The server is draining (SIGTERM/SIGINT): work finished or was aborted. */
  goingAway: 1001,
  /** A message over the hard size bound (`ws` closes with it itself). */
  tooBig: 1009,
  /** The connection's session could not be built. */
  internalError: 1011,
  /** The client left more than the outbound bound unread. */
  slowConsumer: 4001,
} as const;
