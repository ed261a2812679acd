// E03: the model quoted the function with two-space indentation; the file uses four. The edit
// must still land on the one scale() definition, re-indented to the file's style.
export default function verify({ read, result, toolCalls }) {
  const expected =
    'import math\n\n\ndef area(radius):\n    return math.pi * radius ** 2\n\n\ndef scale(value, factor=2.0):\n    """Scale a value by factor."""\n    return value * factor\n\n\ndef describe(value):\n    return f"scaled: {scale(value)}"\n';
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (read("src/geometry.py") !== expected) failures.push("src/geometry.py is not exactly the expected text");
  const edit = toolCalls.find((call) => call.name === "edit_file");
  if (edit?.status !== "success") failures.push(`edit_file ended ${edit?.status}`);
  return failures;
}
