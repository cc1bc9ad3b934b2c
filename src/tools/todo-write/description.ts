export const TODO_WRITE_DESCRIPTION = `Maintain a structured todo list for multi-step work: phases containing tasks. Send a list of ops, applied in order:
- {op:"replace", phases:[{name, tasks:[{content, status?, details?, notes?}]}]} replaces the whole list (ids restart at phase-1 / task-1)
- {op:"add_phase", name, tasks?:[...]} appends a phase
- {op:"add_task", phase:"phase-N", content, details?, notes?} appends a pending task to a phase
- {op:"update", id:"task-N", status?, content?, details?, notes?} changes a task
- {op:"remove_task", id:"task-N"} deletes a task
Statuses: pending, in_progress, completed, abandoned. Keep exactly one task in_progress; mark tasks completed as soon as they are done. Keep content short and put specifics in details.`;
