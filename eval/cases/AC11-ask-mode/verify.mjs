// AC-11: in ask mode a write is not even a known tool, and the file stays as it was.
export default function verify({ read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (read("math.js") !== "export const add = (a, b) => a + b;\n")
    failures.push("math.js changed in ask mode");
  const write = toolCalls.find((c) => c.name === "write_file");
  if (!write?.output.includes("E_TOOL_NOT_FOUND"))
    failures.push("write_file was not refused as unknown in ask mode");
  return failures;
}
