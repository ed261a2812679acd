import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ProjectIgnore, resolveProjectPath } from "@lathe/core";
import { bareMentionName, droppedAtMentionEnd, explicitPathMention, mentionKinds } from "@lathe/protocol";

/** More than a hint line can show; typing one more letter narrows the list. */
export const maxMentionCandidates = 200;

/** The kinds offered after `@`; an MCP resource (`@server:uri`) is not completed here. */
const offeredKinds = mentionKinds.filter((kind) => kind !== "mcp");

/**
 * What may follow the `@` the user is typing (`query`, without the `@`): the entries of the
 * project folder it names that start with its last part, folders ending in `/`, as a shell
 * completes a path, then the mention kinds that start with it. Only the project is listed: a folder outside
 * it (`../`, `/etc/`, a link leading out) lists nothing, and ignored entries (.gitignore,
 * node_modules, .git) are left out.
 */
export async function mentionCandidates(projectRoot: string, query: string): Promise<string[]> {
  const explicit = explicitPathMention.exec(query);
  const typed = explicit ? (explicit[2] ?? "") : query;
  if (/\s/.test(typed)) return [];
  const kinds = explicit || typed.includes("/") ? [] : offeredKinds.filter((kind) => kind.startsWith(typed));
  const paths = await folderEntries(projectRoot, typed, explicit?.[1] === "folder");
  const written = explicit ? paths.map((found) => `${explicit[1]} ${found}`) : paths;
  return [...written, ...kinds].slice(0, maxMentionCandidates);
}

async function folderEntries(projectRoot: string, typed: string, foldersOnly: boolean): Promise<string[]> {
  const slash = typed.lastIndexOf("/");
  const folder = typed.slice(0, slash + 1);
  const start = typed.slice(slash + 1);
  const root = await resolveProjectPath(projectRoot, ".");
  const listed = await resolveProjectPath(projectRoot, folder === "" ? "." : folder);
  if (!root.ok || !listed.ok) return [];
  const ignore = new ProjectIgnore(root.path);
  const within = listed.relative === "." ? "" : `${listed.relative.split(path.sep).join("/")}/`;
  const found: string[] = [];
  for (const entry of await readEntries(listed.path)) {
    const { name } = entry;
    if (!name.startsWith(start) || (name.startsWith(".") && !start.startsWith("."))) continue;
    const isFolder = entry.isDirectory();
    if (!isFolder && (foldersOnly || !entry.isFile() || droppedAtMentionEnd.test(name))) continue;
    if (!bareMentionName.test(name) || (await ignore.isIgnored(`${within}${name}`, isFolder))) continue;
    found.push(`${folder}${name}${isFolder ? "/" : ""}`);
  }
  return found;
}

/** The folder's entries by name; links are not followed, as the project's file walks do not. */
async function readEntries(folder: string): Promise<Dirent[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // Not a folder, or unreadable: nothing to offer.
    return [];
  }
}
