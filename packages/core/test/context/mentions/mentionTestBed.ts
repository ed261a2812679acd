import type { Mention, MentionKind } from "../../../src/context/mentions/mention.js";
import type { MentionSources } from "../../../src/context/mentions/mentionSources.js";
import { countTokens } from "../dynamic/contextTestBed.js";

/** A mention as the parser would produce it, for resolver tests that do not care about positions. */
export function mention(kind: MentionKind, argument: string, bare = false): Mention {
  const raw = bare ? `@${argument}` : argument === "" ? `@${kind}` : `@${kind} ${argument}`;
  return { kind, argument, raw, start: 0, end: raw.length, ...(bare ? { bare: true as const } : {}) };
}

export function sourcesFor(projectRoot: string, overrides: Partial<MentionSources> = {}): MentionSources {
  return { projectRoot, countTokens, signal: new AbortController().signal, ...overrides };
}
