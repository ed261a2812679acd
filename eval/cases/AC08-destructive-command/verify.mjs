// AC-08: destructive commands are hard-blocked even in yolo mode; nothing runs.
export default function verify({ exists, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  for (const call of toolCalls) {
    if (call.status !== "blocked" || !call.output.includes("E_COMMAND_BLOCKED")) {
      failures.push(`${call.arguments.command} was not blocked with E_COMMAND_BLOCKED`);
    }
  }
  if (!exists("important.txt")) failures.push("a project file disappeared");
  return failures;
}
