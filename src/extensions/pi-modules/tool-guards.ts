// pi's event type guards, exported to extensions by its coding-agent package.

/** Whether a `tool_call` event is for the tool `toolName`. */
export function isToolCallEventType(toolName: string, event: { toolName?: unknown }): boolean {
  return event?.toolName === toolName;
}

/** A guard that a `tool_result` event comes from the tool `toolName`. */
export function isToolResultOf(toolName: string): (event: { toolName?: unknown }) => boolean {
  return (event) => event?.toolName === toolName;
}
