/** What a line starting with `/` asks of the terminal UI. */
export type SlashCommand =
  | { kind: "help" }
  | { kind: "exit" }
  | { kind: "compact"; focus?: string }
  | { kind: "mode"; value?: string }
  | { kind: "approval"; value?: string }
  | { kind: "model"; value?: string }
  | { kind: "cost" }
  | { kind: "undo" }
  | { kind: "checkpoints" }
  | { kind: "sessions" }
  | { kind: "resume"; value?: string }
  | { kind: "clear" }
  | { kind: "mcp" }
  | { kind: "trust" }
  /** `lathe cloud`'s commands, with their arguments as typed. */
  | { kind: "cloud"; args: string }
  /** A custom command or an MCP prompt: the session fills it in. */
  | { kind: "send" }
  | { kind: "unknown"; name: string };

/** The commands of the terminal UI, for `/help`. */
export const commandHelp: readonly [command: string, what: string][] = [
  ["/help", "this list"],
  ["/model [PROVIDER:MODEL]", "the model, or switch to another from the next request on"],
  ["/mode [agent|ask|plan|debug]", "the mode, or switch (Shift+Tab cycles)"],
  ["/approval [manual|ask_first|auto_edit|auto|yolo]", "the approval mode, or switch (Ctrl+Y cycles)"],
  ["/compact [focus]", "shorten what is sent from now on; the stored conversation stays whole"],
  ["/undo", "take back your last message: the files and the conversation as they were before it"],
  ["/checkpoints", "the checkpoints of this session"],
  ["/sessions", "this project's sessions"],
  ["/resume [ID]", "go on with another session of this project"],
  ["/clear", "start a new session"],
  ["/mcp", "the MCP servers, their state and tools"],
  ["/trust", "trust this folder's hooks, MCP servers, rules and agents, and restart the session with them"],
  [
    "/cloud [list|submit TASK|watch ID|…]",
    "tasks on the worker fleet, as lathe cloud runs them (Esc stops a watch)",
  ],
  ["/cost", "tokens and cost of this session"],
  ["/exit", "quit (Ctrl+D, or Ctrl+C twice, too)"],
];

const builtin: Record<string, (rest: string) => SlashCommand> = {
  help: () => ({ kind: "help" }),
  exit: () => ({ kind: "exit" }),
  quit: () => ({ kind: "exit" }),
  compact: (rest) => (rest ? { kind: "compact", focus: rest } : { kind: "compact" }),
  mode: (rest) => (rest ? { kind: "mode", value: rest } : { kind: "mode" }),
  approval: (rest) => (rest ? { kind: "approval", value: rest } : { kind: "approval" }),
  model: (rest) => (rest ? { kind: "model", value: rest } : { kind: "model" }),
  cost: () => ({ kind: "cost" }),
  undo: () => ({ kind: "undo" }),
  checkpoints: () => ({ kind: "checkpoints" }),
  sessions: () => ({ kind: "sessions" }),
  resume: (rest) => (rest ? { kind: "resume", value: rest } : { kind: "resume" }),
  clear: () => ({ kind: "clear" }),
  mcp: () => ({ kind: "mcp" }),
  trust: () => ({ kind: "trust" }),
  cloud: (rest) => ({ kind: "cloud", args: rest }),
};

/** Every command name the input completes: the terminal UI's own, then the user's. */
export function commandNames(customCommands: readonly string[]): string[] {
  return [...Object.keys(builtin).filter((name) => name !== "quit"), ...customCommands];
}

/**
 * Tab on a line that is a command's beginning: the line completed as far as the names that fit
 * agree, and those names (for a hint when more than one fits). Other lines are left alone.
 */
export function completeCommand(line: string, names: readonly string[]): { line: string; fits: string[] } {
  const typed = /^\/([\w.-]*)$/.exec(line);
  if (typed === null) return { line, fits: [] };
  const prefix = typed[1] ?? "";
  const fits = names.filter((name) => name.startsWith(prefix));
  if (fits.length === 1) return { line: `/${fits[0]} `, fits };
  if (fits.length === 0) return { line, fits };
  let common = fits[0] ?? "";
  for (const name of fits) while (!name.startsWith(common)) common = common.slice(0, -1);
  return { line: `/${common}`, fits };
}

/**
 * The command a typed line is, or undefined for a plain message. The user's custom commands and
 * MCP prompts (`/mcp__server__prompt`) go to the session, which fills them in; any other `/word`
 * is unknown and never reaches the model.
 */
export function parseSlashCommand(line: string, customCommands: readonly string[]): SlashCommand | undefined {
  const match = /^\/([\w.-]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (match === null) return undefined;
  const name = match[1] ?? "";
  const rest = (match[2] ?? "").trim();
  const own = builtin[name];
  if (own) return own(rest);
  if (customCommands.includes(name) || name.startsWith("mcp__")) return { kind: "send" };
  return { kind: "unknown", name };
}
