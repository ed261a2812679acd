// search_files against raw ripgrep (SPEC §10, target: within 1.2× of ripgrep on a large repository).
// The tree is real source without the internet: copies of the TypeScript compiler (lib/, ~23 MB of
// JavaScript and declarations) and of the other packages in node_modules, in a temp directory.
// Each pattern runs ripgrep alone (the exact argv the tool uses, its JSON output drained from a
// pipe and dropped), then search_files with the ripgrep engine, then with the JavaScript fallback;
// the figures are medians over several runs after a warm-up (files in the page cache).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { executableOnPath } from "../../packages/core/dist/tools/builtin/searchFiles/executableOnPath.js";
import { ripgrepArguments } from "../../packages/core/dist/tools/builtin/searchFiles/ripgrepEngine.js";
import { createSearchFilesTool } from "../../packages/core/dist/tools/builtin/searchFiles/searchFiles.js";
import { FileReadLedger } from "../../packages/core/dist/tools/fileReadLedger.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const typescriptCopies = 3;
const runs = 7;
const jsRuns = 3;

const patterns = [
  { name: "literal", args: { pattern: "createSourceFile" } },
  { name: "regex", args: { pattern: "function\\s+\\w+Node\\(" } },
  { name: "case-insensitive", args: { pattern: "deprecated", case_insensitive: true } },
  { name: "broad (many matches)", args: { pattern: "return" } },
];

export async function run() {
  const ripgrep = await executableOnPath("rg");
  if (ripgrep === undefined) {
    console.log(
      "ripgrep is not installed: only the JavaScript engine can be measured, and there is no ratio.",
    );
  }
  const corpus = buildCorpus();
  try {
    const figures = [{ metric: "corpus", value: Math.round(corpus.bytes / 2 ** 20), unit: "MB" }];
    figures.push({ metric: "corpus files", value: corpus.files, unit: "files" });
    for (const { name, args } of patterns) figures.push(...(await measure(name, args, corpus.root, ripgrep)));
    return figures;
  } finally {
    rmSync(corpus.root, { recursive: true, force: true });
  }
}

async function measure(name, args, root, ripgrep) {
  const ctx = toolContext(root);
  const figures = [];
  const jsTool = createSearchFilesTool({ engine: "js", searchTimeoutMs: 600_000 });
  let rgMedian;
  let matches;
  if (ripgrep !== undefined) {
    const rgTool = createSearchFilesTool({ engine: "ripgrep", searchTimeoutMs: 600_000 });
    const argv = ripgrepArguments(queryFor(args, root));
    await rawRipgrep(ripgrep, argv, root);
    await rgTool.execute(args, ctx);
    const raw = [];
    const tool = [];
    // Interleaved, so that drift in the machine's load affects both alike.
    for (let i = 0; i < runs; i++) {
      raw.push(await timed(() => rawRipgrep(ripgrep, argv, root)));
      tool.push(
        await timed(async () => {
          const result = await rgTool.execute(args, ctx);
          if (!result.ok) throw new Error(`search_files failed: ${result.error.message}`);
          matches = result.metadata.totalMatches;
        }),
      );
    }
    rgMedian = median(raw);
    const toolMedian = median(tool);
    figures.push({ metric: `${name}: ripgrep alone`, value: round(rgMedian), unit: "ms" });
    figures.push({ metric: `${name}: search_files (ripgrep)`, value: round(toolMedian), unit: "ms" });
    figures.push({
      metric: `${name}: search_files / ripgrep`,
      value: round(toolMedian / rgMedian),
      unit: "×",
      target: "≤ 1.2",
    });
  }
  const js = [];
  for (let i = 0; i < jsRuns; i++) {
    js.push(
      await timed(async () => {
        const result = await jsTool.execute(args, ctx);
        if (!result.ok) throw new Error(`search_files (js) failed: ${result.error.message}`);
        if (matches !== undefined && result.metadata.totalMatches !== matches) {
          throw new Error(
            `the engines disagree on ${name}: ${matches} vs ${result.metadata.totalMatches} matches`,
          );
        }
        matches = result.metadata.totalMatches;
      }),
    );
  }
  figures.push({ metric: `${name}: matching lines`, value: matches, unit: "lines" });
  figures.push({ metric: `${name}: JS fallback`, value: round(median(js)), unit: "ms" });
  if (rgMedian !== undefined) {
    figures.push({
      metric: `${name}: JS fallback / ripgrep`,
      value: round(median(js) / rgMedian),
      unit: "×",
    });
  }
  return figures;
}

/** ripgrep with the tool's argv, its output read from a pipe and dropped. */
function rawRipgrep(ripgrep, argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(ripgrep, argv, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.on("data", () => {});
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 || code === 1 ? resolve() : reject(new Error(`rg exited ${code}`)),
    );
  });
}

function queryFor(args, root) {
  return {
    projectRoot: root,
    target: { absolute: root, relative: ".", isFile: false },
    pattern: args.pattern,
    caseInsensitive: args.case_insensitive ?? false,
    contextLines: args.context_lines ?? 0,
    matchLimit: 100,
    signal: new AbortController().signal,
    timeoutMs: 600_000,
  };
}

function buildCorpus() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-bench-search-")));
  const modules = join(repoRoot, "node_modules");
  for (let copy = 1; copy <= typescriptCopies; copy++) {
    cpSync(join(modules, "typescript", "lib"), join(root, `typescript-${copy}`, "lib"), { recursive: true });
  }
  // The other packages, under a name the built-in ignores do not skip.
  for (const name of readdirSync(modules)) {
    if (name === "typescript" || name.startsWith(".")) continue;
    cpSync(join(modules, name), join(root, "packages", name), { recursive: true, dereference: false });
  }
  const counted = countSearched(root);
  return { root, ...counted };
}

/** Files and bytes the tool searches (its ignores applied), so the figure says what was measured. */
function countSearched(root) {
  let files = 0;
  let bytes = 0;
  const skipped = new Set(["node_modules", "dist", "build", ".git", "coverage", "target"]);
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory() && !skipped.has(entry.name)) walk(path);
      else if (entry.isFile()) {
        files++;
        bytes += statSync(path).size;
      }
    }
  };
  walk(root);
  return { files, bytes };
}

function toolContext(projectRoot) {
  return {
    projectRoot,
    sessionId: "bench",
    callId: "bench",
    latheHome: join(tmpdir(), "lathe-bench-home"),
    signal: new AbortController().signal,
    emitOutput() {},
    fileReads: new FileReadLedger(),
    outputLimits: { maxLines: 2000, maxBytes: 50 * 1024 },
  };
}

async function timed(action) {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const round = (n) => Math.round(n * 100) / 100;
