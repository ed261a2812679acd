/**
 * What the orchestrator reads from a step's answer: the reviewer's verdict, its ranking of
 * best-of-N attempts, and the steps an answer asks to skip. Models decorate such lines with
 * markdown (`**VERDICT:** approve`, `- SKIP: documenter.`), so the decoration is ignored.
 */

export interface ParsedVerdict {
  decision: "approve" | "revise";
  /** The rest of the answer: what the coder is told when the work is sent back. */
  notes: string;
  /** No verdict line, or one that names no decision: the work is taken as approved. */
  assumed?: true;
}

export interface ParsedRanking {
  /** Every candidate once, best first. */
  order: number[];
  /** The rest of the answer: why the first is best. */
  reason: string;
  /** No ranking line naming a candidate: the candidates in ascending order. */
  assumed?: true;
}

/** Notes and reasons are passed to later steps; the end is kept, where the changes wanted are listed. */
export const maxNotesChars = 8_000;

const approveWords = ["approve", "approved", "accept", "accepted", "lgtm", "ok", "okay"];
const reviseWords = [
  "revise",
  "revision",
  "changes requested",
  "request changes",
  "reject",
  "rejected",
  "needs changes",
  "needs work",
];

/** The last `VERDICT:` line decides; without one, the work is approved as `assumed`. */
export function parseVerdict(answer: string): ParsedVerdict {
  const line = lastLabelledLine(answer, "VERDICT");
  if (line === undefined) return { decision: "approve", notes: capped(answer.trim()), assumed: true };
  const notes = capped(withoutLine(answer, line).trim());
  const value = plainValue(line.value);
  if (reviseWords.some((word) => startsWithWord(value, word))) return { decision: "revise", notes };
  if (approveWords.some((word) => startsWithWord(value, word))) return { decision: "approve", notes };
  return { decision: "approve", notes, assumed: true };
}

/**
 * The last `RANKING:` line's numbers (separated by commas, `>` or spaces) that are candidates,
 * each once and in its order, then the candidates it left out in ascending order.
 */
export function parseRanking(answer: string, candidates: readonly number[]): ParsedRanking {
  const ascending = [...new Set(candidates)].sort((a, b) => a - b);
  const line = lastLabelledLine(answer, "RANKING");
  const reason = capped((line === undefined ? answer : withoutLine(answer, line)).trim());
  const named = [...(line?.value.matchAll(/\d+/g) ?? [])]
    .map((match) => Number(match[0]))
    .filter((number, index, all) => ascending.includes(number) && all.indexOf(number) === index);
  if (named.length === 0) return { order: ascending, reason, assumed: true };
  return { order: [...named, ...ascending.filter((number) => !named.includes(number))], reason };
}

/** The step names of every `SKIP:` line (`SKIP: researcher`, `SKIP: a, b`), lowercase, each once. */
export function skipRequests(answer: string): string[] {
  const names = labelledLines(answer, "SKIP").flatMap((line) =>
    line.value.split(",").map((name) => plainValue(name)),
  );
  return [...new Set(names.filter((name) => /^[a-z][a-z0-9-]*$/.test(name)))];
}

interface LabelledLine {
  /** Where the whole line starts and ends in the answer. */
  start: number;
  end: number;
  /** What follows the label. */
  value: string;
}

function labelledLines(answer: string, label: string): LabelledLine[] {
  const pattern = new RegExp(`^[ \\t>*_#\`-]*${label}[*_\`]*[ \\t]*:[*_\`]*[ \\t]*(.+)$`, "gim");
  return [...answer.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    value: match[1] ?? "",
  }));
}

function lastLabelledLine(answer: string, label: string): LabelledLine | undefined {
  return labelledLines(answer, label).at(-1);
}

function withoutLine(answer: string, line: LabelledLine): string {
  return answer.slice(0, line.start) + answer.slice(line.end);
}

/** Lowercase, without markdown marks, quotes or trailing punctuation. */
function plainValue(value: string): string {
  return value
    .replace(/[*_`"']/g, "")
    .trim()
    .replace(/[.!;:]+$/, "")
    .trim()
    .toLowerCase();
}

/** `word` is the value, or its start followed by something other than a letter. */
function startsWithWord(value: string, word: string): boolean {
  return value === word || (value.startsWith(word) && !/[a-z]/.test(value.charAt(word.length)));
}

function capped(text: string): string {
  return text.length <= maxNotesChars ? text : `…${text.slice(text.length - maxNotesChars + 1)}`;
}
