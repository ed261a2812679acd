import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, processAlive, processGoneWithin, startScriptedSession } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("AgentSession.dispose", () => {
  it("kills the commands the session left running in the background", async () => {
    const scripted = await startScriptedSession([
      {
        tool_calls: [
          {
            name: "run_terminal_cmd",
            arguments: {
              command: "sleep 30 & echo $! > child.pid; echo $$ > leader.pid; wait",
              is_background: true,
            },
          },
        ],
      },
      { text: "The server runs in the background." },
    ]);
    server = scripted.server;
    const result = await scripted.session.send("start it");
    expect(result.status).toBe("completed");
    const pids = ["leader.pid", "child.pid"].map((file) =>
      Number.parseInt(readFileSync(join(scripted.projectRoot, file), "utf8"), 10),
    );
    for (const pid of pids) expect(processAlive(pid)).toBe(true);

    await scripted.session.dispose();
    for (const pid of pids) expect(await processGoneWithin(pid)).toBe(true);
  });
});
