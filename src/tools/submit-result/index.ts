// `submit_result` (the reference's tool for structured answers): offered only for a run whose
// prompt carries an output schema. `{result: {data}}` is validated against that schema (each
// violation listed so the model can correct it); `{result: {error}}` reports a failure.
import type { Tool } from "../types.js";
import type { OutputSpec } from "./output-schema.js";

export { compileOutputSchema, MAX_OUTPUT_SCHEMA_BYTES, OutputSchemaError, type OutputSpec } from "./output-schema.js";

export const SUBMIT_RESULT = "submit_result";

/** What a valid call submitted. */
export type SubmittedResult = { data: unknown } | { error: string };

const DESCRIPTION =
  "Finish the task with structured JSON output. Call exactly once at the end.\n\n" +
  'Pass `result: { data: <your output> }` for success, or `result: { error: "message" }` when the task cannot be done.\n' +
  "The `data`/`error` wrapper is required: do not put your output directly in `result`.";

export function createSubmitResultTool(spec: OutputSpec, onSubmit: (result: SubmittedResult) => void): Tool {
  const dataSchema = typeof spec.schema === "boolean" ? {} : spec.schema;
  return {
    name: SUBMIT_RESULT,
    label: "Submit result",
    description: DESCRIPTION,
    parameters: {
      type: "object",
      properties: {
        result: {
          anyOf: [
            { type: "object", properties: { data: dataSchema }, required: ["data"], description: "The task's output, matching the schema" },
            { type: "object", properties: { error: { type: "string" } }, required: ["error"], description: "Why the task cannot be completed" },
          ],
        },
      },
      required: ["result"],
      additionalProperties: false,
    },
    validatesOwnArguments: true,
    // records the session's final result; touches nothing else
    effect: "session",
    concurrency: "exclusive",
    async execute(args: unknown) {
      const result = (args as { result?: unknown } | null)?.result;
      if (result === null || typeof result !== "object" || Array.isArray(result)) {
        throw new Error('result must be an object: {"result": {"data": <output>}} or {"result": {"error": "message"}}');
      }
      const r = result as Record<string, unknown>;
      const hasData = "data" in r;
      if (hasData && "error" in r) throw new Error("result cannot hold both data and error");
      if (!hasData) {
        if (typeof r.error !== "string") throw new Error('result must hold either data or error (a string): {"result": {"data": <output>}}');
        onSubmit({ error: r.error });
        return { content: [{ type: "text", text: "Failure reported." }], details: { status: "error", error: r.error } };
      }
      const violations = spec.check(r.data);
      if (violations.length > 0) throw new Error(`Output does not match the schema:\n${violations.map((v) => `  - ${v}`).join("\n")}`);
      onSubmit({ data: r.data });
      return { content: [{ type: "text", text: "Result submitted." }], details: { status: "success", data: r.data } };
    },
  };
}
