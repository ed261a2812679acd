/**
 * One-line summaries of tool calls, the same in every face: the web UI's collapsed cards, the
 * terminal UI's lines ("Editing src/a.ts (replacing ~12 lines)").
 */

type Args = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export function lineCount(value: string): number {
  if (value === "") return 0;
  return value.split("\n").length - (value.endsWith("\n") ? 1 : 0);
}

/** The files an apply_patch envelope names, in order. */
function patchedPaths(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((match) => match[1]!.trim());
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** The value on one line, cut with an ellipsis past `max` characters. */
export const shorten = (value: string, max = 80) => {
  const oneLine = value.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
};

const summarizers: Record<string, (args: Args) => string | undefined> = {
  edit_file(args) {
    const path = text(args.path);
    const old = text(args.old_string);
    if (!path || old === undefined) return undefined;
    if (old === "") return `Creating ${path} (${plural(lineCount(text(args.new_string) ?? ""), "line")})`;
    return `Editing ${path} (replacing ~${plural(lineCount(old), "line")}${args.replace_all ? ", every occurrence" : ""})`;
  },
  multi_edit(args) {
    const path = text(args.path);
    const edits = Array.isArray(args.edits) ? args.edits.length : 0;
    return path ? `Editing ${path} (${plural(edits, "edit")})` : undefined;
  },
  write_file(args) {
    const path = text(args.path);
    return path ? `Writing ${path} (${plural(lineCount(text(args.contents) ?? ""), "line")})` : undefined;
  },
  apply_patch(args) {
    const paths = patchedPaths(text(args.patch) ?? "");
    if (paths.length === 1) return `Patching ${paths[0]}`;
    return `Patching ${plural(paths.length, "file")}`;
  },
  delete_file: (args) => (text(args.path) ? `Deleting ${text(args.path)}` : undefined),
  read_file(args) {
    const path = text(args.path);
    if (!path) return undefined;
    const offset = typeof args.offset === "number" ? args.offset : undefined;
    const limit = typeof args.limit === "number" ? args.limit : undefined;
    if (offset === undefined && limit === undefined) return `Reading ${path}`;
    const from = offset ?? 1;
    return `Reading ${path} (lines ${from}–${limit === undefined ? "end" : from + limit - 1})`;
  },
  list_directory: (args) => `Listing ${text(args.path) ?? "the project"}`,
  search_files: (args) =>
    text(args.pattern)
      ? `Searching for /${shorten(text(args.pattern)!, 50)}/ in ${text(args.path) ?? "the project"}`
      : undefined,
  glob_search: (args) => (text(args.pattern) ? `Finding files matching ${text(args.pattern)}` : undefined),
  codebase_search: (args) =>
    text(args.query) ? `Searching the codebase for “${shorten(text(args.query)!, 60)}”` : undefined,
  run_terminal_cmd: (args) => (text(args.command) ? `Running ${shorten(text(args.command)!)}` : undefined),
  terminal_output: () => "Reading terminal output",
  terminal_kill: () => "Stopping a background command",
  read_lints: () => "Checking lints",
  web_search: (args) =>
    text(args.query) ? `Searching the web for “${shorten(text(args.query)!, 60)}”` : undefined,
  web_fetch: (args) => (text(args.url) ? `Fetching ${shorten(text(args.url)!)}` : undefined),
  browser_use: (args) =>
    `Browser: ${text(args.action) ?? "acting"}${text(args.url) ? ` ${shorten(text(args.url)!, 60)}` : ""}`,
  generate_image: (args) =>
    text(args.prompt) ? `Generating an image: ${shorten(text(args.prompt)!, 60)}` : undefined,
  task: (args) =>
    `Sub-agent${text(args.agent) ? ` (${text(args.agent)})` : ""}: ${shorten(text(args.description) ?? "working", 60)}`,
  todo_write: (args) =>
    `Updating the plan (${plural(Array.isArray(args.todos) ? args.todos.length : 0, "item")})`,
  ask_user: (args) =>
    `Asking you ${plural(Array.isArray(args.questions) ? args.questions.length : 1, "question")}`,
  update_memory: (args) => (text(args.action) === "delete" ? "Forgetting a memory" : "Updating memories"),
  fetch_rules: () => "Reading project rules",
};

/** The collapsed card's line; the tool name when the arguments are not (yet) readable. */
export function summarizeToolCall(name: string, args: unknown): string {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  if (mcp) return `${mcp[1]}: ${mcp[2]}`;
  const summarize = summarizers[name];
  if (!summarize || typeof args !== "object" || args === null) return name;
  return summarize(args as Args) ?? name;
}
