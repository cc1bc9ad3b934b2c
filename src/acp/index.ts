// The ACP front door. Loads the ACP SDK: import this module dynamically.
export { createAcpAgent, type AcpFrontDoor } from "./agent.js";
export type { AcpHost, AcpMcpServer, AcpSessionSpec, AcpSessionSummary, HostedAcpSession } from "./host.js";
