/** Lines of a diff shown in an approval; the rest is counted, not shown. */
const shownLines = 20;

/**
 * What an approval shows under its question: the exact command, or the change as removed and
 * added lines, so the user judges the call itself rather than its arguments as JSON.
 */
export function approvalDetail(args: unknown): string {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : undefined);
  const command = text("command");
  if (command !== undefined) return `$ ${command}`;
  const contents = text("contents");
  if (contents !== undefined) return marked("+", contents);
  const oldText = text("old_string");
  const newText = text("new_string");
  if (oldText !== undefined && newText !== undefined)
    return [oldText === "" ? "" : marked("-", oldText), marked("+", newText)].filter(Boolean).join("\n");
  if (Array.isArray(fields.edits))
    return fields.edits
      .map((edit: { old_string?: unknown; new_string?: unknown }) =>
        [marked("-", String(edit.old_string ?? "")), marked("+", String(edit.new_string ?? ""))].join("\n"),
      )
      .join("\n…\n");
  const patch = text("patch");
  if (patch !== undefined) return cut(patch.split("\n"));
  const json = JSON.stringify(args);
  return json.length > 300 ? `${json.slice(0, 299)}…` : json;
}

function marked(sign: "+" | "-", text: string): string {
  const lines = text.replace(/\n$/, "").split("\n");
  return cut(lines.map((line) => `${sign} ${line}`));
}

function cut(lines: string[]): string {
  if (lines.length <= shownLines) return lines.join("\n");
  return [...lines.slice(0, shownLines), `… ${lines.length - shownLines} more lines`].join("\n");
}

/** The file, command or address a call is about, for the lines that name it; "" when none. */
export function callTarget(args: unknown): string {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const target = fields.path ?? fields.command ?? fields.url ?? fields.pattern;
  return typeof target === "string" ? target : "";
}
