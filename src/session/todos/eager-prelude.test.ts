import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../shared/types.js";
import { eagerPreludeMessage, shouldUseEagerPrelude, type EagerPreludeConditions } from "./eager-prelude.js";
import { assistant } from "../../../test/support/todos.js";

const base: EagerPreludeConditions = { enabled: true, eager: true, todos: [], messages: [], promptText: "Add a --port flag", hasTodoTool: true };
const user: AgentMessage = { role: "user", content: "hi", timestamp: 1 };

describe("shouldUseEagerPrelude", () => {
  it("holds for the first task-like prompt of a fresh conversation", () => {
    expect(shouldUseEagerPrelude(base)).toBe(true);
    expect(shouldUseEagerPrelude({ ...base, messages: [assistant("from a hook")] })).toBe(true);
    expect(shouldUseEagerPrelude({ ...base, todos: [{ id: "phase-1", name: "empty", tasks: [] }] })).toBe(true);
    expect(shouldUseEagerPrelude({ ...base, promptText: "Fix it. " })).toBe(true);
  });

  it.each<[string, Partial<EagerPreludeConditions>]>([
    ["todo disabled", { enabled: false }],
    ["eager disabled", { eager: false }],
    ["no todo_write tool", { hasTodoTool: false }],
    ["a user message already exists", { messages: [user] }],
    ["the list is not empty", { todos: [{ id: "phase-1", name: "P", tasks: [{ id: "task-1", content: "x", status: "pending" }] }] }],
    ["a question", { promptText: "What does this do?" }],
    ["an exclamation with trailing space", { promptText: "Thanks!  \n" }],
  ])("does not hold when %s", (_label, patch) => {
    expect(shouldUseEagerPrelude({ ...base, ...patch })).toBe(false);
  });
});

describe("eagerPreludeMessage", () => {
  it("is a hidden custom message asking for todo_write first", () => {
    const m = eagerPreludeMessage(42);
    expect(m).toMatchObject({ role: "custom", customType: "eager-todo-prelude", display: false, timestamp: 42 });
    expect(m.content).toContain("todo_write");
    expect(m.content).toContain("`replace`");
    expect(m.content).toContain("in_progress");
    expect(m.content).toContain("details");
  });
});
