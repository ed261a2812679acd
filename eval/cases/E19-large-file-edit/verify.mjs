import { readFileSync } from "node:fs";

// E19: after a ranged read, exactly one line of the 5,000 changes.
export default function verify({ read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const original = readFileSync(new URL("./fixture/src/handlers.js", import.meta.url), "utf8");
  const expected = original.replace('route: "/r700", id, status: 200', 'route: "/r700", id, status: 201');
  if (read("src/handlers.js") !== expected)
    failures.push("src/handlers.js is not exactly the original with one line changed");
  const ranged = toolCalls.find((call) => call.name === "read_file");
  if (!ranged?.output.includes("  3499|")) failures.push("the ranged read did not show line 3499");
  return failures;
}
