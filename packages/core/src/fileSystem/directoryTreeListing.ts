import { lstat, readlink, realpath } from "node:fs/promises";
import { formatByteSize } from "./byteSize.js";
import type { TreeEntry } from "./directoryTree.js";

const indentUnit = "  ";

/** What is known of an entry that will be shown, beyond its name and kind. */
interface EntryDetails {
  size?: number;
  link?: { target: string; leadsOutside: boolean; broken: boolean };
}

/** Whether a real path (every link followed) lies inside the project. */
export type InsideProject = (realPath: string) => boolean;

/**
 * Renders the first `maxShown` entries (in breadth-first order) as an indented tree under
 * `header`. A directory whose entries did not all fit says how many are missing.
 */
export async function renderTree(
  header: string,
  entries: readonly TreeEntry[],
  maxShown: number,
  insideProject: InsideProject,
): Promise<string> {
  const shown = (entry: TreeEntry) => entry.order < maxShown;
  const details = await detailsOf(collectShown(entries, shown), insideProject);
  const lines = [header];
  const renderLevel = (level: readonly TreeEntry[], indent: string) => {
    let omitted = 0;
    for (const entry of level) {
      if (!shown(entry)) {
        omitted++;
        continue;
      }
      lines.push(`${indent}${describe(entry, details.get(entry))}`);
      if (entry.kind === "directory") renderLevel(entry.children, indent + indentUnit);
    }
    if (omitted > 0) lines.push(`${indent}… ${omitted.toLocaleString("en-US")} more not shown`);
  };
  renderLevel(entries, indentUnit);
  return lines.join("\n");
}

function collectShown(entries: readonly TreeEntry[], shown: (entry: TreeEntry) => boolean): TreeEntry[] {
  const collected: TreeEntry[] = [];
  const visit = (level: readonly TreeEntry[]) => {
    for (const entry of level) {
      if (!shown(entry)) continue;
      collected.push(entry);
      visit(entry.children);
    }
  };
  visit(entries);
  return collected;
}

/** Sizes and link targets are looked up only for entries that are shown: a huge tree costs one readdir per directory. */
async function detailsOf(
  entries: readonly TreeEntry[],
  insideProject: InsideProject,
): Promise<Map<TreeEntry, EntryDetails>> {
  const looked = await Promise.all(
    entries.map(async (entry): Promise<[TreeEntry, EntryDetails]> => {
      if (entry.kind === "file") return [entry, await fileDetails(entry.absolutePath)];
      if (entry.kind === "symlink") return [entry, await linkDetails(entry.absolutePath, insideProject)];
      return [entry, {}];
    }),
  );
  return new Map(looked);
}

async function fileDetails(absolutePath: string): Promise<EntryDetails> {
  try {
    return { size: (await lstat(absolutePath)).size };
  } catch {
    return {};
  }
}

async function linkDetails(absolutePath: string, insideProject: InsideProject): Promise<EntryDetails> {
  let target: string;
  try {
    target = await readlink(absolutePath);
  } catch {
    return {};
  }
  try {
    const resolved = await realpath(absolutePath);
    return { link: { target, leadsOutside: !insideProject(resolved), broken: false } };
  } catch {
    return { link: { target, leadsOutside: false, broken: true } };
  }
}

function describe(entry: TreeEntry, details: EntryDetails | undefined): string {
  switch (entry.kind) {
    case "directory":
      return entry.readError === undefined
        ? `${entry.name}/`
        : `${entry.name}/ [unreadable: ${entry.readError}]`;
    case "file":
      return details?.size === undefined ? entry.name : `${entry.name} (${formatByteSize(details.size)})`;
    case "symlink": {
      const link = details?.link;
      if (link === undefined) return `${entry.name} -> ?`;
      if (link.broken) return `${entry.name} -> ${link.target} [broken link]`;
      if (link.leadsOutside) return `${entry.name} -> ${link.target} [outside the project, not followed]`;
      return `${entry.name} -> ${link.target}`;
    }
    case "other":
      return `${entry.name} [special file]`;
  }
}
