/** Arguments that name what a call was about, in the order they are looked for. */
const subjectKeys = ["path", "file_path", "target_file", "command", "pattern", "query", "url", "glob"];
const maxSubjectChars = 80;

/** "read_file src/a.ts", "run_terminal_cmd npm test", or the name with its arguments in short. */
export function describeCall(name: string, args: unknown): string {
  if (typeof args !== "object" || args === null) return name;
  const record = args as Record<string, unknown>;
  for (const key of subjectKeys) {
    const value = record[key];
    if (typeof value === "string" && value !== "") return `${name} ${shorten(value)}`;
  }
  const json = JSON.stringify(args);
  return json === "{}" || json === "[]" ? name : `${name} ${shorten(json)}`;
}

/** The one line that stands in for a pruned tool output: what was cut and how to get it back. */
export function prunedNote(name: string, args: unknown, tokens: number): string {
  return `[output of ${describeCall(name, args)} cut to save context (${tokens.toLocaleString("en-US")} tokens); call the tool again if you need it]`;
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= maxSubjectChars ? line : `${line.slice(0, maxSubjectChars - 1)}…`;
}
