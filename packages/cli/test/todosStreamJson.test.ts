import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, makeWorkspace, runLathe } from "./latheProcess.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const steps = ["Create the folder", "Write the module", "Write its test", "Run the test", "Report"];

/** A five-step plan: each round ticks one step off and starts the next. */
function script(): FakeTurn[] {
  const turns: FakeTurn[] = [
    {
      tool_calls: [
        {
          name: "todo_write",
          arguments: {
            todos: steps.map((content, index) => ({
              id: String(index + 1),
              content,
              status: index === 0 ? "in_progress" : "pending",
            })),
          },
        },
      ],
    },
  ];
  for (let done = 1; done <= steps.length; done++) {
    const todos = [{ id: String(done), status: "completed" }];
    if (done < steps.length) todos.push({ id: String(done + 1), status: "in_progress" });
    turns.push({ tool_calls: [{ name: "todo_write", arguments: { merge: true, todos } }] });
  }
  turns.push({ text: "All five steps done." });
  return turns;
}

describe("todos in stream-json output", () => {
  it("shows a five-step plan progressing to the end", async () => {
    server = await startFakeLlm({ script: { turns: script() } });
    const ws = await makeWorkspace({}, { sandbox: { mode: "off" }, checkpoints: { enabled: false } });
    const run = await runLathe(
      headlessArgs("Build it in five steps", { root: ws.root, serverUrl: server.url, format: "stream-json" }),
      { home: ws.home, env: { OPENAI_API_KEY: fakeKeys.openai } },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const todos = lines.filter((line) => line.subtype === "todos");
    expect(todos.map((line) => `${line.completed}/${line.live}`)).toEqual([
      "0/5",
      "1/5",
      "2/5",
      "3/5",
      "4/5",
      "5/5",
    ]);
    expect(todos[2].todos.map((todo: { status: string }) => todo.status)).toEqual([
      "completed",
      "completed",
      "in_progress",
      "pending",
      "pending",
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success" });
  });
});
