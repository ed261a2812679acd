import type { TodoEntry } from "../state/sessionView.js";

const marks: Record<TodoEntry["status"], string> = {
  pending: "○",
  in_progress: "◐",
  completed: "●",
  cancelled: "⊘",
};

/** The model's plan (`todo_write`), with how much of it is done. */
export function TodoPanel({ todos }: { todos: TodoEntry[] }) {
  if (todos.length === 0) return null;
  const live = todos.filter((todo) => todo.status !== "cancelled");
  const done = live.filter((todo) => todo.status === "completed").length;
  return (
    <div className="todo-panel" data-testid="todo-panel">
      <div className="todo-heading">
        Plan{" "}
        <span data-testid="todo-progress">
          {done}/{live.length}
        </span>
      </div>
      <ul>
        {todos.map((todo) => (
          <li
            key={todo.id}
            className={`todo todo-${todo.status}`}
            data-testid="todo"
            data-status={todo.status}
          >
            <span className="todo-mark" aria-hidden="true">
              {marks[todo.status]}
            </span>
            {todo.content}
          </li>
        ))}
      </ul>
    </div>
  );
}
