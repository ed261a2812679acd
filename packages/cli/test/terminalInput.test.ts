import { fakeKeys } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessArgs, runLathe } from "./latheProcess.js";
import { chat, closeScriptedModels, scriptedModel, sentText } from "./scriptedTerminal.js";
import { bracketedPaste, closeTerminals, keys, type Terminal, terminalWorkspace } from "./terminalScreen.js";

afterEach(async () => {
  await closeTerminals();
  await closeScriptedModels();
});

/** Types `text` and waits until the screen has taken it in, as a person watching the screen would. */
async function typed(terminal: Terminal, text: string, shown: string | RegExp): Promise<void> {
  terminal.type(text);
  await terminal.waitFor(shown);
}

describe("the terminal UI's input", () => {
  it("inserts at the cursor after Left, and sends the edited text", async () => {
    const server = await scriptedModel([{ text: "Hello to you too." }]);
    const terminal = await chat(server);
    await typed(terminal, "Say helo!", /^› Say helo!/m);
    terminal.type(keys.left + keys.left);
    await typed(terminal, "l", /^› Say hello!/m);
    terminal.type(keys.enter);
    await terminal.waitFor("Hello to you too.");
    expect(sentText(server, 0)).toContain('"Say hello!"');
  });

  it("starts a new line on Shift+Enter and Alt+Enter, and sends the lines as one message", async () => {
    const server = await scriptedModel([{ text: "Three lines read." }]);
    const terminal = await chat(server);
    await typed(terminal, "first", /^› first/m);
    await typed(terminal, `${keys.shiftEnter}second`, /^› first\n {2}second/m);
    await typed(terminal, `${keys.altEnter}third`, /^› first\n {2}second\n {2}third/m);
    terminal.type(keys.enter);
    await terminal.waitFor("Three lines read.");
    expect(sentText(server, 0)).toContain(JSON.stringify("first\nsecond\nthird"));
  });

  it("finds an earlier input of the project with Ctrl+R and sends it on Enter", async () => {
    const server = await scriptedModel([
      { text: "Tidied." },
      { text: "Renamed." },
      { text: "Tidied again." },
    ]);
    const { root, home } = await terminalWorkspace();
    for (const task of ["Tidy the imports", "Rename the module"]) {
      const earlier = await runLathe(headlessArgs(task, { root, serverUrl: server.url }), {
        home,
        env: { HOME: home, OPENAI_API_KEY: fakeKeys.openai },
      });
      expect(earlier.code, earlier.stderr).toBe(0);
    }
    const terminal = await chat(server, [], { cwd: root, home });
    terminal.type(keys.ctrlR);
    await terminal.waitFor("(reverse-i-search)`': ");
    await typed(terminal, "t", "(reverse-i-search)`t': Rename the module");
    await typed(terminal, "id", "(reverse-i-search)`tid': Tidy the imports");
    terminal.type(keys.enter);
    await terminal.waitFor("Tidied again.");
    expect(server.requests).toHaveLength(3);
    expect(sentText(server, 2)).toContain('"Tidy the imports"');
    expect(sentText(server, 2)).not.toContain("Rename the module");
  });

  it("shows a pasted 30 lines as a placeholder and sends all of them", async () => {
    const server = await scriptedModel([{ text: "Thirty lines read." }]);
    const terminal = await chat(server);
    expect(terminal.bracketedPasteMode()).toBe(true);
    const lines = Array.from({ length: 30 }, (_, i) => `pasted line ${i + 1}`);
    await typed(terminal, "Summarise: ", /^› Summarise: /m);
    await typed(terminal, bracketedPaste(lines.join("\n")), /^› Summarise: \[Pasted text #1 \+30 lines\]/m);
    // Taken whole: the newlines in it sent nothing, and its lines are not on the screen.
    expect(server.requests).toHaveLength(0);
    expect(terminal.screen()).not.toContain("pasted line 1");
    terminal.type(keys.enter);
    await terminal.waitFor("Thirty lines read.");
    expect(sentText(server, 0)).toContain(JSON.stringify(`Summarise: ${lines.join("\n")}`));
  });

  it("completes a file of the project after @ with Tab, and the model reads the file mentioned", async () => {
    const server = await scriptedModel([{ text: "The plan says Friday." }]);
    const { root, home } = await terminalWorkspace({
      "docs/release-plan.md": "Ship the release on Friday.\n",
      "src/main.ts": "export {};\n",
    });
    const terminal = await chat(server, [], { cwd: root, home });
    // The folders and files that fit are offered under the input as the mention is typed.
    await typed(terminal, "Summarise @do", /^@docs\/$/m);
    await typed(terminal, keys.tab, /^› Summarise @docs\/ *$/m);
    await terminal.waitFor(/^@docs\/release-plan\.md$/m);
    await typed(terminal, keys.tab, /^› Summarise @docs\/release-plan\.md {2}$/m);
    terminal.type(keys.enter);
    await terminal.waitFor("The plan says Friday.");
    expect(sentText(server, 0)).toContain("@docs/release-plan.md");
    expect(sentText(server, 0)).toContain("Ship the release on Friday.");
  });

  it("turns bracketed paste off again when lathe exits", async () => {
    const terminal = await chat(await scriptedModel([]));
    expect(terminal.bracketedPasteMode()).toBe(true);
    terminal.type(keys.ctrlD);
    expect((await terminal.exited).exitCode).toBe(0);
    expect(terminal.bracketedPasteMode()).toBe(false);
  });
});
