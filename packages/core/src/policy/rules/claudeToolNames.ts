/**
 * Claude Code's tool names, understood in permission rules as the Lathe tools that do the same
 * thing, so that rules written for Claude Code (`Bash(npm test:*)`, `Read`, `Edit(src/**)`, as
 * the Claude Agent SDK passes them in `--allowedTools`) work as they are; the specifiers already
 * read alike (`npm test:*` is Lathe's `npm test *`).
 */
const lathesTool: Readonly<Record<string, string>> = {
  Bash: "run_terminal_cmd",
  Read: "read_file",
  Edit: "edit_file",
  MultiEdit: "multi_edit",
  Write: "write_file",
  Glob: "glob_search",
  Grep: "search_files",
  LS: "list_directory",
  WebFetch: "web_fetch",
  WebSearch: "web_search",
  TodoWrite: "todo_write",
  Task: "task",
  BashOutput: "terminal_output",
  KillShell: "terminal_kill",
};

/** The Lathe tool a Claude Code tool name stands for; any other name as it is. */
export function latheToolName(tool: string): string {
  return Object.hasOwn(lathesTool, tool) ? lathesTool[tool]! : tool;
}
