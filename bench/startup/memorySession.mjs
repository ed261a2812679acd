// Run by bench.mjs in a process of its own: resident memory after a session's first message and
// after 100 more turns (each message answered after a read_file of ~4 KB), garbage collected
// before each reading and every 20 turns. The scripted model server runs in a child process, so what it records
// does not count against the engine. Prints one JSON line.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import {
  AgentSession,
  builtinTools,
  createModelClient,
  ToolRegistry,
} from "../../packages/core/dist/index.js";

const turns = 100;
const fakeLlm = fileURLToPath(new URL("../../packages/testkit/bin/lathe-fake-llm.js", import.meta.url));
const base = mkdtempSync(path.join(tmpdir(), "lathe-bench-memory-"));
const projectRoot = path.join(base, "project");
mkdirSync(path.join(projectRoot, "notes"), { recursive: true });
for (let i = 0; i < 10; i++)
  writeFileSync(path.join(projectRoot, "notes", `${i}.txt`), "note line with some words in it\n".repeat(128));

const script = [{ text: "ready" }];
for (let i = 0; i < turns; i++) {
  script.push({ tool_calls: [{ name: "read_file", arguments: { path: `notes/${i % 10}.txt` } }] });
  script.push({ text: `Turn ${i + 1}: read notes/${i % 10}.txt.` });
}
const scriptFile = path.join(base, "script.json");
writeFileSync(scriptFile, JSON.stringify({ turns: script }));
const server = spawn(process.execPath, [fakeLlm, "--script", scriptFile], {
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((resolve) => {
  createInterface({ input: server.stdout }).once("line", (line) => resolve(line.replace(/^listening /, "")));
});

const client = createModelClient({
  modelId: "openai:gpt-4.1",
  baseUrl: `${url}/v1`,
  apiKey: "sk-bench",
  env: {},
  latheHome: base,
});
if (!client.ok) throw new Error(client.error.message);
const session = new AgentSession({
  projectRoot,
  latheHome: path.join(base, "home"),
  model: client.client,
  tools: new ToolRegistry(builtinTools()),
  approvalMode: "yolo",
});
const freshMb = rssMb();
await session.send("Get ready.");
const startMb = rssMb();
const startHeapMb = heapMb();
const checkpoints = [];
for (let i = 0; i < turns; i++) {
  const result = await session.send(`Read note ${i % 10}.`);
  if (result.status !== "completed") throw new Error(`memory bench: turn ${i + 1} ended ${result.status}`);
  // A collection every 20 turns, as an idle CLI would get between messages: without it RSS only
  // shows how far V8 let garbage pile up, not what the session keeps.
  if ((i + 1) % 20 === 0) checkpoints.push(rssMb());
}
const endMb = rssMb();
const endHeapMb = heapMb();
await session.dispose();
server.kill();
console.log(JSON.stringify({ freshMb, startMb, endMb, startHeapMb, endHeapMb, checkpoints }));

function rssMb() {
  globalThis.gc?.();
  globalThis.gc?.();
  return Math.round((process.memoryUsage().rss / 2 ** 20) * 10) / 10;
}

function heapMb() {
  const { heapUsed, heapTotal } = process.memoryUsage();
  return `${Math.round(heapUsed / 2 ** 20)}/${Math.round(heapTotal / 2 ** 20)}`;
}
