// E20: the API and its tests exist, the plan was followed to the end, and the tests the agent
// wrote pass when run again here.
import { spawnSync } from "node:child_process";

export default function verify({ projectRoot, result, events, exists, toolCalls }) {
  const failures = [];
  // The scripted model's first server answers 200 on create: the first test run must catch it.
  const testRuns = toolCalls.filter((call) => call.name === "run_terminal_cmd").map((call) => call.output);
  if (!/ℹ fail 1\b/.test(testRuns[0] ?? ""))
    failures.push("the first npm test did not report the failing test");
  if (!/ℹ fail 0\b/.test(testRuns[1] ?? "")) failures.push("the second npm test did not pass");
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  for (const path of ["src/notesApi.js", "test/notesApi.test.js"])
    if (!exists(path)) failures.push(`${path} is missing`);
  const todos = events.filter((event) => event.type === "todos");
  const last = todos.at(-1);
  if (last?.completed !== 4 || last.live !== 4) failures.push("the four todos did not all end completed");
  if (todos.length !== 5) failures.push(`expected 5 todo updates, saw ${todos.length}`);
  const run = spawnSync(process.execPath, ["--test"], {
    cwd: projectRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.status !== 0) failures.push(`node --test failed:\n${run.stdout}\n${run.stderr}`);
  return failures;
}
