// AC-12: a face can show the call while it streams: start, argument deltas, ready, then execution.
export default function verify({ events, read, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const kinds = events
    .filter((e) => e.name === "write_file" && e.type.startsWith("tool_call"))
    .map((e) => e.type);
  const first = kinds.indexOf("tool_call_start");
  const delta = kinds.indexOf("tool_call_delta");
  const ready = kinds.indexOf("tool_call_ready");
  if (!(first >= 0 && delta > first && ready > delta))
    failures.push(`tool call events out of order: ${kinds.join(",")}`);
  const deltas = events.filter((e) => e.type === "tool_call_delta" && e.name === "write_file");
  if (deltas.length < 2) failures.push("the arguments did not stream in several deltas");
  if (!read("notes/plan.md")?.startsWith("# Plan")) failures.push("notes/plan.md was not written");
  return failures;
}
