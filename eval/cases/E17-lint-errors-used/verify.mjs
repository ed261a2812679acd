// E17: the diagnostics reach the model with the open file, and the fix is the one the error asks for.
export default function verify({ requests, read, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const first = JSON.stringify(requests[0] ?? {});
  if (!first.includes("<linter_errors")) failures.push("the first request has no linter_errors section");
  if (!first.includes("Type 'string' is not assignable to type 'number'."))
    failures.push("the diagnostic was not sent");
  const expected = `export function parsePercent(text: string): number {
  const value = Number.parseFloat(text);
  if (Number.isNaN(value)) return 0;
  return value / 100;
}
`;
  if (read("src/math.ts") !== expected) failures.push("src/math.ts is not exactly the fixed text");
  return failures;
}
