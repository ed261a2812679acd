// E09: the first build fails on the config, the fix is the trailing comma, the second build works.
export default function verify({ read, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  const builds = toolCalls.filter((call) => call.name === "run_terminal_cmd").map((call) => call.output);
  if (!/Exit code: [1-9]/.test(builds[0] ?? "") || !/JSON/.test(builds[0] ?? ""))
    failures.push("the first build did not fail on the JSON");
  if (!/Exit code: 0/.test(builds[1] ?? "")) failures.push("the second build did not succeed");
  if (read("src/config.json") !== '{\n  "title": "Docs",\n  "pages": ["intro", "guide"]\n}\n')
    failures.push("src/config.json is not the fixed text");
  if (read("dist/site.txt") !== "Docs — intro, guide\n")
    failures.push("dist/site.txt is not what the build writes");
  return failures;
}
