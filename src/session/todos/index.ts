// Todo state, reminders and the eager prelude.
export { normalizeTodoPhases, copyTodoPhases } from "./normalize.js";
export { TodoState, type TodoStateOptions } from "./todo-state.js";
export { todosFromHistory } from "./history.js";
export { TodoReminder, type TodoReminderEvent, type TodoReminderOptions } from "./reminder.js";
export { shouldUseEagerPrelude, eagerPreludeMessage, EAGER_PRELUDE_TYPE, type EagerPreludeConditions } from "./eager-prelude.js";
