// E08: the wrong path fails with E_FILE_NOT_FOUND, the search finds the real file, and it is read.
export default function verify({ result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const [wrong, search, right] = toolCalls;
  if (!wrong?.output.includes("E_FILE_NOT_FOUND"))
    failures.push("the wrong path did not fail with E_FILE_NOT_FOUND");
  if (search?.status !== "success" || !search.output.includes("src/lib/format.js"))
    failures.push("glob_search did not find src/lib/format.js");
  if (right?.status !== "success" || !right.output.includes("toFixed(2)"))
    failures.push("the right file was not read");
  return failures;
}
