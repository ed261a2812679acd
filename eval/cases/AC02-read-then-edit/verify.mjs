// AC-02: read first, then an edit_file that inserts exactly one comment line.
export default function verify({ read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const expected =
    "import React from 'react';\n\n// The root component of the application.\nexport default function App() {\n  return <h1>Hi</h1>;\n}\n";
  if (read("src/App.jsx") !== expected) failures.push("src/App.jsx is not exactly the expected text");
  if (toolCalls.map((c) => c.name).join() !== "read_file,edit_file")
    failures.push("expected read_file then edit_file");
  return failures;
}
