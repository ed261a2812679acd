// Types for corpus.mjs, which stays plain JavaScript so the benchmark can run it without a build.
export type RefusalCode = "E_MULTIPLE_MATCHES" | "E_NOT_FOUND" | "E_NO_CHANGE" | "E_INVALID_ARGS";

export interface GeneratedFileSpec {
  generate: "typescript" | "python" | "go";
  lines?: number;
  eol?: "\n" | "\r\n";
  bom?: boolean;
  finalNewline?: boolean;
  typeName?: string;
}

export interface CorpusCase {
  /** The JSON file the case comes from, without extension. */
  theme: string;
  name: string;
  /** True when one intended location exists and the edit must be applied there. */
  intended: boolean;
  note?: string;
  file: string;
  old_string: string;
  new_string: string;
  replace_all: boolean;
  expect: { content: string } | { refuse: RefusalCode };
}

/** The part of an engine outcome the judge reads. */
export type JudgedOutcome = { ok: true; content: string } | { ok: false; error: { code: string } };

export type Judgement =
  | { verdict: "applied" }
  | { verdict: "wrong-edit"; outsideIntendedLines: boolean }
  | { verdict: "missed"; code: string }
  | { verdict: "refused" }
  | { verdict: "refused-other-code"; code: string };

export const casesDir: string;
export const refusalCodes: readonly RefusalCode[];
export function loadCorpus(): CorpusCase[];
export function generateFile(spec: GeneratedFileSpec, where?: string): string;
export function judge(testCase: CorpusCase, outcome: JudgedOutcome): Judgement;
export function changedLineSpan(before: string, after: string): { first: number; last: number };
export function firstDifference(expected: string, actual: string): string;
