import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { approvalModeSchema } from "@lathe/core";
import { editorStateSchema, modeSchema } from "@lathe/protocol";
import { z } from "zod";
import { type FakeScript, type FakeTurn, parseFakeScript } from "../fakeLlm/script.js";

/**
 * One evaluation case: `eval/cases/<id>-<slug>/` holds `case.json`, a `fixture/` project,
 * `scripted.json` (what a competent model does, realistic mistakes included) and `verify.mjs`.
 */
export const evalCaseSchema = z
  .object({
    id: z.string().regex(/^(AC|E)\d{2}$/),
    title: z.string(),
    category: z.enum([
      "create",
      "edit",
      "command",
      "search",
      "recovery",
      "security",
      "approval",
      "context",
      "concurrency",
      "planning",
      "control",
    ]),
    prompt: z.string().min(1),
    mode: modeSchema.default("agent"),
    approvalMode: approvalModeSchema.default("yolo"),
    /** Answers to approval requests, in order, for cases that exercise approvals. */
    approvals: z.array(z.enum(["accept", "reject"])).default([]),
    maxIterations: z.number().int().positive().optional(),
    /** Model requests a competent model needs; finishing within them scores full efficiency. */
    expectedIterations: z.number().int().positive(),
    /** A smaller context window than the model's, for the context cases. */
    contextWindow: z.number().int().positive().optional(),
    /** The user presses Stop this long after the Nth tool call starts executing (AC-10). */
    cancelAfterToolStarts: z.number().int().positive().optional(),
    /** What the user's editor shows when the task is sent (open files, diagnostics). */
    editor: editorStateSchema.optional(),
  })
  .strict();

export type EvalCaseSpec = z.infer<typeof evalCaseSchema>;

export interface EvalCase extends EvalCaseSpec {
  dir: string;
  fixtureDir?: string;
  scriptedTurns: FakeTurn[];
  /** `summarizer.json`: the fast model's turns, for cases that compact. */
  summarizerTurns?: FakeTurn[];
  verifyPath: string;
}

export function loadEvalCases(casesDir: string, only?: readonly string[]): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const name of readdirSync(casesDir).sort()) {
    const dir = join(casesDir, name);
    const specPath = join(dir, "case.json");
    if (!existsSync(specPath)) continue;
    const spec = evalCaseSchema.parse(JSON.parse(readFileSync(specPath, "utf8")));
    if (only && only.length > 0 && !only.includes(spec.id)) continue;
    const scriptPath = join(dir, "scripted.json");
    const script = JSON.parse(readFileSync(scriptPath, "utf8")) as FakeScript;
    parseFakeScript(script, scriptPath);
    const summarizerPath = join(dir, "summarizer.json");
    const summarizer = existsSync(summarizerPath)
      ? (JSON.parse(readFileSync(summarizerPath, "utf8")) as FakeScript)
      : undefined;
    if (summarizer) parseFakeScript(summarizer, summarizerPath);
    const fixtureDir = join(dir, "fixture");
    cases.push({
      ...spec,
      dir,
      fixtureDir: existsSync(fixtureDir) ? fixtureDir : undefined,
      scriptedTurns: script.turns,
      summarizerTurns: summarizer?.turns,
      verifyPath: join(dir, "verify.mjs"),
    });
  }
  return cases;
}
