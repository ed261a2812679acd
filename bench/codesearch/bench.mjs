// codebase_search and the code index (SPEC §6). The corpus is real TypeScript available offline:
// the sources of zod, @ai-sdk/provider-utils and @ai-sdk/openai from node_modules (their `src`
// folders, tests included), copied into a temp project. Measured: the cold index build, a refresh
// with nothing changed, a refresh after one file changed (full walk, and just that path), the
// repo map, recall@5 and MRR of BM25 + symbol names over queries whose right answers are known
// (queries.mjs), and query latency. The index lives in a real session database in a temp dir.
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CodeIndex } from "../../packages/core/dist/codeIntel/index.js";
import { SessionStore } from "../../packages/core/dist/index.js";
import { queries } from "./queries.mjs";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const sources = [
  ["zod", "node_modules/zod/src"],
  ["provider-utils", "node_modules/@ai-sdk/provider-utils/src"],
  ["openai", "node_modules/@ai-sdk/openai/src"],
];
const topK = 5;
const latencyRounds = 5;
const noOpRounds = 5;
const changedFile = "provider-utils/delay.ts";
/** CODESEARCH_VERBOSE=1 prints every query's rank and top hits, not only the misses. */
const verbose = process.env.CODESEARCH_VERBOSE === "1";

export async function run() {
  const base = mkdtempSync(path.join(tmpdir(), "lathe-bench-codesearch-"));
  try {
    const projectRoot = path.join(base, "project");
    for (const [name, source] of sources)
      cpSync(path.join(repoRoot, source), path.join(projectRoot, name), { recursive: true });
    const dbPath = path.join(base, "home", "lathe.db");
    const opened = SessionStore.open(dbPath);
    if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
    const store = opened.value;
    const index = CodeIndex.open({ db: store.db, projectRoot });

    const cold = await index.refresh();
    const noOp = median(await repeat(noOpRounds, async () => (await index.refresh()).ms));
    const changed = await changeOneFile(index, projectRoot);
    const mapStarted = performance.now();
    const map = index.repoMap({ maxTokens: 2000 });
    const mapMs = performance.now() - mapStarted;
    const quality = await measureQueries(index, projectRoot);
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const dbBytes = statSync(dbPath).size;
    store.close();

    return [
      { metric: "corpus files indexed", value: cold.files, unit: "files" },
      { metric: "corpus chunks", value: cold.chunks, unit: "chunks" },
      { metric: "index build (cold)", value: cold.ms, unit: "ms" },
      { metric: `refresh, nothing changed (median of ${noOpRounds})`, value: round(noOp), unit: "ms" },
      { metric: "refresh after a one-file change", value: changed.refreshMs, unit: "ms" },
      { metric: "  files re-indexed", value: changed.changed, unit: "files" },
      { metric: "refreshPaths of the changed file", value: round(changed.refreshPathsMs), unit: "ms" },
      { metric: "repo map, 2,000 tokens", value: round(mapMs), unit: "ms" },
      { metric: "  repo map size", value: Math.ceil(map.length / 4), unit: "tokens (chars/4)" },
      { metric: "index size in the database", value: round(dbBytes / 1e6), unit: "MB" },
      { metric: "queries", value: quality.count, unit: "queries" },
      { metric: `recall@${topK} (BM25 + symbols)`, value: round(quality.recall), unit: "fraction" },
      ...quality.byKind.map(({ kind, recall, count }) => ({
        metric: `  recall@${topK}, ${kind} (${count})`,
        value: round(recall),
        unit: "fraction",
      })),
      { metric: "MRR (first right answer in the top 10)", value: round(quality.mrr), unit: "" },
      { metric: "query latency p50", value: round(quantile(quality.latencies, 0.5)), unit: "ms" },
      { metric: "query latency p95", value: round(quantile(quality.latencies, 0.95)), unit: "ms" },
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Appends a function to one file, then refreshes twice: the whole project, and that path alone. */
async function changeOneFile(index, projectRoot) {
  const absolute = path.join(projectRoot, changedFile);
  const original = readFileSync(absolute, "utf8");
  writeFileSync(absolute, `${original}\nexport function benchAddedHelper(): number {\n  return 1;\n}\n`);
  const refreshed = await index.refresh();
  if (refreshed.changed !== 1) throw new Error(`expected 1 changed file, got ${refreshed.changed}`);
  writeFileSync(absolute, `${original}\nexport function benchAddedHelper(): number {\n  return 2;\n}\n`);
  const started = performance.now();
  await index.refreshPaths([changedFile]);
  return { refreshMs: refreshed.ms, changed: refreshed.changed, refreshPathsMs: performance.now() - started };
}

async function measureQueries(index, projectRoot) {
  const signal = new AbortController().signal;
  const latencies = [];
  const results = [];
  for (const { kind, query, answers } of queries) {
    const targets = answers.map((answer) => resolveAnswer(answer, projectRoot));
    let hits = [];
    for (let round = 0; round < latencyRounds; round++) {
      const started = performance.now();
      hits = await index.search(query, { limit: 10 }, signal);
      latencies.push(performance.now() - started);
    }
    const rank = hits.findIndex((hit) => targets.some((target) => matches(hit, target))) + 1;
    results.push({ kind, rank });
    if (verbose || rank === 0 || rank > topK) report(query, rank, hits, answers);
  }
  const recallOf = (list) => list.filter(({ rank }) => rank > 0 && rank <= topK).length / list.length;
  const kinds = [...new Set(results.map(({ kind }) => kind))];
  return {
    count: results.length,
    recall: recallOf(results),
    byKind: kinds.map((kind) => {
      const ofKind = results.filter((result) => result.kind === kind);
      return { kind, count: ofKind.length, recall: recallOf(ofKind) };
    }),
    mrr: results.reduce((sum, { rank }) => sum + (rank > 0 ? 1 / rank : 0), 0) / results.length,
    latencies,
  };
}

/** An answer with its `needle` turned into the line it is on. */
function resolveAnswer(answer, projectRoot) {
  if (answer.needle === undefined) return answer;
  const lines = readFileSync(path.join(projectRoot, answer.path), "utf8").split("\n");
  const line = lines.findIndex((text) => text.includes(answer.needle)) + 1;
  if (line === 0) throw new Error(`${answer.path} no longer contains ${JSON.stringify(answer.needle)}`);
  return { ...answer, line };
}

function matches(hit, target) {
  if (hit.path !== target.path) return false;
  if (target.symbol !== undefined && hit.symbol !== target.symbol) return false;
  return target.line === undefined || (hit.startLine <= target.line && target.line <= hit.endLine);
}

function report(query, rank, hits, answers) {
  const where = rank === 0 ? "not in the top 10" : `at rank ${rank}`;
  const expected = answers
    .map((answer) => [answer.path, answer.symbol].filter(Boolean).join(" "))
    .join(" | ");
  const label = rank === 0 || rank > topK ? "miss" : "hit";
  console.log(`${label}: ${JSON.stringify(query)} ${where}; expected ${expected}`);
  for (const hit of hits.slice(0, topK)) {
    console.log(`    ${hit.path}:${hit.startLine}-${hit.endLine} ${hit.symbol ?? ""} (${round(hit.score)})`);
  }
}

async function repeat(times, work) {
  const values = [];
  for (let i = 0; i < times; i++) values.push(await work());
  return values;
}

function median(values) {
  return quantile(values, 0.5);
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function round(value) {
  return Math.round(value * 100) / 100;
}
