// E12: the read runs without asking; the edit asks once, and runs after the accept.
export default function verify({ events, read, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const asked = events.filter((e) => e.type === "approval_required").map((e) => e.name);
  if (asked.join() !== "edit_file") failures.push(`approvals asked for: ${asked.join() || "nothing"}`);
  if (read("version.ts") !== 'export const VERSION = "1.1.0";\n') failures.push("version.ts was not edited");
  return failures;
}
