// AC-07: absolute and ../ paths outside the project are refused with E_PATH_TRAVERSAL, and no content leaks.
// The policy refuses them before the tool runs, as `lathe policy check` says it would.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  for (const call of toolCalls) {
    if (call.status !== "blocked" || call.errorCode !== "E_PATH_TRAVERSAL")
      failures.push(`${JSON.stringify(call.arguments)} was not refused`);
    if (call.output.includes("root:")) failures.push("the password file's contents leaked");
  }
  return failures;
}
