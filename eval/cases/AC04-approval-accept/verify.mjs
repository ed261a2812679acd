// AC-04: the write asks first; once accepted it runs.
export default function verify({ read, result, events }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (events.filter((e) => e.type === "approval_required").length !== 1)
    failures.push("expected exactly one approval request");
  if (read("TODO.md") !== "- ship it\n") failures.push("TODO.md was not written after the approval");
  return failures;
}
