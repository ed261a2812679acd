import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseModelId, resolveApiKey } from "@lathe/core";
import { type CaseModel, type CaseOutcome, loadEvalCases, runEvalCase } from "@lathe/testkit";
import { exitCodes } from "./exitCodes.js";
import { latheHomeFrom } from "./latheHome.js";
import { clientFor } from "./modelClients.js";
import { type CommandIo, parseSubcommand } from "./subcommandArgs.js";
import { loadUserSettings } from "./userSettings.js";

export const evalUsage = `Usage: lathe eval [options]

Runs the evaluation cases (eval/cases): each case's fixture project, task and verify script.
Without --model every case plays its scripted model, as CI does; with --model a real model does
the work, its key taken from the environment or credentials.json (no key: the run is skipped).
Prints, per case: pass, model requests, tool calls, tokens, cost, time, errors recovered, and the
scores (completion, efficiency, recovery, security; 0-10).

Options:
      --model PROVIDER:MODEL  the model to evaluate (default: the scripted models)
      --cases ID,ID           only these cases (e.g. AC01,E07)
      --repeat N              run each case N times (default 1)
      --cases-dir DIR         where the cases are (default: ./eval/cases, else Lathe's own)
      --json                  print the outcomes as JSON
  -h, --help                  this help
Exit codes: 0 every run passed (or skipped for want of a key), 1 some failed, 2 misuse.
`;

const options = {
  model: { type: "string" },
  cases: { type: "string" },
  repeat: { type: "string" },
  "cases-dir": { type: "string" },
} as const;

export async function runEvalCommand(io: CommandIo): Promise<number> {
  const args = parseSubcommand(io, "eval", evalUsage, options);
  if (!args.ok) return args.code;
  const repeat = args.values.repeat === undefined ? 1 : Number(args.values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) return args.misuse("--repeat must be a positive whole number");
  const casesDir = args.values["cases-dir"] ?? defaultCasesDir(io.cwd);
  if (!existsSync(casesDir)) return args.misuse(`no cases at ${casesDir}; pass --cases-dir`);
  const only = args.values.cases
    ?.split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const cases = loadEvalCases(casesDir, only);
  if (cases.length === 0) return args.misuse(`no case matches ${args.values.cases}`);
  const model = caseModel(args.values.model, io);
  if (!model.ok) {
    if (model.skip) {
      io.stderr(`lathe eval: skipped: ${model.reason}\n`);
      return exitCodes.completed;
    }
    return args.misuse(model.reason);
  }
  const outcomes: CaseOutcome[] = [];
  for (const evalCase of cases) {
    for (let round = 0; round < repeat; round++) {
      const outcome = await runEvalCase(evalCase, model.model);
      outcomes.push(outcome);
      if (!args.values.json) io.stdout(`${caseLine(outcome)}\n`);
    }
  }
  if (args.values.json) io.stdout(`${JSON.stringify(outcomes.map(summary))}\n`);
  else io.stdout(`${totalsLine(outcomes, args.values.model ?? "scripted models")}\n`);
  return outcomes.every((outcome) => outcome.pass) ? exitCodes.completed : exitCodes.error;
}

function defaultCasesDir(cwd: string): string {
  const local = join(cwd, "eval", "cases");
  return existsSync(local) ? local : fileURLToPath(new URL("../../../eval/cases", import.meta.url));
}

function caseModel(
  modelId: string | undefined,
  io: CommandIo,
): { ok: true; model: CaseModel } | { ok: false; skip: boolean; reason: string } {
  if (modelId === undefined) return { ok: true, model: { kind: "scripted" } };
  const parsed = parseModelId(modelId);
  if (!parsed.ok) return { ok: false, skip: false, reason: parsed.error.message };
  const latheHome = latheHomeFrom(io.env);
  const key = resolveApiKey(parsed.modelId.provider, { env: io.env, latheHome });
  if (!key.ok) return { ok: false, skip: true, reason: key.error.message };
  const loaded = loadUserSettings(latheHome);
  const client = clientFor(modelId, { settings: loaded.ok ? loaded.settings : {}, env: io.env, latheHome });
  if (!client.ok) return { ok: false, skip: false, reason: client.error.message };
  return { ok: true, model: { kind: "real", client: client.client } };
}

function summary(outcome: CaseOutcome) {
  return {
    id: outcome.id,
    pass: outcome.pass,
    status: outcome.result.status,
    iterations: outcome.result.iterations,
    toolCalls: outcome.toolCalls.length,
    usage: outcome.result.usage,
    wallMs: outcome.wallMs,
    scores: outcome.scores,
    failures: outcome.failures,
  };
}

function caseLine(outcome: CaseOutcome): string {
  const { scores, result } = outcome;
  const tokens = result.usage.inputTokens + result.usage.outputTokens;
  const failures = outcome.pass ? "" : `\n    ${outcome.failures.join("\n    ")}`;
  return `${outcome.pass ? "PASS" : "FAIL"} ${outcome.id.padEnd(5)} ${String(result.iterations).padStart(2)} requests ${String(outcome.toolCalls.length).padStart(3)} calls ${String(tokens).padStart(7)} tokens $${result.usage.costUsd.toFixed(4)} ${(outcome.wallMs / 1000).toFixed(1).padStart(5)} s  recovered ${scores.recovered}/${scores.errors}  scores ${scores.completion}/${scores.efficiency}/${scores.recovery}/${scores.security} = ${scores.total}${failures}`;
}

function totalsLine(outcomes: readonly CaseOutcome[], model: string): string {
  const passed = outcomes.filter((outcome) => outcome.pass).length;
  const mean = outcomes.reduce((sum, outcome) => sum + outcome.scores.total, 0) / outcomes.length;
  const cost = outcomes.reduce((sum, outcome) => sum + outcome.result.usage.costUsd, 0);
  return `\n${model}: ${passed}/${outcomes.length} passed, mean score ${mean.toFixed(1)}/10, cost $${cost.toFixed(4)}`;
}
