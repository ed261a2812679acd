// E06: the search finds the project's three TODOs and leaves out node_modules and ignored build output.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const search = toolCalls.find((call) => call.name === "search_files");
  if (search?.status !== "success") return [...failures, "search_files did not succeed"];
  for (const hit of ["NOTES.md:3:", "src/lib/runner.py:2:", "src/parse.js:2:"]) {
    if (!search.output.includes(hit)) failures.push(`search output lacks ${hit}`);
  }
  for (const ignored of ["node_modules", "build/out.js", "done.js"]) {
    if (search.output.includes(ignored)) failures.push(`search output includes ${ignored}`);
  }
  return failures;
}
