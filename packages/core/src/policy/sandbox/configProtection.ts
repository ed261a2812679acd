import path from "node:path";
import { shellStartupFiles } from "../sensitivePaths.js";
import { readOnlyDirectoryArgs } from "./gitProtection.js";
import { pathExists } from "./pathKinds.js";

/**
 * Directories at the project root whose files decide what Lathe and other tools run there:
 * `.lathe` (settings with permission rules, hooks, MCP servers, agents, commands, rules) and
 * `.cursor` (MCP servers, rules). Kept read-only whole, present or not: protecting only the files
 * that exist would let a command create `.lathe/hooks.json` beside them, and a missing directory
 * is stood in for by an empty read-only one. Plans under `.lathe/plans` are written by Lathe
 * itself, outside the sandbox, so commands need no write access there either.
 */
export const configDirectories = [".lathe", ".cursor"];

/**
 * bwrap arguments that keep the project's configuration read-only inside the sandbox (SPEC §5),
 * and the shell start-up files at its root, which matter when the project is the home directory
 * itself (`$HOME` is read-only already). A missing start-up file is not stood in for: an empty
 * `.bash_profile` left behind would change which files a login shell reads.
 */
export function configProtectionArgs(projectRoot: string): string[] {
  const args = configDirectories.flatMap((name) => readOnlyDirectoryArgs(path.join(projectRoot, name)));
  for (const name of shellStartupFiles) {
    const file = path.join(projectRoot, name);
    if (pathExists(file)) args.push("--ro-bind", file, file);
  }
  return args;
}
