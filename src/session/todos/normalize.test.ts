import { describe, expect, it } from "vitest";
import { PithError } from "../../shared/errors.js";
import { copyTodoPhases, normalizeTodoPhases } from "./normalize.js";

describe("normalizeTodoPhases", () => {
  it("matches the protocol example: details dropped, notes kept, ids kept", () => {
    const input = [
      {
        id: "phase-1",
        name: "Evaluation",
        tasks: [
          { id: "task-1", content: "Map the read tool surface", status: "in_progress", details: "dropped" },
          { id: "task-2", content: "Exercise edit operations", status: "pending", notes: "use fixtures" },
        ],
      },
    ];
    expect(JSON.stringify(normalizeTodoPhases(input))).toBe(
      JSON.stringify([
        {
          id: "phase-1",
          name: "Evaluation",
          tasks: [
            { id: "task-1", content: "Map the read tool surface", status: "in_progress" },
            { id: "task-2", content: "Exercise edit operations", status: "pending", notes: "use fixtures" },
          ],
        },
      ]),
    );
  });

  it.each([
    ["unknown phase and task keys dropped", [{ id: "p", name: "n", extra: 1, tasks: [{ id: "t", content: "c", status: "pending", x: 2 }] }], [{ id: "p", name: "n", tasks: [{ id: "t", content: "c", status: "pending" }] }]],
    ["missing ids stay missing", [{ name: "n", tasks: [{ content: "c" }] }], [{ name: "n", tasks: [{ content: "c" }] }]],
    ["status not validated", [{ id: "p", name: "n", tasks: [{ id: "t", content: "c", status: "weird" }] }], [{ id: "p", name: "n", tasks: [{ id: "t", content: "c", status: "weird" }] }]],
    ["empty phases kept", [{ id: "p", name: "n", tasks: [] }], [{ id: "p", name: "n", tasks: [] }]],
    ["duplicate ids kept", [{ id: "p", name: "n", tasks: [{ id: "t" }, { id: "t" }] }], [{ id: "p", name: "n", tasks: [{ id: "t" }, { id: "t" }] }]],
    ["empty list", [], []],
  ])("%s", (_label, input, expected) => {
    const out = normalizeTodoPhases(input);
    expect(out).toStrictEqual(expected);
  });

  it("returns a deep copy", () => {
    const input = [{ id: "p", name: "n", tasks: [{ id: "t", content: "c", status: "pending" }] }];
    const out = normalizeTodoPhases(input);
    out[0].tasks[0].content = "changed";
    out[0].tasks.push({ id: "u", content: "x", status: "pending" });
    expect(input[0].tasks).toEqual([{ id: "t", content: "c", status: "pending" }]);
  });

  it.each([
    ["phases not an array", { phases: [] }, /`phases` must be an array/],
    ["phases missing", undefined, /`phases` must be an array/],
    ["phase without tasks", [{ id: "p", name: "n" }], /`phases\[0\]\.tasks`/],
    ["tasks not an array", [{ id: "p", name: "n", tasks: {} }], /`phases\[0\]\.tasks`/],
    ["null phase", [{ id: "p", name: "n", tasks: [] }, null], /`phases\[1\]\.tasks`/],
    ["null task", [{ id: "p", name: "n", tasks: [null] }], /`phases\[0\]\.tasks\[0\]`/],
  ])("rejects %s with invalid_request", (_label, input, message) => {
    let caught: unknown;
    try {
      normalizeTodoPhases(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PithError);
    expect((caught as PithError).code).toBe("invalid_request");
    expect((caught as PithError).message).toMatch(message);
  });

  it("copyTodoPhases can keep details", () => {
    const out = copyTodoPhases([{ id: "p", name: "n", tasks: [{ id: "t", content: "c", status: "pending", details: "d" }] }], true);
    expect(out[0].tasks[0].details).toBe("d");
  });
});
