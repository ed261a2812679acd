// E05: npm installed the package: it is in node_modules and in package.json's dependencies.
export default function verify({ read, exists, result, toolCalls }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  if (!exists("node_modules/pad-lite/index.js")) failures.push("node_modules/pad-lite is missing");
  const manifest = JSON.parse(read("package.json") ?? "{}");
  if (!manifest.dependencies?.["pad-lite"]) failures.push("package.json does not list pad-lite");
  if (!(toolCalls[1]?.output ?? "").includes("  ok")) failures.push("the installed package did not load");
  return failures;
}
