import type { LatheErrorInfo } from "@lathe/protocol";
import type { SessionStore } from "../../store/sessionStore.js";
import type { FileReadLedger } from "../../tools/fileReadLedger.js";
import type { McpResourceSource } from "../../tools/mcpResourceSource.js";
import type { CodeSearchIndex } from "../../tools/toolServices.js";
import type { CountTokens } from "../dynamic/contextText.js";
import type { LintProblem } from "../dynamic/lintProblems.js";
import type { Mention } from "./mention.js";

/** Bounds on what one mention may fetch, read or run; every one can be overridden. */
export interface MentionLimits {
  /** Mentions resolved per message; the rest are reported as errors. */
  maxMentions: number;
  /** Bytes read of a mentioned file. */
  maxFileBytes: number;
  /** `@folder`: levels listed and entries shown. */
  folderDepth: number;
  folderEntries: number;
  /** `@symbol` without an index: files scanned, their size, time spent, definitions shown. */
  symbolScanFiles: number;
  symbolScanFileBytes: number;
  symbolScanMs: number;
  symbolDefinitions: number;
  /** `@url`: body size and time for the whole exchange. */
  urlMaxBytes: number;
  urlTimeoutMs: number;
  /** `@git`: output read and time per git command; commits listed by `@git log`. */
  gitMaxBytes: number;
  gitTimeoutMs: number;
  gitLogCommits: number;
}

export const mentionLimitDefaults: Readonly<MentionLimits> = {
  maxMentions: 20,
  maxFileBytes: 1024 * 1024,
  folderDepth: 2,
  folderEntries: 200,
  symbolScanFiles: 5000,
  symbolScanFileBytes: 512 * 1024,
  symbolScanMs: 5000,
  symbolDefinitions: 5,
  urlMaxBytes: 100 * 1024,
  urlTimeoutMs: 10_000,
  gitMaxBytes: 1024 * 1024,
  gitTimeoutMs: 10_000,
  gitLogCommits: 20,
};

export interface MentionSources {
  projectRoot: string;
  /** `@symbol` definitions; without it, files are scanned for them. */
  codeSearch?: CodeSearchIndex;
  /** `@chat`: past sessions. */
  store?: SessionStore;
  /** `@lints`. */
  lintProblems?: readonly LintProblem[];
  /** `@terminal`. */
  terminalTail?: string;
  /** `@server:uri`: the resources of the session's MCP servers. */
  mcpResources?: McpResourceSource;
  /** `@url` may reach loopback and private addresses (a local dev server); refused otherwise. */
  allowLocalUrls?: boolean;
  /** Told about files attached whole, so the model may edit them without reading them again. */
  fileReads?: FileReadLedger;
  signal: AbortSignal;
  countTokens: CountTokens;
  /** Default 8,000. */
  maxTokensPerMention?: number;
  limits?: Partial<MentionLimits>;
}

export interface MentionAttachment {
  mention: Mention;
  title: string;
  text: string;
  tokens: number;
}

export interface ResolvedMentions {
  attachments: MentionAttachment[];
  /** Rules named with `@rule`, for the rules module to attach. */
  rules: string[];
  /** Shown to the model and the user; a bad mention never throws. */
  errors: { mention: Mention; error: LatheErrorInfo }[];
  /** Relative paths of the files attached (for auto-attached rules). */
  files: string[];
}

/** What resolvers get: the sources with every default filled in. */
export interface ResolverContext extends MentionSources {
  maxTokens: number;
  limit: Readonly<MentionLimits>;
}

/** What resolving one mention comes to. */
export type MentionOutcome =
  | {
      type: "attachment";
      title: string;
      text: string;
      /** Relative paths of files attached whole or in part. */
      files?: string[];
      /** Which end to keep when the text is over the token limit: the tail for logs and terminals. */
      keep?: "head" | "tail";
    }
  | { type: "rule"; name: string }
  | { type: "error"; error: LatheErrorInfo }
  /** A bare `@path` that names nothing: it stays text. */
  | { type: "ignored" };
