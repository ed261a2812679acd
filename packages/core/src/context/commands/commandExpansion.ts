import type { CustomCommand } from "./customCommands.js";

const commandLine = /^\/([A-Za-z0-9][\w.-]*)(?:\s+([\s\S]*))?$/;

/**
 * `/name args` with `name` a custom command: its template with `$ARGUMENTS` replaced by the
 * arguments and `$1`…`$9` by their words. A template that names no argument gets them after its
 * text. Undefined when the text is not one of these commands (it may be another face's).
 */
export function expandCustomCommand(commands: readonly CustomCommand[], text: string): string | undefined {
  const match = commandLine.exec(text.trim());
  if (match === null) return undefined;
  const command = commands.find((candidate) => candidate.name === match[1]);
  if (command === undefined) return undefined;
  const args = (match[2] ?? "").trim();
  const words = args === "" ? [] : args.split(/\s+/);
  const usesArguments = /\$ARGUMENTS|\$[1-9]/.test(command.template);
  if (!usesArguments) return args === "" ? command.template : `${command.template}\n\n${args}`;
  // One pass, so an argument that itself holds `$1` stays as typed.
  return command.template.replace(/\$ARGUMENTS|\$([1-9])/g, (_whole, index: string | undefined) =>
    index === undefined ? args : (words[Number(index) - 1] ?? ""),
  );
}
