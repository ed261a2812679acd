// AC-06: a mismatched old_string fails with a useful error (no wrong edit); the retry applies.
export default function verify({ read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const expected =
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected file holds a template literal.
    'function greet(name) {\n  const greeting = "Hi";\n  return `${greeting}, ${name}!`;\n}\n\nmodule.exports = { greet };\n';
  if (read("greet.js") !== expected) failures.push("greet.js is not exactly the expected text");
  const edits = toolCalls.filter((c) => c.name === "edit_file");
  if (edits.map((e) => e.status).join() !== "error,success")
    failures.push("expected a failed edit, then a successful one");
  if (!edits[0]?.output.includes("E_NOT_FOUND")) failures.push("the failed edit did not say E_NOT_FOUND");
  if (!edits[0]?.output.includes('const greeting = "Hello";'))
    failures.push("the error did not show the closest region");
  return failures;
}
