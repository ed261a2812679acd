import path from "node:path";
import type { EventOf } from "@lathe/protocol";

/**
 * Where plan mode saved its plan and the command that runs it, with the path as the user would
 * type it from where they are (relative to the current directory when the plan is below it).
 */
export function planSavedLine(event: EventOf<"plan_saved">, projectRoot?: string): string {
  const shown = projectRoot === undefined ? event.path : fromHere(path.join(projectRoot, event.path));
  return `Plan saved to ${shown}. Edit it if you like, then run it with: lathe -p --plan ${shellWord(shown)}\n`;
}

function fromHere(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? absolute : relative;
}

function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
