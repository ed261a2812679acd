import { afterEach, describe, expect, it } from "vitest";
import { closeScriptedModels, eventually, modelArgs, scriptedModel } from "./scriptedTerminal.js";
import { closeTerminals, processesMatching, startTerminal } from "./terminalScreen.js";

afterEach(async () => {
  await closeTerminals();
  await closeScriptedModels();
});

describe("a headless run in a terminal that closes", () => {
  it("stops the run and its command, as Ctrl+C would", async () => {
    const command = "sleep 28.765";
    const server = await scriptedModel([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] },
    ]);
    const terminal = await startTerminal({
      args: [...modelArgs(server), "--approval-mode", "yolo", "-p", "Wait a while"],
    });
    await eventually(() => processesMatching(command).length > 0, `${command} to start`, 10_000);
    // kill() hangs up as a closed terminal does, and names whatever outlived lathe.
    expect(await terminal.kill()).toEqual([]);
  });
});
