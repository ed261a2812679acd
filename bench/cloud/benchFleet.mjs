// Real `lathe worker` processes for the cloud bench, each on its own scripted model and $LATHE_HOME.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readTask } from "../../packages/cloud/dist/index.js";
import { fakeKeys, startFakeLlm } from "../../packages/testkit/dist/index.js";

const lathe = fileURLToPath(new URL("../../packages/cli/bin/lathe", import.meta.url));

/** A worker on its own scripted model, or on `shared` (a model server several workers ask). */
export async function startBenchWorker(url, deviceId, turns, shared) {
  const model = shared ?? (await startFakeLlm({ script: { turns } }));
  const home = mkdtempSync(path.join(tmpdir(), "lathe-bench-worker-"));
  writeFileSync(
    path.join(home, "settings.json"),
    JSON.stringify({ model: "openai:gpt-4.1", baseUrls: { openai: `${model.url}/v1` } }),
  );
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/_API_KEY$|^LATHE_/.test(key)),
  );
  const child = spawn(lathe, ["worker", "--database", url, "--device", deviceId, "--grace", "1"], {
    env: { ...env, HOME: home, LATHE_HOME: home, OPENAI_API_KEY: fakeKeys.openaiBench },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let said = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    said += chunk;
  });
  const exited = new Promise((resolve) => child.on("close", resolve));
  const deadline = Date.now() + 20_000;
  while (!said.includes("ready")) {
    if (Date.now() > deadline) throw new Error(`worker ${deviceId} did not start:\n${said}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
      if (shared === undefined) await model.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export async function taskDone(database, taskId, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await readTask(database.pool, taskId);
    if (task.status === "completed") return task;
    if (task.status === "failed" || task.status === "cancelled")
      throw new Error(`task ${taskId} ${task.status}: ${task.error?.message ?? "no error stored"}`);
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function tempRepository(files = { "a.txt": "first\n" }) {
  const dir = mkdtempSync(path.join(tmpdir(), "lathe-bench-repo-"));
  for (const [name, contents] of Object.entries(files)) writeFileSync(path.join(dir, name), contents);
  const git = (...args) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: dir });
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  return dir;
}
