import { errorInfo, LatheError, type LatheErrorInfo } from "@lathe/protocol";
import type { McpHub } from "./mcpHub.js";
import type { McpServerStatus } from "./mcpServerStatus.js";
import { mcpPromptCommand } from "./toolNames.js";

export type PromptExpansion = { ok: true; text: string } | { ok: false; error: LatheErrorInfo };

type ServerPrompt = McpServerStatus["prompts"][number];

const commandPattern = /^\/(mcp__[A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/;

/**
 * `/mcp__<server>__<prompt> args`: the prompt filled in by its server, as the text of the user's
 * message. Arguments are `name=value` pairs, or words in the prompt's argument order (a prompt with
 * one argument takes the whole rest of the line). Undefined when the text is no such command.
 */
export async function expandPromptCommand(
  hub: McpHub,
  text: string,
  signal: AbortSignal,
): Promise<PromptExpansion | undefined> {
  const match = commandPattern.exec(text.trim());
  if (match === null) return undefined;
  const command = match[1] ?? "";
  const servers = hub.status();
  const found = findPrompt(servers, command);
  if (found === undefined) return { ok: false, error: unknownCommand(command, servers) };
  const args = promptArguments(found.prompt, match[2] ?? "");
  if (!args.ok) return { ok: false, error: errorInfo("E_INVALID_ARGS", `/${command}: ${args.message}`) };
  try {
    const filled = await hub.getPrompt(found.server, found.prompt.name, args.values, signal);
    const texts = filled.messages.map((message) =>
      message.role === "user" ? message.text : `Assistant: ${message.text}`,
    );
    return { ok: true, text: texts.join("\n\n") };
  } catch (error) {
    if (error instanceof LatheError) return { ok: false, error: error.toInfo() };
    throw error;
  }
}

function findPrompt(
  servers: readonly McpServerStatus[],
  command: string,
): { server: string; prompt: ServerPrompt } | undefined {
  for (const server of servers) {
    const prompt = server.prompts.find(
      (candidate) => mcpPromptCommand(server.name, candidate.name) === command,
    );
    if (prompt !== undefined) return { server: server.name, prompt };
  }
  return undefined;
}

function unknownCommand(command: string, servers: readonly McpServerStatus[]): LatheErrorInfo {
  const known = servers.flatMap((server) =>
    server.prompts.map((prompt) => `/${mcpPromptCommand(server.name, prompt.name)}`),
  );
  const waiting = servers.filter((server) => server.state !== "running").map((s) => `${s.name} (${s.state})`);
  const parts = [
    `No MCP prompt is named /${command}.`,
    known.length > 0 ? `Prompts: ${known.join(", ")}.` : "No running MCP server offers prompts.",
    ...(waiting.length > 0 ? [`Not running: ${waiting.join(", ")}.`] : []),
  ];
  return errorInfo("E_MCP_PROMPT_NOT_FOUND", parts.join(" "));
}

function promptArguments(
  prompt: ServerPrompt,
  rest: string,
): { ok: true; values: Record<string, string> } | { ok: false; message: string } {
  const names = prompt.arguments.map((argument) => argument.name);
  const words = splitWords(rest);
  const values: Record<string, string> = {};
  const named =
    words.length > 0 && words.every((word) => names.includes(word.split("=")[0] ?? "") && word.includes("="));
  if (named) {
    for (const word of words) {
      const equals = word.indexOf("=");
      values[word.slice(0, equals)] = word.slice(equals + 1);
    }
  } else if (names.length === 1 && rest.trim() !== "") {
    values[names[0] ?? ""] = rest.trim();
  } else {
    if (words.length > names.length) {
      return {
        ok: false,
        message: `takes ${names.length} argument(s), got ${words.length}. ${usage(prompt)}`,
      };
    }
    for (const [index, word] of words.entries()) values[names[index] ?? ""] = word;
  }
  const missing = prompt.arguments.filter(
    (argument) => argument.required && values[argument.name] === undefined,
  );
  if (missing.length > 0) {
    return {
      ok: false,
      message: `missing ${missing.map((argument) => argument.name).join(", ")}. ${usage(prompt)}`,
    };
  }
  return { ok: true, values };
}

function usage(prompt: ServerPrompt): string {
  const shape = prompt.arguments.map((argument) =>
    argument.required ? argument.name : `[${argument.name}]`,
  );
  return `Arguments: ${shape.join(" ") || "none"} (or name=value).`;
}

/** Words split at spaces; a quoted word (or value) may hold spaces. */
function splitWords(text: string): string[] {
  const words: string[] = [];
  // `name="a b"` is one word, its quotes dropped.
  for (const match of text.matchAll(/([^\s="']+=)?(?:"([^"]*)"|'([^']*)')|(\S+)/g)) {
    words.push(match[4] ?? `${match[1] ?? ""}${match[2] ?? match[3] ?? ""}`);
  }
  return words;
}
