// E07: the first edit quotes text that is not in the file and fails with E_NOT_FOUND; after
// re-reading, the second edit succeeds.
export default function verify({ read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const expected =
    'export const config = {\n  baseUrl: "https://api.example.com",\n  timeoutMs: 10_000,\n  maxRetries: 5,\n};\n';
  if (read("src/config.ts") !== expected) failures.push("src/config.ts is not exactly the expected text");
  const edits = toolCalls.filter((call) => call.name === "edit_file");
  if (edits.map((e) => e.status).join() !== "error,success")
    failures.push("expected a failed edit, then a successful one");
  if (!edits[0]?.output.includes("E_NOT_FOUND")) failures.push("the failed edit did not report E_NOT_FOUND");
  return failures;
}
