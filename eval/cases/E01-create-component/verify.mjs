// E01: src/Button.jsx exists with the component, and App.jsx is untouched.
export default function verify({ read, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const expected =
    'export default function Button({ label, onClick }) {\n  return (\n    <button type="button" onClick={onClick}>\n      {label}\n    </button>\n  );\n}\n';
  if (read("src/Button.jsx") !== expected)
    failures.push("src/Button.jsx is not exactly the expected component");
  if (read("src/App.jsx") !== "export default function App() {\n  return <main>Hello</main>;\n}\n")
    failures.push("src/App.jsx changed");
  return failures;
}
