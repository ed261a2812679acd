// AC-09: a model that would go on for 30 rounds is stopped after 25 and the user is told how to continue.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "iteration_limit") failures.push(`run ended ${result.status}, not iteration_limit`);
  if (toolCalls.length !== 25) failures.push(`${toolCalls.length} tool calls ran, not 25`);
  if (!result.final.includes('"continue"')) failures.push("the user was not told how to continue");
  return failures;
}
