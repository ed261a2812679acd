import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fakeKeys } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, runLathe } from "./latheProcess.js";
import {
  chat,
  closeScriptedModels,
  inputLine,
  modelArgs,
  scriptedModel,
  sentText,
  waitForPrompt,
} from "./scriptedTerminal.js";
import { closeTerminals, keys, startTerminal, terminalWorkspace } from "./terminalScreen.js";
import { plantedRepository } from "./trustFixture.js";

afterEach(async () => {
  await closeTerminals();
  await closeScriptedModels();
});

/** The MCP server the hub's own tests use: a real stdio server built with the MCP SDK. */
const stdioServer = fileURLToPath(new URL("../../core/test/mcp/stdioTestServer.mjs", import.meta.url));

/** With checkpoints on, unlike the other terminal tests: `/undo` and `/checkpoints` need them. */
const withCheckpoints = { sandbox: { mode: "off" } };

describe("sessions in lathe's terminal UI", () => {
  it("takes back the last message with /undo: the files, the conversation, and the message into the input", async () => {
    const server = await scriptedModel([
      // A file is read before it is written over.
      { tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "rewritten\n" } }] },
      { text: "Rewrote the notes." },
      { text: "Nothing of the notes." },
    ]);
    const { root, home } = await terminalWorkspace({ "notes.md": "as they were\n" }, withCheckpoints);
    const terminal = await chat(server, ["--approval-mode", "auto_edit"], { cwd: root, home });
    await terminal.submit("Rewrite the notes");
    await terminal.waitFor("Rewrote the notes.");
    expect(readFileSync(join(root, "notes.md"), "utf8")).toBe("rewritten\n");

    await terminal.submit("/checkpoints");
    await terminal.waitFor(
      /Checkpoints of this session:\n\s+\S+\s+\S+ \S+\s+at your message "Rewrite the notes"/,
    );

    await terminal.submit("/undo");
    await terminal.waitFor(
      'Undone: your message "Rewrite the notes" and what came of it (1 file written back, 0 files removed).',
    );
    expect(readFileSync(join(root, "notes.md"), "utf8")).toBe("as they were\n");
    // The message is back in the input, to be changed and sent again.
    await terminal.waitFor(() => inputLine(terminal) === "› Rewrite the notes");

    // Ctrl+C empties the input; the next message goes with a conversation that never had the first.
    terminal.type(keys.ctrlC);
    await terminal.submit("Something else");
    await terminal.waitFor("Nothing of the notes.");
    expect(sentText(server, 3)).toContain("Something else");
    expect(sentText(server, 3)).not.toContain("Rewrite the notes");
  });

  it("says when there is nothing to undo, and changes nothing", async () => {
    const server = await scriptedModel([]);
    const { root, home } = await terminalWorkspace({ "notes.md": "as they were\n" }, withCheckpoints);
    const terminal = await chat(server, [], { cwd: root, home });
    await terminal.submit("/undo");
    await terminal.waitFor("Nothing to undo: no message of this session has a checkpoint.");
    expect(readFileSync(join(root, "notes.md"), "utf8")).toBe("as they were\n");
    expect(server.requests).toHaveLength(0);
  });

  it("starts a new session with /clear, which knows nothing of the last, and resumes it on exit", async () => {
    const server = await scriptedModel([{ text: "Noted." }, { text: "Which word?" }]);
    const terminal = await chat(server);
    await terminal.submit("Remember the word pelican");
    await terminal.waitFor("Noted.");
    await terminal.submit("/clear");
    const cleared = await terminal.waitFor(/New session (\S+)\./);
    const newId = /New session (\S+)\./.exec(cleared)?.[1];
    await terminal.submit("What was the word?");
    await terminal.waitFor("Which word?");
    expect(sentText(server, 1)).toContain("What was the word?");
    expect(sentText(server, 1)).not.toContain("pelican");
    await terminal.submit("/exit");
    await terminal.waitFor(`Resume with lathe -r ${newId}`);
    expect((await terminal.exited).exitCode).toBe(0);
  });

  it("lists the project's sessions and resumes one with /resume, shown before the prompt", async () => {
    const server = await scriptedModel([{ text: "Planted." }, { text: "Water them daily." }]);
    const { root, home } = await terminalWorkspace();
    const earlier = await runLathe(headlessArgs("Plant the tomatoes", { root, serverUrl: server.url }), {
      home,
      env: { HOME: home, OPENAI_API_KEY: fakeKeys.openai },
    });
    expect(earlier.code, earlier.stderr).toBe(0);
    const terminal = await startTerminal({ args: modelArgs(server), cwd: root, home });
    await waitForPrompt(terminal);

    await terminal.submit("/sessions");
    const listed = await terminal.waitFor(/^ {2}(\S+) {2}\S+ \S+ {2}2 messages {2}Plant the tomatoes$/m);
    const id = /^ {2}(\S+) {2}\S+ \S+ {2}2 messages {2}Plant the tomatoes$/m.exec(listed)?.[1] ?? "";
    expect(listed).toContain("/resume ID goes on with one.");

    await terminal.submit(`/resume ${id}`);
    // The resumed conversation comes after the command, then the prompt.
    await terminal.waitFor(
      /^› \/resume \S+\nResumed session \S+\.\n[\s\S]*^› Plant the tomatoes\n[\s\S]*Planted\./m,
    );
    await terminal.submit("And then?");
    await terminal.waitFor("Water them daily.");
    expect(sentText(server, 1)).toContain("Plant the tomatoes");
    expect(sentText(server, 1)).toContain("And then?");
  });

  it("refuses /resume of a session that is not there", async () => {
    const server = await scriptedModel([]);
    const terminal = await chat(server);
    await terminal.submit("/resume 0000dead");
    await terminal.waitFor(/No (stored )?session.*0000dead/i);
    expect(server.requests).toHaveLength(0);
  });

  it("lists the MCP servers with their state and tools", async () => {
    const server = await scriptedModel([]);
    const { root, home } = await terminalWorkspace();
    writeFileSync(
      join(home, "mcp.json"),
      JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [stdioServer] } } }),
    );
    const terminal = await chat(server, [], { cwd: root, home });
    await terminal.submit("/mcp");
    await terminal.waitFor("MCP servers:");
    // The server starts in the background: asked again until it is up.
    const deadline = Date.now() + 15_000;
    while (!/^ {2}demo {2}connected\n {4}.*echo/m.test(terminal.screen())) {
      if (Date.now() > deadline) throw new Error(`demo never showed connected:\n${terminal.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await terminal.submit("/mcp");
    }
  });

  it("trusts the folder with /trust, and the project's hooks run from then on", async () => {
    const repo = plantedRepository();
    const server = await scriptedModel([{ text: "Untrusted hello." }, { text: "Trusted hello." }]);
    const terminal = await startTerminal({
      args: modelArgs(server),
      cwd: repo.root,
      home: repo.home,
      env: { HOME: repo.userHome },
      cols: 220,
    });
    await terminal.waitFor("Trust this folder? [y] yes  [n] no");
    terminal.type("n");
    await waitForPrompt(terminal);
    await terminal.submit("say hello");
    await terminal.waitFor("Untrusted hello.");
    expect(repo.markersNow()).toEqual([]);

    await terminal.submit("/trust");
    await terminal.waitFor("This folder is trusted now");
    await terminal.submit("say hello again");
    await terminal.waitFor("Trusted hello.");
    expect(repo.markersNow()).toContain("user-prompt-submit");
    // The same conversation goes on.
    expect(sentText(server, 1)).toContain("say hello");

    await terminal.submit("/trust");
    await terminal.waitFor("This folder is trusted already");
  }, 60_000);
});
