import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parseFrontMatter } from "../rules/frontMatter.js";

/** A slash command the user wrote: `/name args` sends its text with the arguments filled in. */
export interface CustomCommand {
  name: string;
  description: string;
  /** What the arguments are, for completion menus (`argument-hint:`). */
  argumentHint?: string;
  /** The prompt text, `$ARGUMENTS` and `$1`… standing for the arguments. */
  template: string;
  /** Where it came from, for messages: `.lathe/commands/x.md` or the user's folder. */
  source: string;
}

export interface LoadedCommands {
  commands: CustomCommand[];
  errors: { file: string; message: string }[];
}

const namePattern = /^[A-Za-z0-9][\w.-]{0,63}$/;

/**
 * The custom commands: `$LATHE_HOME/commands/*.md`, then, in a trusted folder, the project's
 * `.lathe/commands/*.md`, which replace the user's of the same name. Front matter (optional):
 * `description`, `argument-hint`; the body is the template. A bad file is reported and skipped.
 */
export async function loadCustomCommands(options: {
  projectRoot: string;
  latheHome: string;
  /** False in a folder that is not trusted: the project's commands wait for its trust. */
  projectCommands: boolean;
}): Promise<LoadedCommands> {
  const folders = [
    { dir: path.join(options.latheHome, "commands"), shown: path.join(options.latheHome, "commands") },
    ...(options.projectCommands
      ? [
          {
            dir: path.join(options.projectRoot, ".lathe", "commands"),
            shown: path.join(".lathe", "commands"),
          },
        ]
      : []),
  ];
  const commands = new Map<string, CustomCommand>();
  const errors: LoadedCommands["errors"] = [];
  for (const folder of folders) {
    const names = await readdir(folder.dir).catch(() => [] as string[]);
    for (const file of names.filter((name) => name.endsWith(".md")).sort()) {
      const source = path.join(folder.shown, file);
      const loaded = parseCommand(
        file.slice(0, -".md".length),
        await readFile(path.join(folder.dir, file), "utf8"),
      );
      if (loaded.ok) commands.set(loaded.command.name, { ...loaded.command, source });
      else errors.push({ file: source, message: loaded.message });
    }
  }
  return { commands: [...commands.values()], errors };
}

function parseCommand(
  name: string,
  text: string,
): { ok: true; command: Omit<CustomCommand, "source"> } | { ok: false; message: string } {
  if (!namePattern.test(name))
    return {
      ok: false,
      message: `command name "${name}" must be letters, digits, dots, dashes and underscores`,
    };
  const parsed = parseFrontMatter(text);
  if (!parsed.ok) return parsed;
  const template = parsed.body.trim();
  if (template === "") return { ok: false, message: "the command has no text" };
  const { description, "argument-hint": hint } = parsed.data;
  return {
    ok: true,
    command: {
      name,
      // Without a description, the first line says what the command does.
      description: typeof description === "string" && description !== "" ? description : firstLine(template),
      argumentHint: typeof hint === "string" && hint !== "" ? hint : undefined,
      template,
    },
  };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
