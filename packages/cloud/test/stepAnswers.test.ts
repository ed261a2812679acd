import { describe, expect, it } from "vitest";
import {
  maxNotesChars,
  type ParsedRanking,
  type ParsedVerdict,
  parseRanking,
  parseVerdict,
  skipRequests,
} from "../src/pipelines/stepAnswers.js";

describe("parseVerdict", () => {
  const rows: { name: string; answer: string; verdict: ParsedVerdict }[] = [
    {
      name: "approve",
      answer: "The change is sound.\nVERDICT: approve",
      verdict: { decision: "approve", notes: "The change is sound." },
    },
    {
      name: "revise, with the changes wanted above it",
      answer: "1. src/a.ts: handle an empty list.\n2. Add a test.\n\nVERDICT: revise\n",
      verdict: { decision: "revise", notes: "1. src/a.ts: handle an empty list.\n2. Add a test." },
    },
    { name: "approved", answer: "VERDICT: approved", verdict: { decision: "approve", notes: "" } },
    { name: "accept", answer: "VERDICT: Accept.", verdict: { decision: "approve", notes: "" } },
    { name: "lgtm", answer: "VERDICT: LGTM", verdict: { decision: "approve", notes: "" } },
    { name: "ok", answer: "VERDICT: ok", verdict: { decision: "approve", notes: "" } },
    {
      name: "approve followed by a remark",
      answer: "VERDICT: approve — small and clear",
      verdict: { decision: "approve", notes: "" },
    },
    {
      name: "changes requested",
      answer: "Fix it.\nVERDICT: changes requested",
      verdict: { decision: "revise", notes: "Fix it." },
    },
    {
      name: "request changes",
      answer: "VERDICT: Request changes",
      verdict: { decision: "revise", notes: "" },
    },
    { name: "reject", answer: "VERDICT: reject", verdict: { decision: "revise", notes: "" } },
    {
      name: "lowercase label, indented",
      answer: "Fine.\n   verdict: revise",
      verdict: { decision: "revise", notes: "Fine." },
    },
    {
      name: "markdown around the line",
      answer: "Needs a test.\n**VERDICT:** `revise`",
      verdict: { decision: "revise", notes: "Needs a test." },
    },
    {
      name: "the last verdict line decides; earlier ones stay in the notes",
      answer: "I first thought VERDICT: approve\nVERDICT: approve\nBut the test fails.\nVERDICT: revise",
      verdict: {
        decision: "revise",
        notes: "I first thought VERDICT: approve\nVERDICT: approve\nBut the test fails.",
      },
    },
    {
      name: "no verdict line: approved, assumed",
      answer: "  Looks good to me.  \n",
      verdict: { decision: "approve", notes: "Looks good to me.", assumed: true },
    },
    {
      name: "a verdict naming no decision: approved, assumed",
      answer: "Hmm.\nVERDICT: unsure",
      verdict: { decision: "approve", notes: "Hmm.", assumed: true },
    },
    {
      name: "a word that only starts like a decision is not one",
      answer: "VERDICT: okayish",
      verdict: { decision: "approve", notes: "", assumed: true },
    },
    { name: "empty answer", answer: "", verdict: { decision: "approve", notes: "", assumed: true } },
  ];
  it.each(rows)("$name", ({ answer, verdict }) => {
    expect(parseVerdict(answer)).toEqual(verdict);
  });

  it("caps the notes at 8,000 characters, keeping the end where the changes wanted are", () => {
    const answer = `${"a".repeat(9_000)}\nChange b.ts.\nVERDICT: revise`;
    const verdict = parseVerdict(answer);
    expect(maxNotesChars).toBe(8_000);
    expect(verdict.decision).toBe("revise");
    expect(verdict.notes.length).toBe(8_000);
    expect(verdict.notes.startsWith("…aaa")).toBe(true);
    expect(verdict.notes.endsWith("a\nChange b.ts.")).toBe(true);
  });
});

describe("parseRanking", () => {
  const rows: { name: string; answer: string; candidates: number[]; ranking: ParsedRanking }[] = [
    {
      name: "commas",
      answer: "Attempt 2 is the smallest change that passes.\nRANKING: 2, 3, 1",
      candidates: [1, 2, 3],
      ranking: { order: [2, 3, 1], reason: "Attempt 2 is the smallest change that passes." },
    },
    {
      name: "> and spaces",
      answer: "Why.\nRANKING: 3 > 1 2",
      candidates: [1, 2, 3],
      ranking: { order: [3, 1, 2], reason: "Why." },
    },
    {
      name: "left-out candidates appended in ascending order",
      answer: "RANKING: 4",
      candidates: [4, 2, 1, 3],
      ranking: { order: [4, 1, 2, 3], reason: "" },
    },
    {
      name: "numbers that are not candidates dropped, repeats kept once",
      answer: "RANKING: 7, 2, 2, 0, 1",
      candidates: [1, 2, 3],
      ranking: { order: [2, 1, 3], reason: "" },
    },
    {
      name: "the last ranking line counts",
      answer: "RANKING: 1, 2\nOn second thought 2 is better.\nRANKING: 2, 1",
      candidates: [1, 2],
      ranking: { order: [2, 1], reason: "RANKING: 1, 2\nOn second thought 2 is better." },
    },
    {
      name: "markdown and a lowercase label",
      answer: "- **ranking:** 2 > 1",
      candidates: [1, 2],
      ranking: { order: [2, 1], reason: "" },
    },
    {
      name: "no ranking line: ascending, assumed",
      answer: "Both are fine.",
      candidates: [3, 1, 2],
      ranking: { order: [1, 2, 3], reason: "Both are fine.", assumed: true },
    },
    {
      name: "a ranking line naming no candidate: ascending, assumed",
      answer: "Hmm.\nRANKING: 9, 8",
      candidates: [2, 1],
      ranking: { order: [1, 2], reason: "Hmm.", assumed: true },
    },
  ];
  it.each(rows)("$name", ({ answer, candidates, ranking }) => {
    expect(parseRanking(answer, candidates)).toEqual(ranking);
  });
});

describe("skipRequests", () => {
  const rows: { name: string; answer: string; skips: string[] }[] = [
    { name: "one line", answer: "Plan…\nSKIP: researcher", skips: ["researcher"] },
    {
      name: "comma separated, lowercased",
      answer: "SKIP: Researcher, DOCUMENTER",
      skips: ["researcher", "documenter"],
    },
    {
      name: "several lines, repeats once, in order",
      answer: "SKIP: documenter\ntext\nskip: researcher\nSKIP: documenter",
      skips: ["documenter", "researcher"],
    },
    { name: "markdown and a full stop", answer: "- **SKIP:** `documenter`.", skips: ["documenter"] },
    { name: "only at the start of a line", answer: "You may write SKIP: researcher when…", skips: [] },
    {
      name: "what is not a step name is dropped",
      answer: "SKIP: the research step, coder",
      skips: ["coder"],
    },
    { name: "none", answer: "No skips here.", skips: [] },
  ];
  it.each(rows)("$name", ({ answer, skips }) => {
    expect(skipRequests(answer)).toEqual(skips);
  });
});
