// The memory of a real `lathe serve` (built, with the flags of its shebang) when `count` runs
// start at once, each in its own project with the default sandbox and checkpoints: it reads a
// file, edits it, runs a command and answers. RSS is the serve process and its children, sampled
// every 20 ms from the first request to the end; settled is taken 5 s after the last run ended,
// with the sessions still open as the web UI leaves them. Each figure is given for the serve
// process alone and for its whole process tree (serve plus git, bwrap, shells and commands).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { openEventStream } from "../../packages/server/dist/index.js";
import { fakeKeys } from "../../packages/testkit/dist/index.js";
import { sampleRss } from "./processTreeRss.mjs";
import { startTaskModels, taskMarker } from "./taskModels.mjs";

const lathe = fileURLToPath(new URL("../../packages/cli/bin/lathe.js", import.meta.url));
const settleMs = 5000;

/** The V8 flags `lathe` runs with (its shebang). */
function launcherHeapFlags() {
  const shebang = readFileSync(lathe, "utf8").split("\n", 1)[0];
  return shebang.split(/\s+/).filter((word) => word.startsWith("--"));
}

const taskScript = {
  turns: [
    { tool_calls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
    {
      tool_calls: [
        { name: "edit_file", arguments: { path: "notes.txt", old_string: "alpha", new_string: "beta" } },
      ],
    },
    { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "cat notes.txt && ls src" } }] },
    { text: "Changed alpha to beta in notes.txt." },
  ],
};

const projectFiles = {
  "notes.txt": "alpha\n",
  "README.md": "# A small project\n\nA greeting library.\n",
  "package.json": '{ "name": "greeting", "type": "module" }\n',
  "src/greet.ts": 'export function greet(name: string): string {\n  return "Hello, " + name;\n}\n',
  "src/farewell.ts": 'export function farewell(name: string): string {\n  return "Goodbye, " + name;\n}\n',
};

function makeProject(root) {
  for (const [file, text] of Object.entries(projectFiles)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

/** Starts `lathe serve` and resolves with its origin and token once it prints its URL. */
async function startServe(cwd, env) {
  const child = spawn(process.execPath, [...launcherHeapFlags(), lathe, "serve"], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`lathe serve exited with ${code}`)));
  });
  const url = new URL(line.replace(/^Lathe is serving at /, ""));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    child,
    origin: url.origin,
    token: url.searchParams.get("token") ?? "",
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function measureServeMemory(count) {
  const base = mkdtempSync(path.join(tmpdir(), "lathe-bench-serve-"));
  const home = path.join(base, "home");
  const latheHome = path.join(base, "lathe-home");
  const projects = Array.from({ length: count }, (_, i) => path.join(base, "projects", `p${i}`));
  mkdirSync(home, { recursive: true });
  mkdirSync(latheHome, { recursive: true });
  for (const project of projects) makeProject(project);
  const models = await startTaskModels(projects.map(() => taskScript));
  writeFileSync(
    path.join(latheHome, "settings.json"),
    JSON.stringify({
      model: "openai:gpt-4.1",
      baseUrls: { openai: `${models.url}/v1` },
      approvalMode: "yolo",
    }),
  );
  const env = { ...process.env, HOME: home, LATHE_HOME: latheHome, OPENAI_API_KEY: fakeKeys.openaiBench };
  delete env.LATHE_MODEL;
  const serve = await startServe(base, env);
  const headers = { authorization: `Bearer ${serve.token}`, "content-type": "application/json" };
  const rss = sampleRss(serve.child.pid);
  const idleBytes = rss.now();
  try {
    const started = performance.now();
    const runs = await Promise.all(
      projects.map(async (projectRoot, index) => {
        const created = await fetch(`${serve.origin}/api/sessions`, {
          method: "POST",
          headers,
          body: JSON.stringify({ projectRoot }),
        });
        if (created.status !== 201) return { reason: `open: HTTP ${created.status} ${await created.text()}` };
        const { id } = await created.json();
        const stream = await openEventStream({ origin: serve.origin, token: serve.token, sessionId: id });
        await fetch(`${serve.origin}/api/sessions/${id}/messages`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            text: `${taskMarker(index)} Change alpha to beta in notes.txt and show it.`,
          }),
        });
        const done = await stream.waitFor((message) => message.type === "run_complete", 300_000);
        await stream.close();
        return { reason: done.reason };
      }),
    );
    const wallMs = performance.now() - started;
    const peakBytes = rss.peak();
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    const settledBytes = rss.now();
    const edited = projects.filter(
      (project) => readFileSync(path.join(project, "notes.txt"), "utf8") === "beta\n",
    ).length;
    const failures = runs.filter((run) => run.reason !== "completed").map((run) => run.reason);
    return {
      count,
      completed: runs.length - failures.length,
      edited,
      failures: [...new Set(failures)],
      misrouted: models.misrouted(),
      idleMb: megabytes(idleBytes.root),
      peakMb: megabytes(peakBytes.root),
      settledMb: megabytes(settledBytes.root),
      treePeakMb: megabytes(peakBytes.tree),
      treeSettledMb: megabytes(settledBytes.tree),
      samples: rss.samples(),
      wallMs: Math.round(wallMs),
    };
  } finally {
    rss.stop();
    await serve.stop();
    await models.close();
    rmSync(base, { recursive: true, force: true });
  }
}

const megabytes = (bytes) => Math.round(bytes / 2 ** 20);
