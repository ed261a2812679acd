import { execFileSync } from "node:child_process";

// AC-03: the command runs and its output (the real npm version) reaches the model.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const version = execFileSync("npm", ["--version"], { encoding: "utf8" }).trim();
  const run = toolCalls.find((c) => c.name === "run_terminal_cmd");
  if (run?.status !== "success" || !run.output.includes(version))
    failures.push(`the command output lacks npm ${version}`);
  return failures;
}
