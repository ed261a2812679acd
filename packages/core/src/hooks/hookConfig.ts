import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { type HookEvent, hookEvents, isHookEvent } from "./hookEvents.js";
import { compileMatcher, type HookMatcher } from "./hookMatcher.js";

const commandHookSchema = z.object({
  type: z.literal("command"),
  command: z.string().trim().min(1, "command must not be empty"),
  /** Seconds, as in Claude Code. */
  timeout: z.number().positive().optional(),
});

/**
 * Any hook entry; command entries are checked against `commandHookSchema` afterwards, because Claude
 * Code also has `http`, `prompt`, `agent`… hooks, which are reported and skipped rather than fatal.
 */
const hookEntrySchema = z.looseObject({ type: z.string() });

const matcherGroupSchema = z.object({
  matcher: z.string().optional(),
  hooks: z.array(hookEntrySchema),
});

export const hooksFileSchema = z.object({
  hooks: z.record(z.string(), z.array(matcherGroupSchema)),
});

export type HooksFile = z.infer<typeof hooksFileSchema>;

/** One command hook, flattened out of its file with what is needed to select and run it. */
export interface ConfiguredHook {
  event: HookEvent;
  /** The matcher as written, for messages. */
  matcher: string | undefined;
  matches: HookMatcher;
  command: string;
  timeoutSeconds: number | undefined;
  /** The file it came from. */
  source: string;
}

/** A file, or a part of one, that was left out; the session goes on without it. */
export interface HookConfigError {
  file: string;
  message: string;
}

export interface LoadedHooks {
  hooks: ConfiguredHook[];
  errors: HookConfigError[];
}

/**
 * Validates one hooks file's JSON. A structural error rejects the whole file (a half-understood
 * guard is worse than none, and the message says so); events and hook types Lathe does not know,
 * which a file shared with Claude Code may well contain, are skipped and reported.
 */
export function parseHooksConfig(json: unknown, file: string): LoadedHooks {
  const parsed = hooksFileSchema.safeParse(json);
  if (!parsed.success) {
    return { hooks: [], errors: [{ file, message: `invalid hooks file: ${z.prettifyError(parsed.error)}` }] };
  }
  // Collected first and returned only if the whole file is sound.
  const hooks: ConfiguredHook[] = [];
  const errors: HookConfigError[] = [];
  const invalid = (message: string): LoadedHooks => ({
    hooks: [],
    errors: [{ file, message: `invalid hooks file: ${message}` }],
  });
  for (const [event, groups] of Object.entries(parsed.data.hooks)) {
    if (!isHookEvent(event)) {
      errors.push({
        file,
        message: `unknown hook event "${event}" ignored (known: ${hookEvents.join(", ")})`,
      });
      continue;
    }
    for (const [groupIndex, group] of groups.entries()) {
      let matches: HookMatcher;
      try {
        matches = compileMatcher(group.matcher);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return invalid(`${event} matcher "${group.matcher}" is not a valid regular expression (${reason})`);
      }
      for (const [hookIndex, entry] of group.hooks.entries()) {
        const where = `hooks.${event}[${groupIndex}].hooks[${hookIndex}]`;
        if (entry.type !== "command") {
          errors.push({
            file,
            message: `${where} of type "${entry.type}" ignored: only "command" hooks run`,
          });
          continue;
        }
        const hook = commandHookSchema.safeParse(entry);
        if (!hook.success) return invalid(`${where}: ${z.prettifyError(hook.error)}`);
        hooks.push({
          event,
          matcher: group.matcher,
          matches,
          command: hook.data.command,
          timeoutSeconds: hook.data.timeout,
          source: file,
        });
      }
    }
  }
  return { hooks, errors };
}

/** Reads one hooks file; a missing file is simply no hooks. */
export function loadHooksFile(file: string): LoadedHooks {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { hooks: [], errors: [] };
    const reason = error instanceof Error ? error.message : String(error);
    return { hooks: [], errors: [{ file, message: `cannot read hooks file: ${reason}` }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { hooks: [], errors: [{ file, message: `invalid hooks file: not JSON (${reason})` }] };
  }
  return parseHooksConfig(json, file);
}

/**
 * The user's hooks (`$LATHE_HOME/hooks.json`) then the project's (`.lathe/hooks.json`). Both apply:
 * hooks add up rather than override, as in Claude Code. The project's file runs commands, so it
 * is read only when the folder is trusted (`projectTrusted`, decided by the face from the trust
 * record; absent means the caller has already decided for it).
 */
export function loadHooks(options: {
  projectRoot: string;
  latheHome: string;
  projectTrusted?: boolean;
}): LoadedHooks {
  const files = [path.join(options.latheHome, "hooks.json")];
  if (options.projectTrusted !== false) files.push(path.join(options.projectRoot, ".lathe", "hooks.json"));
  const loaded: LoadedHooks = { hooks: [], errors: [] };
  for (const file of files) {
    const one = loadHooksFile(file);
    loaded.hooks.push(...one.hooks);
    loaded.errors.push(...one.errors);
  }
  return loaded;
}
