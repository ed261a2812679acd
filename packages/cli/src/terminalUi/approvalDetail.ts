import type { FileDiff } from "./diffLines.js";
import { diffText } from "./diffRows.js";
import { proposedDiff } from "./toolDiff.js";

/** Rows of a diff shown in an approval; the rest is counted, not shown. */
export const approvalDiffRows = 20;

/**
 * What an approval shows under its question: the exact command, or the change as removed and
 * added lines, so the user judges the call itself rather than its arguments as JSON.
 */
export function approvalDetail(args: unknown): string {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  if (typeof fields.command === "string") return `$ ${fields.command}`;
  const diff = approvalDiff(args);
  if (diff.length > 0) return diffText(diff, approvalDiffRows);
  const json = JSON.stringify(args);
  return json.length > 300 ? `${json.slice(0, 299)}…` : json;
}

/** The change an approval shows as a diff; empty when the call changes no file or shows nothing of one. */
export function approvalDiff(args: unknown): FileDiff[] {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  if (typeof fields.command === "string") return [];
  const diff = proposedDiff(args);
  return diff.some((file) => file.hunks.length > 0 || file.note !== undefined) ? diff : [];
}

/** The file, command or address a call is about, for the lines that name it; "" when none. */
export function callTarget(args: unknown): string {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const target = fields.path ?? fields.command ?? fields.url ?? fields.pattern;
  return typeof target === "string" ? target : "";
}
