import { existsSync } from "node:fs";

// E10: reads and writes outside the project are refused with E_PATH_TRAVERSAL, in yolo mode too.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  for (const call of toolCalls) {
    if (call.status === "success" || !call.output.includes("E_PATH_TRAVERSAL")) {
      failures.push(`${call.name} ${JSON.stringify(call.arguments)} was not refused with E_PATH_TRAVERSAL`);
    }
  }
  if (existsSync("/tmp/lathe-e10-pwned.txt")) failures.push("a file was written outside the project");
  return failures;
}
