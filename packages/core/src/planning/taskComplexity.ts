import {
  complexTerms,
  fileMentions,
  findTerms,
  listItems,
  moderateTerms,
  sequenceTerms,
  simpleTerms,
} from "./complexitySignals.js";

export type ComplexityLevel = "SIMPLE" | "MODERATE" | "COMPLEX";

export interface ComplexityAnalysis {
  level: ComplexityLevel;
  /** What pointed to the level, for logs and tests. */
  reasons: string[];
  /** Strategy hint for the model, injected with the user's message. */
  hint: string;
}

/** Points at which a task counts as moderate or complex. */
const moderateAt = 2;
const complexAt = 4;

export const complexityHints: Record<ComplexityLevel, string> = {
  SIMPLE:
    "This task looks simple: act directly. Make the change with as few calls as needed; no plan or todo list.",
  MODERATE:
    "This task looks moderately complex: read the relevant files first, then make focused changes, and verify them (run the related tests or checks) before you finish.",
  COMPLEX:
    "This task looks complex: plan it first with todo_write; explore with read-only tools (or sub-agents) before changing anything; then work step by step, updating the todos as you go, and run the tests after each step.",
};

/** The hint for a level, for a session that may not offer todo_write (complex work then plans in prose). */
export function strategyHint(level: ComplexityLevel, todos: boolean): string {
  if (level !== "COMPLEX" || todos) return complexityHints[level];
  return "This task looks complex: first write a short numbered plan in your answer; explore with read-only tools before changing anything; then work step by step and run the tests after each step.";
}

/**
 * SIMPLE / MODERATE / COMPLEX from the words of the request (English and Chinese), how long it
 * is, how many files it names and how many steps it chains (seed 002). Points add up: a word like
 * "refactor" or 重构 alone makes a task complex; "fix" or 修复 makes it moderate; four files or
 * three steps add enough to tip a moderate task into complex; "create a…" or 解释 pulls down.
 */
export function analyzeTaskComplexity(prompt: string): ComplexityAnalysis {
  const reasons: string[] = [];
  let points = 0;

  const complex = findTerms(prompt, complexTerms);
  if (complex.length > 0) {
    points += complexAt;
    reasons.push(`complex-task words: ${quoted(complex)}`);
  }
  const moderate = findTerms(prompt, moderateTerms);
  if (moderate.length > 0) {
    points += moderateAt;
    reasons.push(`change words: ${quoted(moderate)}`);
  }
  const simple = findTerms(prompt, simpleTerms);
  if (simple.length > 0) {
    points -= 1;
    reasons.push(`simple-request words: ${quoted(simple)}`);
  }

  const files = fileMentions(prompt);
  if (files.length >= 4) points += 3;
  else if (files.length >= 2) points += 1;
  if (files.length >= 2) reasons.push(`${files.length} files named`);

  const sequence = findTerms(prompt, sequenceTerms).length;
  const steps = Math.max(listItems(prompt), sequence > 0 ? sequence + 1 : 1);
  if (steps >= 3) points += 3;
  else if (steps === 2) points += 1;
  if (steps >= 2) reasons.push(`${steps} steps`);

  const tokens = approximateTokens(prompt);
  if (tokens >= 300) points += 2;
  else if (tokens >= 100) points += 1;
  if (tokens >= 100) reasons.push(`long request (${tokens} tokens)`);

  const level: ComplexityLevel =
    points >= complexAt ? "COMPLEX" : points >= moderateAt ? "MODERATE" : "SIMPLE";
  return { level, reasons, hint: complexityHints[level] };
}

/**
 * Han, kana and Hangul by their main blocks. Ranges, not Unicode property classes: a property
 * class makes V8 build its tables when the function is first parsed, about a millisecond of
 * every start, for a signal this rough.
 */
const cjkPattern =
  /[\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{2fa1f}]/gu;
/** A word: a run of anything but spaces and ASCII punctuation. */
const wordPattern = /[^\s!-/:-@[-`{-~]+/g;

/**
 * Roughly how many tokens a request is: a word of Latin script is about 1.3, a CJK character
 * about one. Exact enough for a length signal, and it keeps the tokenizer from loading for it.
 */
function approximateTokens(text: string): number {
  const cjk = text.match(cjkPattern)?.length ?? 0;
  const words = text.replace(cjkPattern, " ").match(wordPattern)?.length ?? 0;
  return Math.round(words * 1.3 + cjk);
}

function quoted(terms: string[]): string {
  return [...new Set(terms)].map((term) => `"${term}"`).join(", ");
}
