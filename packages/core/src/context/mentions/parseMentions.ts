import { type Mention, type MentionKind, mentionKinds } from "./mention.js";

const kinds: ReadonlySet<string> = new Set(mentionKinds);
const withoutArgument: ReadonlySet<MentionKind> = new Set(["lints", "terminal"]);

/** What may come right before `@`: nothing, a space, or an opening bracket or quote. `a@b.com` is no mention. */
const boundaryBefore = /[\s([{"'`]/;
const kindName = /[a-z]+/y;
const horizontalSpace = /[ \t]+/y;
const nonSpace = /\S+/y;
/** A bare path runs until a space, a quote or a bracket. */
const barePath = /[^\s"'`<>()[\]{},;@]+/y;
/** `@server:uri`, an MCP server's resource: a server name, a colon, then the URI up to a space. */
const mcpResource = /([A-Za-z0-9_-]+):([^\s"'`<>]+)/y;
const quotes = new Set(['"', "'", "`"]);
/** Sentence punctuation after a mention is not part of it: `see @file a.ts.` */
const trailingPunctuation = ".,;:!?'\"`";
const closers: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/**
 * Finds the @-mentions of a user message: `@kind argument` (an argument in quotes may hold spaces:
 * `@file "my file.ts"`), `@lints` and `@terminal` alone, `@git diff|log|commit <sha>`, `@web` with
 * the rest of its line as the query, `@server:uri` (an MCP resource, marked `bare`), and bare `@path/to/file.ts` (marked `bare`, kept only if the
 * path exists). Unknown kinds, e-mail addresses and a kind with nothing after it are left as text.
 */
export function parseMentions(text: string): Mention[] {
  const mentions: Mention[] = [];
  let at = text.indexOf("@");
  while (at !== -1) {
    const previous = text[at - 1];
    const found = previous === undefined || boundaryBefore.test(previous) ? mentionAt(text, at) : undefined;
    if (found !== undefined) mentions.push(found);
    at = text.indexOf("@", found === undefined ? at + 1 : found.end);
  }
  return mentions;
}

function mentionAt(text: string, at: number): Mention | undefined {
  const name = matchAt(kindName, text, at + 1);
  if (name !== undefined && kinds.has(name)) {
    const kind = name as MentionKind;
    const afterName = at + 1 + name.length;
    if (withoutArgument.has(kind)) {
      const rest = matchAt(nonSpace, text, afterName) ?? "";
      if (stripTrailing(rest) === "") return mention(text, kind, "", at, afterName);
    } else {
      const space = matchAt(horizontalSpace, text, afterName);
      if (space !== undefined) {
        const argument = argumentAt(text, kind, afterName + space.length);
        return argument && mention(text, kind, argument.value, at, argument.end);
      }
    }
  }
  const resource = mcpResourceAt(text, at);
  if (resource !== undefined) return resource;
  const path = stripTrailing(matchAt(barePath, text, at + 1) ?? "");
  // Only what looks like a path: `@alice` or `@here` is someone being addressed.
  if (!/[./]/.test(path) || /^\.+$/.test(path)) return undefined;
  return { ...mention(text, "file", path, at, at + 1 + path.length), bare: true };
}

/** `@server:uri`, kept only if such a server is configured (`bare`): `@localhost:3000` stays text. */
function mcpResourceAt(text: string, at: number): Mention | undefined {
  mcpResource.lastIndex = at + 1;
  const found = mcpResource.exec(text);
  if (found === null) return undefined;
  const uri = stripTrailing(found[2] ?? "");
  if (uri === "") return undefined;
  const argument = `${found[1]}:${uri}`;
  return { ...mention(text, "mcp", argument, at, at + 1 + argument.length), bare: true };
}

/** The argument starting at `from`, on the same line; undefined when there is none. */
function argumentAt(
  text: string,
  kind: MentionKind,
  from: number,
): { value: string; end: number } | undefined {
  const first = text[from];
  if (first !== undefined && quotes.has(first)) {
    const close = text.indexOf(first, from + 1);
    const newline = text.indexOf("\n", from);
    if (close > from + 1 && (newline === -1 || close < newline)) {
      return { value: text.slice(from + 1, close), end: close + 1 };
    }
  }
  if (kind === "web") {
    // A search query is words: the rest of the line.
    const lineEnd = text.indexOf("\n", from);
    const value = text.slice(from, lineEnd === -1 ? undefined : lineEnd).trimEnd();
    return value === "" ? undefined : { value, end: from + value.length };
  }
  // A quote left open is not part of the word after it.
  const word = wordAt(text, first !== undefined && quotes.has(first) ? from + 1 : from);
  if (word === undefined) return undefined;
  if (kind === "git" && word.value === "commit") {
    const space = matchAt(horizontalSpace, text, word.end);
    const revision = space === undefined ? undefined : wordAt(text, word.end + space.length);
    if (revision !== undefined) return { value: `commit ${revision.value}`, end: revision.end };
  }
  return word;
}

function wordAt(text: string, from: number): { value: string; end: number } | undefined {
  const value = stripTrailing(matchAt(nonSpace, text, from) ?? "");
  return value === "" ? undefined : { value, end: from + value.length };
}

/** Drops sentence punctuation and closing brackets that have no opening one inside the word. */
function stripTrailing(word: string): string {
  let value = word;
  for (;;) {
    const last = value.at(-1);
    if (last === undefined) return value;
    const opener = closers[last];
    const unbalanced = opener !== undefined && count(value, opener) < count(value, last);
    if (!trailingPunctuation.includes(last) && !unbalanced) return value;
    value = value.slice(0, -1);
  }
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}

function matchAt(pattern: RegExp, text: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0];
}

function mention(text: string, kind: MentionKind, argument: string, start: number, end: number): Mention {
  return { kind, argument, raw: text.slice(start, end), start, end };
}
