// Context engine (SPEC §6): a long scripted session — 40 rounds that read large files and run
// commands with long output — played twice over real HTTP: on a 32k-token window, where the
// history is compacted, and on a 1M window, where it never is. Reports the request sizes the
// scripted server received, the compactions and their summaries, and the time to assemble one
// request's context (rules, dynamic context with three open files, compaction check, token
// estimate) on a 2,000-file project.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { builtinTools, ToolRegistry } from "../../packages/core/dist/index.js";
import { requestTokens, startScriptedSession } from "../../packages/testkit/dist/index.js";

const projectFiles = 2000;
const rounds = 40;
const assemblies = 60;
const smallWindow = 32_000;

export async function run() {
  const root = mkdtempSync(path.join(tmpdir(), "lathe-bench-context-"));
  try {
    writeProject(root);
    const compacted = await playSession(root, smallWindow);
    const whole = await playSession(root, 1_000_000);
    const compactions = compacted.events.filter((event) => event.type === "compaction");
    const summaries = compactions
      .filter((event) => event.summarized)
      .map((event) => event.summaryTokens ?? 0);
    return [
      {
        metric: `peak request, ${smallWindow / 1000}k window (compacting)`,
        value: max(compacted.sizes),
        unit: "tokens",
        target: `< ${smallWindow}`,
      },
      { metric: "mean request, compacting", value: mean(compacted.sizes), unit: "tokens" },
      { metric: "peak request, never compacted", value: max(whole.sizes), unit: "tokens" },
      { metric: "mean request, never compacted", value: mean(whole.sizes), unit: "tokens" },
      { metric: "compactions", value: compactions.length, unit: "" },
      { metric: "  of which summarized", value: summaries.length, unit: "" },
      {
        metric: "  outputs pruned",
        value: compactions.reduce((sum, event) => sum + event.prunedOutputs, 0),
        unit: "",
      },
      { metric: "summary size (mean)", value: mean(summaries), unit: "tokens" },
      {
        metric: "compaction time (median)",
        value: round(median(compactions.map((event) => event.durationMs))),
        unit: "ms",
      },
      {
        metric: `assemble one request, ${projectFiles} files (median)`,
        value: round(median(whole.assemblyMs)),
        unit: "ms",
        target: "< 10",
      },
      { metric: "assemble one request (p95)", value: round(quantile(whole.assemblyMs, 0.95)), unit: "ms" },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** 2,000 source files in 40 folders, project rules, and an AGENTS.md. */
function writeProject(root) {
  for (let i = 0; i < projectFiles; i++) {
    const dir = path.join(root, "src", `area${String(i % 40).padStart(2, "0")}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `module${i}.ts`), moduleText(i, i % 50 === 0 ? 300 : 30));
  }
  mkdirSync(path.join(root, ".lathe", "rules"), { recursive: true });
  writeFileSync(
    path.join(root, "AGENTS.md"),
    "# Project\n\nRun `npm test` after changes. Keep functions small.\n",
  );
  writeFileSync(
    path.join(root, ".lathe", "rules", "typescript.md"),
    "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\n---\nUse named exports. No default exports.\n",
  );
}

function moduleText(i, functions) {
  const lines = [`// Module ${i}.`];
  for (let f = 0; f < functions; f++) {
    lines.push(
      `export function step${i}x${f}(values: readonly number[]): number {`,
      `  return values.reduce((total, value) => (total * 31 + value + ${f}) % 1000003, ${i});`,
      "}",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Reads of the large modules alternate with commands printing ~1,500 lines. */
function script() {
  const turns = [];
  for (let r = 0; r < rounds; r++) {
    const call =
      r % 2 === 0
        ? {
            name: "read_file",
            arguments: {
              path: `src/area${String((r * 50) % 40).padStart(2, "0")}/module${(r * 50) % projectFiles}.ts`,
            },
          }
        : { name: "run_terminal_cmd", arguments: { command: `seq ${r * 1500 + 1} ${(r + 1) * 1500}` } };
    turns.push({ text: `Round ${r + 1}: checking the next piece.`, tool_calls: [call] });
  }
  turns.push({ text: "Done: every module and block checked." });
  return turns;
}

const summary = {
  text: "## Goal\nCheck every large module and print the number blocks.\n## Decisions\nOne read or command per round.\n## Files touched\nsrc/area*/module*.ts (read only)\n## Open todos\nThe remaining rounds.\n## Next step\nContinue with the next round.",
};

async function playSession(root, window) {
  const session = await startScriptedSession(script(), {
    projectRoot: root,
    context: { window },
    maxIterations: rounds + 5,
    summarizerTurns: Array.from({ length: rounds }, () => summary),
  });
  try {
    const editor = {
      openFiles: [0, 50, 100].map((i) => ({
        path: `src/area${String(i % 40).padStart(2, "0")}/module${i}.ts`,
        cursor: { line: 40, column: 3 },
      })),
      activeFile: "src/area00/module0.ts",
      diagnostics: [],
    };
    session.session.updateEditor({ full: editor });
    const result = await session.session.send(
      "Check each large module and print the number blocks, one per round.",
    );
    if (result.status !== "completed") throw new Error(`context bench: the session ended ${result.status}`);
    const sizes = session.server.requests.map((request) => requestTokens(request.body));
    const assemblyMs = window > smallWindow ? await timeAssembly(session) : [];
    return { sizes, events: session.events, assemblyMs };
  } finally {
    await session.close();
  }
}

/** Times what the engine does before each request, on the session's full history. */
async function timeAssembly(scripted) {
  const specs = new ToolRegistry(builtinTools()).specs(() => true);
  const times = [];
  for (let i = 0; i < assemblies; i++) {
    const started = performance.now();
    await scripted.session.context.prepare({
      history: scripted.session.messages,
      mode: "agent",
      specs,
      applyPatch: false,
      sessionId: scripted.session.id,
      signal: new AbortController().signal,
    });
    times.push(performance.now() - started);
  }
  return times.slice(5);
}

const max = (values) => (values.length ? Math.max(...values) : 0);
const mean = (values) => (values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0);
const median = (values) => quantile(values, 0.5);
function quantile(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const round = (value) => Math.round(value * 100) / 100;
