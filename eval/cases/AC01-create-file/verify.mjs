// AC-01: a new file with exactly the requested program.
export default function verify({ read, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (read("hello.js") !== 'console.log("Hello");\n')
    failures.push("hello.js is not exactly the expected program");
  return failures;
}
