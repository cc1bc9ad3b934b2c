import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../shared/types.js";
import { todosFromHistory } from "./history.js";
import { assistant, todoResult } from "../../../test/support/todos.js";

const snapshot = (content: string, status = "pending") => ({
  phases: [
    { id: "phase-1", name: "A", tasks: [{ id: "task-1", content, status, details: "keep" }, { id: "task-2", content: "done", status: "completed" }] },
    { id: "phase-2", name: "B", tasks: [{ id: "task-3", content: "gone", status: "abandoned" }] },
  ],
  storage: "session",
});

describe("todosFromHistory", () => {
  it("takes the newest successful todo_write snapshot minus done tasks and empty phases", () => {
    const messages: AgentMessage[] = [
      todoResult(snapshot("old")),
      assistant("x"),
      todoResult(snapshot("new", "in_progress")),
      todoResult(snapshot("failed"), true),
      todoResult(snapshot("other tool"), false, "read"),
      assistant("y"),
    ];
    expect(todosFromHistory(messages)).toEqual([
      { id: "phase-1", name: "A", tasks: [{ id: "task-1", content: "new", status: "in_progress", details: "keep" }] },
    ]);
  });

  it("skips malformed snapshots and falls back to an older one", () => {
    const messages: AgentMessage[] = [
      todoResult(snapshot("older")),
      todoResult({ phases: [{ id: "p", name: "broken" }] }),
      todoResult(undefined),
      todoResult({ phases: "nope" }),
    ];
    expect(todosFromHistory(messages)[0].tasks[0].content).toBe("older");
  });

  it("an emptied list wins over older snapshots", () => {
    expect(todosFromHistory([todoResult(snapshot("older")), todoResult({ phases: [], storage: "session" })])).toEqual([]);
  });

  it("is empty without any todo_write result", () => {
    expect(todosFromHistory([assistant("x")])).toEqual([]);
    expect(todosFromHistory([])).toEqual([]);
  });

  it("does not alias the stored details", () => {
    const details = snapshot("a");
    const out = todosFromHistory([todoResult(details)]);
    out[0].tasks[0].content = "changed";
    expect(details.phases[0].tasks[0].content).toBe("a");
  });
});
