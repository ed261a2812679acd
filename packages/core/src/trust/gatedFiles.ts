import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectMcpFiles } from "../mcp/loadMcpConfig.js";
import { projectSettingsFiles, ruleListsOf } from "../policy/rules/settingsFiles.js";

/** What a gated file can do once the folder is trusted. */
export type GatedFileKind = "hooks" | "mcp" | "settings" | "agent" | "command" | "pipeline";

/** A project file that starts programs or widens the policy, and so waits for the folder's trust. */
export interface GatedFile {
  /** Relative to the project root, with `/`. */
  path: string;
  kind: GatedFileKind;
  /** The file's text as read now; what the trust covers. */
  text: string;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
}

const agentsFolder = ".lathe/agents";
const commandsFolder = ".lathe/commands";
/** Cloud pipelines: each chooses a verify command and the instructions its agents follow. */
const pipelinesFolder = ".lathe/pipelines";

/**
 * The gated files a folder holds now: `.lathe/hooks.json`, the project's MCP files, project
 * settings that hold allow rules (deny and ask rules only narrow, so a settings file without allow
 * rules is not gated), `.lathe/agents/*.md`, `.lathe/commands/*.md` and `.lathe/pipelines/*.md`. A
 * missing file costs one failed open; nothing else in the project is read.
 */
export function readGatedFiles(projectRoot: string): GatedFile[] {
  const files: GatedFile[] = [];
  const add = (relative: string, kind: GatedFileKind) => {
    const bytes = readBytes(projectRoot, relative);
    if (bytes === undefined) return;
    const text = bytes.toString("utf8");
    if (kind === "settings" && !grantsPermissions(text)) return;
    files.push({ path: relative, kind, text, sha256: createHash("sha256").update(bytes).digest("hex") });
  };
  add(".lathe/hooks.json", "hooks");
  for (const file of projectMcpFiles) add(file, "mcp");
  for (const file of projectSettingsFiles) add(file, "settings");
  for (const name of markdownNames(projectRoot, agentsFolder)) add(`${agentsFolder}/${name}`, "agent");
  for (const name of markdownNames(projectRoot, commandsFolder)) add(`${commandsFolder}/${name}`, "command");
  for (const name of markdownNames(projectRoot, pipelinesFolder))
    add(`${pipelinesFolder}/${name}`, "pipeline");
  return files;
}

/** The file's bytes; undefined when it is missing or is not a file. */
function readBytes(projectRoot: string, relative: string): Buffer | undefined {
  try {
    return readFileSync(path.join(projectRoot, ...relative.split("/")));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    // Unreadable now but present: its name still counts, so trust cannot be given blind to it.
    return Buffer.from(`unreadable: ${code ?? String(error)}`);
  }
}

function markdownNames(projectRoot: string, folder: string): string[] {
  try {
    return readdirSync(path.join(projectRoot, ...folder.split("/")))
      .filter((name) => name.endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
}

/** Whether a settings file's text holds at least one allow rule (the part that widens the policy). */
function grantsPermissions(text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const lists = ruleListsOf(json as Record<string, unknown>, "");
  return lists.ok && lists.lists.allow.length > 0;
}
