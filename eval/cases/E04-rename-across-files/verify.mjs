// E04: every userName variable and parameter is displayName now; defaultUserName is untouched.
export default function verify({ read, result }) {
  const failures = [];
  if (result.status !== "completed") failures.push(`run ended ${result.status}`);
  for (const path of ["src/user.js", "src/profile.js", "src/cli.js"]) {
    const text = read(path) ?? "";
    if (/\buserName\b/.test(text)) failures.push(`${path} still says userName`);
    if (!text.includes("displayName")) failures.push(`${path} has no displayName`);
  }
  if (!(read("src/user.js") ?? "").includes('export const defaultUserName = "guest";'))
    failures.push("defaultUserName was changed");
  return failures;
}
