// E16: the first request carries the open file as the editor has it (unsaved 8080, not 3000 on disk).
export default function verify({ requests, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const first = JSON.stringify(requests[0] ?? {});
  if (!first.includes("<open_file")) failures.push("the first request has no open_file section");
  if (!first.includes("DEFAULT_PORT = 8080")) failures.push("the editor's unsaved text was not sent");
  if (first.includes("DEFAULT_PORT = 3000")) failures.push("the stale text on disk was sent");
  return failures;
}
