// E13: the rejected install never runs and the model is told E_USER_REJECTED; its next approach
// (an edit) is accepted and lands.
export default function verify({ exists, read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const install = toolCalls[0];
  if (install?.status !== "rejected" || !install.output.includes("E_USER_REJECTED"))
    failures.push("the install was not rejected");
  if (exists("node_modules")) failures.push("the rejected install ran");
  const expected =
    'export function pad(s: string, n: number): string {\n  return s.length >= n ? s : " ".repeat(n - s.length) + s;\n}\n';
  if (read("src/pad.ts") !== expected) failures.push("src/pad.ts is not exactly the expected text");
  return failures;
}
