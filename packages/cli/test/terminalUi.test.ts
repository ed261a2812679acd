import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeKeys } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, runLathe } from "./latheProcess.js";
import {
  approvalKeys,
  chat,
  closeScriptedModels,
  eventually,
  modelArgs,
  request,
  scriptedModel,
  sentText,
  waitForPrompt,
} from "./scriptedTerminal.js";
import {
  closeTerminals,
  keys,
  occurrences,
  processesMatching,
  startTerminal,
  type Terminal,
  terminalWorkspace,
} from "./terminalScreen.js";

afterEach(async () => {
  await closeTerminals();
  await closeScriptedModels();
});

/** The bottom line with anything on it: where the status line sits below the prompt. */
function statusLine(terminal: Terminal): string {
  return (
    terminal
      .viewport()
      .split("\n")
      .filter((line) => line.trim() !== "")
      .at(-1) ?? ""
  );
}

describe("lathe's terminal UI", () => {
  it("shows the prompt and a status line with the mode and approval mode", async () => {
    const terminal = await chat(await scriptedModel([]));
    await terminal.waitFor(/agent · ask_first/);
    expect(statusLine(terminal)).toContain("agent · ask_first");
  });

  it("streams the answer to a typed task and keeps the task in the transcript", async () => {
    const server = await scriptedModel([{ text: "The answer is forty-two." }]);
    const terminal = await chat(server);
    await terminal.submit("What is the answer?");
    const screen = await terminal.waitFor("The answer is forty-two.");
    // Above the answer, so it is the transcript's copy and not the input line left unsent.
    expect(screen).toMatch(/^› What is the answer\?$[\s\S]*The answer is forty-two\./m);
    expect(sentText(server, 0)).toContain("What is the answer?");
  });

  it("asks before writing a file and writes it on y", async () => {
    const server = await scriptedModel([
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
      { text: "Wrote notes.md." },
    ]);
    const terminal = await chat(server, ["--approval-mode", "manual"]);
    await terminal.submit("Write the notes");
    await terminal.waitFor("Allow write_file notes.md?");
    await terminal.waitFor(approvalKeys);
    terminal.type("y");
    await terminal.waitFor("Wrote notes.md.");
    expect(readFileSync(join(terminal.root, "notes.md"), "utf8")).toBe("hi\n");
  });

  it("rejects a command with the user's reason on e; it never runs, and the model reads the reason", async () => {
    // The command would leave a file behind if it ran.
    const touch = { name: "run_terminal_cmd", arguments: { command: "touch deployed.txt" } };
    const server = await scriptedModel([{ tool_calls: [touch] }, { text: "Understood, no deploy." }]);
    const terminal = await chat(server, ["--approval-mode", "manual"]);
    await terminal.submit("Deploy it");
    await terminal.waitFor("Allow run_terminal_cmd touch deployed.txt?");
    await terminal.waitFor("[e] no, and say why");
    const asking = terminal.screen();
    terminal.type("e");
    // A person waits to see the reason field: typed earlier, its "n" could answer the panel itself.
    await terminal.waitFor((screen) => screen !== asking);
    await terminal.submit("we deploy on Fridays only");
    await terminal.waitFor("Understood, no deploy.");
    expect(sentText(server, 1)).toContain("we deploy on Fridays only");
    expect(existsSync(join(terminal.root, "deployed.txt"))).toBe(false);
    expect(terminal.screen()).toContain(
      "Rejected run_terminal_cmd touch deployed.txt: we deploy on Fridays only",
    );
  });

  it("saves an always rule on a with the project's scope, so the same command does not ask again", async () => {
    const npmTest = { name: "run_terminal_cmd", arguments: { command: "npm test" } };
    const server = await scriptedModel([
      { tool_calls: [npmTest] },
      { tool_calls: [npmTest] },
      { text: "Ran the tests twice." },
    ]);
    const terminal = await chat(server);
    await terminal.submit("Run the tests twice");
    await terminal.waitFor(approvalKeys);
    expect(terminal.screen()).toMatch(/Allow run_terminal_cmd/);
    terminal.type("a");
    await terminal.waitFor("[p] this project (.lathe/settings.local.json)");
    terminal.type("p");
    // The panel leaves the screen once answered, so panels are counted as they come up. No key is
    // pressed after the scope: a second panel would also hold the run until this times out.
    let panels = 1;
    let showing = true;
    await terminal.waitFor((screen) => {
      const shown = screen.includes(approvalKeys);
      if (shown && !showing) panels++;
      showing = shown;
      return screen.includes("Ran the tests twice.");
    }, 15_000);
    expect(panels).toBe(1);
    expect(server.requests).toHaveLength(3);
    const settings = JSON.parse(readFileSync(join(terminal.root, ".lathe/settings.local.json"), "utf8"));
    expect(settings.permissions.allow).toContain("run_terminal_cmd(npm test *)");
    expect(terminal.screen()).toContain(
      "Allowed run_terminal_cmd npm test, and from now on run_terminal_cmd(npm test *) (this project).",
    );
  });

  it("queues a message typed while the answer streams and sends it next", async () => {
    // Words that never repeat: the engine cuts an answer that loops ("slow slow …") and asks again,
    // which would end the stream early. The fake sends ~20 characters a chunk: ~4 s to type in.
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ");
    const server = await scriptedModel([{ text: long, chunk_delay_ms: 40 }, { text: "Got it." }]);
    const terminal = await chat(server);
    await terminal.submit("Tell me something long");
    await terminal.waitFor("word1 word2");
    await terminal.submit("also this");
    await terminal.waitFor("Queued: also this");
    await terminal.waitFor("Got it.", 15_000);
    // Queued means it waited: the answer it arrived during was not cut short.
    expect(terminal.screen()).toContain("word299");
    expect(sentText(server, 0)).not.toContain("also this");
    expect(sentText(server, 1)).toContain("also this");
  });

  it("stops a running command on Esc and leaves no process behind", async () => {
    const command = "sleep 29.123";
    const server = await scriptedModel([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] },
    ]);
    const terminal = await chat(server, ["--approval-mode", "yolo"]);
    await terminal.submit("Wait a while");
    await eventually(() => processesMatching(command).length > 0, `${command} to start`);
    terminal.type(keys.esc);
    await terminal.waitFor("Stopped.");
    // Killing is asynchronous: give the process group a moment to go.
    await eventually(() => processesMatching(command).length === 0, `${command} to end`, 3000).catch(() => {
      throw new Error(`still running: ${processesMatching(command).join("; ")}`);
    });
  });

  it("stops the run and its command when the terminal closes", async () => {
    const command = "sleep 29.321";
    const server = await scriptedModel([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command } }] },
    ]);
    const terminal = await chat(server, ["--approval-mode", "yolo"]);
    await terminal.submit("Wait a while");
    await eventually(() => processesMatching(command).length > 0, `${command} to start`);
    // kill() hangs up as a closed terminal does, and names whatever outlived lathe.
    expect(await terminal.kill()).toEqual([]);
  });

  it("exits on a second Ctrl+C at the idle prompt and says how to resume", async () => {
    const server = await scriptedModel([{ text: "Done." }]);
    const terminal = await chat(server);
    await terminal.submit("Do a small thing");
    await terminal.waitFor("Done.");
    terminal.type(keys.ctrlC);
    await terminal.waitFor("Press Ctrl+C again to exit");
    terminal.type(keys.ctrlC);
    expect((await terminal.exited).exitCode).toBe(0);
    const resume = /Resume with lathe -r (\S+)/.exec(terminal.screen());
    expect(resume, terminal.screen()).not.toBeNull();
    const listed = await runLathe(["sessions", "list", "--cwd", terminal.root, "--json"], {
      home: terminal.home,
    });
    const sessions = JSON.parse(listed.stdout) as { id: string }[];
    // The id may be shortened to a unique prefix; it must name the session just stored.
    expect(sessions.map((session) => session.id.startsWith(resume![1]!))).toContain(true);
  });

  it("cycles the mode with Shift+Tab, and plan mode offers no tools that change files", async () => {
    const server = await scriptedModel([{ text: "Here is a plan." }]);
    const terminal = await chat(server);
    await terminal.waitFor(/agent · ask_first/);
    terminal.type(keys.shiftTab);
    await terminal.waitFor(
      () => /\bplan\b/.test(statusLine(terminal)) && !/\bagent\b/.test(statusLine(terminal)),
    );
    await terminal.submit("Plan the change");
    await terminal.waitFor("Here is a plan.");
    const tools = (request(server, 0).tools ?? []).map((tool) => tool.function?.name);
    expect(tools).toContain("read_file");
    for (const writer of ["write_file", "edit_file", "multi_edit", "apply_patch", "delete_file"]) {
      expect(tools).not.toContain(writer);
    }
  });

  it("cycles the approval mode with Ctrl+Y, and auto_edit writes without asking", async () => {
    const server = await scriptedModel([
      { tool_calls: [{ name: "write_file", arguments: { path: "notes.md", contents: "hi\n" } }] },
      { text: "Wrote notes.md." },
    ]);
    const terminal = await chat(server);
    await terminal.waitFor(() => statusLine(terminal).includes("agent · ask_first"));
    // The workspace turns the sandbox off, and the status line says so.
    expect(statusLine(terminal)).toContain("sandbox off");
    terminal.type(keys.ctrlY);
    await terminal.waitFor(() => statusLine(terminal).includes("agent · auto_edit"));
    await terminal.submit("Write the notes");
    await terminal.waitFor("Wrote notes.md.");
    expect(readFileSync(join(terminal.root, "notes.md"), "utf8")).toBe("hi\n");
    expect(terminal.screen()).not.toContain(approvalKeys);
    // Tokens and cost once the model has answered.
    await terminal.waitFor(() => /\d+(\.\d)?k? tokens · \$\d+\.\d{4}/.test(statusLine(terminal)));
    terminal.type(keys.ctrlY);
    await terminal.waitFor(() => statusLine(terminal).includes("agent · auto ·"));
    terminal.type(keys.ctrlY);
    await terminal.waitFor(() => statusLine(terminal).includes("agent · manual"));
  });

  it("answers /help and unknown commands itself, without asking the model", async () => {
    const server = await scriptedModel([{ text: "pong" }]);
    const terminal = await chat(server);
    // The banner may name some commands already: the help must add its own mentions.
    const before = terminal.screen();
    await terminal.submit("/help");
    const compact = occurrences(before, "/compact");
    const exit = occurrences(before, "/exit");
    await terminal.waitFor(
      (screen) => occurrences(screen, "/compact") > compact && occurrences(screen, "/exit") > exit,
    );
    await terminal.submit("/nonsense");
    await terminal.waitFor("Unknown command /nonsense");
    // A real task afterwards proves the commands sent nothing, without waiting a fixed time.
    await terminal.submit("ping");
    await terminal.waitFor("pong");
    expect(server.requests).toHaveLength(1);
    expect(sentText(server, 0)).not.toContain("/help");
    expect(sentText(server, 0)).not.toContain("/nonsense");
  });

  it("expands a custom command from LATHE_HOME/commands with its arguments", async () => {
    const server = await scriptedModel([{ text: "Caches keep copies close." }]);
    const { root, home } = await terminalWorkspace();
    mkdirSync(join(home, "commands"));
    writeFileSync(join(home, "commands", "explain.md"), "Explain $ARGUMENTS simply.\n");
    const terminal = await chat(server, [], { cwd: root, home });
    await terminal.submit("/explain the cache");
    await terminal.waitFor("Caches keep copies close.");
    expect(sentText(server, 0)).toContain("Explain the cache simply.");
  });

  it("completes a slash command with Tab, and lists the names that fit", async () => {
    const server = await scriptedModel([]);
    const terminal = await chat(server);
    // Each key on its own, as typed: a tab inside a pasted chunk is text.
    terminal.type("/he");
    await terminal.waitFor(/^› \/he/m);
    terminal.type("\t");
    // The completed name and a space, then the cursor's cell.
    await terminal.waitFor(/^› \/help {2}$/m);
    terminal.type(keys.ctrlC);
    await terminal.waitFor(/^› {2}$/m);
    terminal.type("/co");
    await terminal.waitFor(/^› \/co/m);
    terminal.type("\t");
    await terminal.waitFor("/compact  /cost");
    expect(server.requests).toEqual([]);
  });

  it("asks the model's question with its options, picked with the arrows", async () => {
    const server = await scriptedModel([
      {
        tool_calls: [
          {
            name: "ask_user",
            arguments: { questions: [{ question: "Which database?", options: ["SQLite", "PostgreSQL"] }] },
          },
        ],
      },
      { text: "PostgreSQL it is." },
    ]);
    const terminal = await chat(server);
    await terminal.submit("Set up storage");
    await terminal.waitFor("Which database?");
    await terminal.waitFor("❯ SQLite");
    terminal.type(keys.down);
    await terminal.waitFor("❯ PostgreSQL");
    terminal.type(keys.enter);
    await terminal.waitFor("PostgreSQL it is.");
    // The tool's result carries the answer picked: the second option, not the highlighted first.
    const answered = request(server, 1).messages.filter(
      (message) => (message as { role?: string }).role === "tool",
    );
    expect(JSON.stringify(answered)).toContain("PostgreSQL");
    expect(JSON.stringify(answered)).not.toContain("SQLite");
  });

  it("offers the catalog's models of the providers with a key on /model alone", async () => {
    const server = await scriptedModel([{ text: "From the smaller model." }]);
    const terminal = await chat(server);
    await terminal.submit("/model");
    await terminal.waitFor("Model: openai:gpt-4.1. Switch to:");
    await terminal.waitFor(/❯ openai:gpt-4\.1 +│/);
    // The session's model first, then the catalog's order: gpt-4o, gpt-4o-mini, gpt-4.1-mini.
    terminal.type(keys.down + keys.down + keys.down);
    await terminal.waitFor(/❯ openai:gpt-4\.1-mini +│/);
    expect(terminal.screen()).not.toContain("anthropic:");
    terminal.type(keys.enter);
    await terminal.waitFor("Model: openai:gpt-4.1-mini, from the next request on.");
    await terminal.submit("Hello");
    await terminal.waitFor("From the smaller model.");
    expect((request(server, 0) as unknown as { model: string }).model).toBe("gpt-4.1-mini");
  });

  it("switches the model with /model, from the next request on", async () => {
    const server = await scriptedModel([{ text: "One." }, { text: "Two." }]);
    const terminal = await chat(server);
    await terminal.submit("First");
    await terminal.waitFor("One.");
    await terminal.submit("/model openai:gpt-4.1-mini");
    await terminal.waitFor("Model: openai:gpt-4.1-mini, from the next request on.");
    await terminal.waitFor(() => statusLine(terminal).includes("openai:gpt-4.1-mini"));
    await terminal.submit("Second");
    await terminal.waitFor("Two.");
    expect(server.requests.map((recorded) => (recorded.body as { model: string }).model)).toEqual([
      "gpt-4.1",
      "gpt-4.1-mini",
    ]);
  });

  it("shows the earlier conversation when continuing with -c", async () => {
    const server = await scriptedModel([{ text: "The first answer." }, { text: "The second answer." }]);
    const { root, home } = await terminalWorkspace();
    const first = await runLathe(headlessArgs("First task", { root, serverUrl: server.url }), {
      home,
      env: { HOME: home, OPENAI_API_KEY: fakeKeys.openai },
    });
    expect(first.code, first.stderr).toBe(0);
    const terminal = await startTerminal({ args: ["-c", ...modelArgs(server)], cwd: root, home });
    // The history comes before the live prompt: the last line starting with the mark is the input.
    await terminal.waitFor(/^› First task$[\s\S]*The first answer\.[\s\S]*\n› /m);
    await terminal.waitForInput();
    // And it is the same conversation, not only its text on screen.
    await terminal.submit("Second task");
    await terminal.waitFor("The second answer.");
    expect(sentText(server, 1)).toContain("First task");
  });

  it("brings back what was typed in the project's earlier sessions with Up", async () => {
    const server = await scriptedModel([{ text: "Done before." }]);
    const { root, home } = await terminalWorkspace();
    const earlier = await runLathe(headlessArgs("Tidy the imports", { root, serverUrl: server.url }), {
      home,
      env: { HOME: home, OPENAI_API_KEY: fakeKeys.openai },
    });
    expect(earlier.code, earlier.stderr).toBe(0);
    // A new session, not a resumed one: the history is the project's.
    const terminal = await startTerminal({ args: modelArgs(server), cwd: root, home });
    await waitForPrompt(terminal);
    terminal.type(keys.up);
    await terminal.waitFor(/^› Tidy the imports/m);
  });

  it("draws the UI in a terminal whose environment says CI", async () => {
    // Dev containers and some shells set CI; the terminal is still a person's. (Colours follow
    // Node's reading of CI: none, so the input's cursor cell is not drawn after the mark.)
    const server = await scriptedModel([{ text: "Drawn as usual." }]);
    const terminal = await startTerminal({ args: modelArgs(server), env: { CI: "true" } });
    await terminal.waitFor(/^›$/m);
    await terminal.waitForInput();
    await terminal.submit("Are you there?");
    await terminal.waitFor("Drawn as usual.");
    expect(statusLine(terminal)).toContain("ready · agent · ask_first");
  });

  it("keeps working after the terminal is resized", async () => {
    const server = await scriptedModel([{ text: "Still fine after the resize." }]);
    const terminal = await chat(server);
    terminal.resize(60, 20);
    await terminal.submit("Are you fine?");
    const screen = await terminal.waitFor("Still fine after the resize.");
    // A stack trace on screen is an exception the UI did not handle.
    expect(screen).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(await Promise.race([terminal.exited, Promise.resolve("running")])).toBe("running");
  });

  it("shows an approved edit's change under its call, numbered as the lines are in the file", async () => {
    const server = await scriptedModel([
      { tool_calls: [{ name: "read_file", arguments: { path: "a.ts" } }] },
      {
        tool_calls: [
          {
            name: "edit_file",
            arguments: { path: "a.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
          },
        ],
      },
      { text: "Changed a." },
    ]);
    const { root, home } = await terminalWorkspace();
    const lines = Array.from({ length: 14 }, (_, index) => `// line ${index + 1}`);
    lines[11] = "const a = 1;";
    writeFileSync(join(root, "a.ts"), `${lines.join("\n")}\n`);
    const terminal = await chat(server, [], { cwd: root, home });
    await terminal.submit("Make a two");
    await terminal.waitFor("Allow edit_file a.ts?");
    await terminal.waitFor(approvalKeys);
    // The panel shows the change before it is made, without numbers: where it lands is not known yet.
    expect(terminal.screen()).toMatch(/^│ - const a = 1;\s+│$/m);
    terminal.type("y");
    const screen = await terminal.waitFor("Changed a.");
    expect(screen).toMatch(/^ {3}9 {3}\/\/ line 9$/m);
    expect(screen).toMatch(/^ {2}12 - const a = 1;$/m);
    expect(screen).toMatch(/^ {2}12 \+ const a = 2;$/m);
    expect(screen).toMatch(/^ {2}14 {3}\/\/ line 14$/m);
    expect(readFileSync(join(root, "a.ts"), "utf8")).toContain("const a = 2;");
  });
});
