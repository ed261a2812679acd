// E18: the three reads of one turn overlap (all start before any finishes) and all complete, in call order.
export default function verify({ events, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const lifecycle = events
    .filter((e) => e.type === "tool_executing" || e.type === "tool_completed")
    .map((e) => (e.type === "tool_executing" ? "start" : "end"));
  if (lifecycle.join() !== "start,start,start,end,end,end")
    failures.push(`reads did not overlap: ${lifecycle.join()}`);
  const names = toolCalls.map((c) => c.output.match(/name = "(\w+)"/)?.[1]);
  if (names.join() !== "api,db,ui") failures.push(`results came back as ${names.join()}`);
  return failures;
}
