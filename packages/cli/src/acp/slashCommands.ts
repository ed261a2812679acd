import type * as acp from "@agentclientprotocol/sdk";
import type { AgentSession } from "@lathe/core";

/** Lathe's own commands, which every face has; custom ones come from the user's and project's files. */
const builtinCommands: acp.AvailableCommand[] = [
  {
    name: "compact",
    description: "Shorten what is sent from now on; the stored conversation stays whole.",
    input: { hint: "what to keep in focus (optional)" },
  },
];

/** The slash commands an editor offers in its prompt box: Lathe's own, then the custom ones. */
export function availableCommands(session: AgentSession): acp.AvailableCommand[] {
  return [
    ...builtinCommands,
    ...session.commands.map((command) => ({
      name: command.name,
      description: command.description,
      ...(command.argumentHint ? { input: { hint: command.argumentHint } } : {}),
    })),
  ];
}

/** `/compact [focus]`, which Lathe runs itself rather than sending; undefined for any other text. */
export function compactCommand(text: string): { focus?: string } | undefined {
  const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (match === null) return undefined;
  const focus = match[1]?.trim();
  return focus ? { focus } : {};
}
