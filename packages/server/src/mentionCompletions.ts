import {
  bareMentionName,
  droppedAtMentionEnd,
  explicitPathMention,
  type MentionCompletions,
} from "@lathe/protocol";
import type { ProjectPath } from "./projectPaths.js";

type Item = MentionCompletions["items"][number];

/** A list longer than this is not read; typing one more letter narrows it. */
export const maxCompletions = 20;

/** The `@` kinds the mention parser knows, in the order a list shows them, with what each brings. */
const keywords: readonly { kind: Item["kind"]; detail: string }[] = [
  { kind: "web", detail: "search the web" },
  { kind: "git", detail: "the diff, the log or a commit" },
  { kind: "lints", detail: "the current lint errors" },
  { kind: "terminal", detail: "recent terminal output" },
  { kind: "chat", detail: "another session's conversation" },
  { kind: "file", detail: "a file's contents" },
  { kind: "folder", detail: "a folder's tree" },
  { kind: "symbol", detail: "a code symbol's definition" },
  { kind: "rule", detail: "a project rule" },
  { kind: "url", detail: "a web page" },
];

/**
 * Completions for `@query`: the kinds whose name starts with the query, then the project's files and
 * folders whose path contains it (ignoring case), shorter paths first. Each `insert` is a mention
 * `parseMentions` reads back as that path: `@src/app.ts` where a bare path works, else
 * `@file name` or `@file "with spaces.md"`.
 */
export async function completeMentions(
  projectRoot: string,
  query: string,
  /** The project's files and folders (walked, or kept from a recent walk). */
  listPaths: (projectRoot: string) => Promise<ProjectPath[]>,
): Promise<MentionCompletions> {
  const explicit = explicitPathMention.exec(query);
  if (explicit) {
    const kind = explicit[1] === "folder" ? "folder" : "file";
    // A quote opened for a path with spaces is not part of the path.
    const typed = (explicit[2] ?? "").replace(/^["'`]/, "");
    const paths = matchingPaths(await listPaths(projectRoot), typed, kind);
    return { items: paths.flatMap((found) => pathItem(found, true)).slice(0, maxCompletions) };
  }
  // Another kind with its argument begun (`@web rust async`): nothing in the project to offer.
  if (/\s/.test(query)) return { items: [] };
  const lower = query.toLowerCase();
  const kinds: Item[] = keywords
    .filter(({ kind }) => kind.startsWith(lower))
    .map(({ kind, detail }) => ({ kind, label: `@${kind}`, insert: `@${kind}`, detail }));
  const paths = matchingPaths(await listPaths(projectRoot), query, undefined);
  const items = [...kinds, ...paths.flatMap((found) => pathItem(found, false))];
  return { items: items.slice(0, maxCompletions) };
}

function matchingPaths(
  all: readonly ProjectPath[],
  query: string,
  kind: ProjectPath["kind"] | undefined,
): ProjectPath[] {
  const lower = query.toLowerCase();
  return all
    .filter(
      (found) => (kind === undefined || found.kind === kind) && found.path.toLowerCase().includes(lower),
    )
    .sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function pathItem(found: ProjectPath, explicit: boolean): Item[] {
  const insert = mentionText(found, explicit);
  if (insert === undefined) return [];
  const label = found.kind === "folder" ? `${found.path}/` : found.path;
  return [{ kind: found.kind, label, insert }];
}

const quoteCharacters = ['"', "'", "`"] as const;

/** The mention of one path as the parser in core/context/mentions reads it back; none if it cannot be. */
function mentionText(found: ProjectPath, explicit: boolean): string | undefined {
  const { path, kind } = found;
  if (path.includes("\n")) return undefined;
  const bareWorks =
    kind === "file" && /[./]/.test(path) && bareMentionName.test(path) && !droppedAtMentionEnd.test(path);
  if (bareWorks && !explicit) return `@${path}`;
  const plainWord =
    /^\S+$/.test(path) && !quoteCharacters.some((q) => path.startsWith(q)) && !droppedAtMentionEnd.test(path);
  if (plainWord) return `@${kind} ${path}`;
  const quote = quoteCharacters.find((q) => !path.includes(q));
  return quote === undefined ? undefined : `@${kind} ${quote}${path}${quote}`;
}
