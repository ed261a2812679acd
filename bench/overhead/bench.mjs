// Harness overhead (SPEC §10, target < 5 ms): the time Lathe spends between the end of one model
// stream and the start of the next request, over a 50-round scripted session, with the time
// spent inside tools taken out. Both ends are stamped by the scripted server on one clock:
// when it finished writing answer N and when request N+1 arrived.
import { startScriptedSession } from "@lathe/testkit";

const rounds = 50;

export async function run() {
  const figures = [];
  for (const modelId of ["openai:gpt-4.1", "anthropic:claude-sonnet-4-5", "google:gemini-2.5-pro"]) {
    const label = modelId.split(":")[0];
    const { gaps, bytes } = await measure(modelId);
    const sorted = [...gaps].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    figures.push({ metric: `${label}: overhead median`, value: round(at(0.5)), unit: "ms", target: "< 5" });
    figures.push({ metric: `${label}: overhead p95`, value: round(at(0.95)), unit: "ms" });
    // What one round of a read_file call adds to every later request: its call and its result.
    figures.push({
      metric: `${label}: request bytes, first / last / added per round`,
      value: `${bytes[0]} / ${bytes.at(-1)} / ${round((bytes.at(-1) - bytes[0]) / (bytes.length - 1))}`,
      unit: "B",
    });
  }
  return figures;
}

async function measure(modelId) {
  const turns = Array.from({ length: rounds }, (_, i) => ({
    text: `Round ${i + 1}: reading the file again.`,
    tool_calls: [{ name: "read_file", arguments: { path: "data.txt", offset: (i % 5) + 1, limit: 3 } }],
  }));
  turns.push({ text: "Done." });
  const { session, server } = await startScriptedSession(turns, {
    modelId,
    maxIterations: rounds + 1,
    files: { "data.txt": Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") },
  });
  const toolTime = [];
  let started = 0;
  session.subscribe((event) => {
    if (event.type === "tool_executing") started = performance.now();
    if (event.type === "tool_completed" || event.type === "tool_failed")
      toolTime.push(performance.now() - started);
  });
  const result = await session.send("read data.txt fifty times");
  await server.close();
  if (result.status !== "completed") throw new Error(`bench session ended ${result.status}`);
  const gaps = [];
  for (let i = 0; i + 1 < server.requests.length; i++) {
    gaps.push(server.requests[i + 1].receivedAt - server.requests[i].respondedAt - toolTime[i]);
  }
  return { gaps, bytes: server.requests.map((request) => request.bytes) };
}

const round = (n) => Math.round(n * 100) / 100;
