import { createGenerateImageTool, imageGenerationSettingsFrom } from "@lathe/core";
import {
  type FakeTurn,
  type ScriptedSession,
  type ScriptedSessionOptions,
  startScriptedSession,
} from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { browserMayLaunch } from "../../src/tools/builtin/browserUse/browserExecutable.js";

let scripted: ScriptedSession | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

/** The tool names of each request, the prompts sent one after another, `between` run before each. */
async function offeredPerRequest(
  turns: FakeTurn[],
  options: ScriptedSessionOptions,
  prompts: string[],
  between: (index: number) => void = () => {},
) {
  scripted = await startScriptedSession(turns, options);
  for (const [index, prompt] of prompts.entries()) {
    between(index);
    await scripted.session.send(prompt);
  }
  return scripted.server.requests.map((request) =>
    ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
      (tool) => tool.function.name,
    ),
  );
}

describe("a tool is offered only where it can work", () => {
  it("offers ask_user only when someone can answer", async () => {
    const [headless] = await offeredPerRequest([{ text: "ok" }], {}, ["hi"]);
    expect(headless).not.toContain("ask_user");
    await scripted?.close();
    const [chat] = await offeredPerRequest(
      [{ text: "ok" }],
      { askUser: async () => ({ ok: true as const, answers: [] }) },
      ["hi"],
    );
    expect(chat).toContain("ask_user");
  });

  it("offers generate_image once an image provider is configured, from the next request on", async () => {
    let configured = false;
    const tool = createGenerateImageTool(() =>
      imageGenerationSettingsFrom(configured ? { provider: "openai" } : undefined, {}),
    );
    const requests = await offeredPerRequest(
      [{ text: "one" }, { text: "two" }],
      { extraTools: [tool] },
      ["first", "second"],
      (index) => {
        configured = index === 1;
      },
    );
    expect(requests[0]).toContain("read_file");
    expect(requests[0]).not.toContain("generate_image");
    expect(requests[1]).toContain("generate_image");
  });

  it("offers browser_use when a browser is configured, whatever is installed", () => {
    expect(browserMayLaunch("/opt/some/browser")).toBe(true);
  });
});
