// set_event_filter (oh-my-pi's shape): which session event types reach the host. Responses,
// dialogs and host tool frames never pass through here; `prompt_result` always passes.
const ALWAYS: ReadonlySet<string> = new Set(["prompt_result", "response"]);

export class EventFilter {
  private selected: Set<string> | undefined;

  /** `null` writes everything again. Returns the active selection, as the response reports it. */
  set(events: readonly string[] | null): string[] | null {
    if (events !== null && !events.every((e) => typeof e === "string" && e.length > 0)) {
      throw new Error("events must be null or an array of non-empty event type strings");
    }
    this.selected = events === null ? undefined : new Set(events);
    return this.selected ? [...this.selected] : null;
  }

  passes(type: string): boolean {
    return !this.selected || this.selected.has(type) || ALWAYS.has(type);
  }
}
