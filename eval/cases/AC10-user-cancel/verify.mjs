// AC-10: Stop during a command ends the run as cancelled, kills the command (its output never
// appears) and returns the session to idle.
export default function verify({ result, toolCalls, events, exists }) {
  const failures = [];
  if (result.status !== "cancelled") failures.push(`run ended ${result.status}, not cancelled`);
  if (toolCalls[0]?.status !== "cancelled")
    failures.push(`the command ended ${toolCalls[0]?.status}, not cancelled`);
  if (exists("imported.txt")) failures.push("the command ran to the end");
  const last = events.filter((event) => event.type === "state_change").at(-1);
  if (last?.to !== "idle") failures.push("the session did not return to idle");
  return failures;
}
