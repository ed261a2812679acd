import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { exitCodes } from "./exitCodes.js";
import { projectRootFrom } from "./projectRoot.js";

/** What a `lathe <subcommand>` gets from the process. */
export interface CommandIo {
  /** The arguments after the subcommand's name. */
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Stops a command that runs until it is stopped (`cloud watch`) when the face that runs it says
   * so (the terminal UI's Esc); without it, the process's SIGINT and SIGTERM do.
   */
  signal?: AbortSignal;
}

/** Flags every storage subcommand takes. */
const commonOptions = {
  cwd: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsOptionsConfig;

type Config<O extends ParseArgsOptionsConfig> = {
  args: string[];
  allowPositionals: true;
  strict: true;
  options: O & typeof commonOptions;
};

export type SubcommandArgs<O extends ParseArgsOptionsConfig> =
  | {
      ok: true;
      values: ReturnType<typeof parseArgs<Config<O>>>["values"];
      positionals: string[];
      /** The project named by --cwd (or the current directory), resolved. */
      projectRoot: string;
      /** Prints the problem and the usage; returns the misuse exit code. */
      misuse(message: string): number;
    }
  | { ok: false; code: number };

/**
 * Parses a subcommand's flags: `--help` prints the usage, a bad flag or project directory is
 * reported with it, and either way the caller gets the exit code to return.
 */
export function parseSubcommand<O extends ParseArgsOptionsConfig>(
  io: CommandIo,
  name: string,
  usage: string,
  options: O,
): SubcommandArgs<O> {
  const misuse = (message: string) => {
    io.stderr(`lathe ${name}: ${message}\n\n${usage}`);
    return exitCodes.usage;
  };
  let parsed: ReturnType<typeof parseArgs<Config<O>>>;
  try {
    parsed = parseArgs<Config<O>>({
      args: io.argv,
      allowPositionals: true,
      strict: true,
      options: { ...options, ...commonOptions },
    });
  } catch (error) {
    return { ok: false, code: misuse(error instanceof Error ? error.message : String(error)) };
  }
  // The shared flags, whatever the subcommand added to them.
  const shared = parsed.values as { help?: boolean; cwd?: string };
  if (shared.help) {
    io.stdout(usage);
    return { ok: false, code: exitCodes.completed };
  }
  const projectRoot = projectRootFrom(shared.cwd ?? io.cwd);
  if (!projectRoot.ok) return { ok: false, code: misuse(projectRoot.error.message) };
  return {
    ok: true,
    values: parsed.values,
    positionals: parsed.positionals,
    projectRoot: projectRoot.path,
    misuse,
  };
}
