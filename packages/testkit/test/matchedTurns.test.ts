import { afterEach, describe, expect, it } from "vitest";
import { type FakeLlm, startFakeLlm } from "../src/index.js";

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ask(url: string, content: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content }] }),
  });
  const json = (await response.json()) as {
    choices?: { message: { content: string } }[];
    error?: { message: string };
  };
  return { status: response.status, text: json.choices?.[0]?.message.content ?? json.error?.message ?? "" };
}

describe("turns with when", () => {
  it("answer the request that holds their string, whatever order the requests come in", async () => {
    server = await startFakeLlm({
      script: {
        turns: [
          { when: "attempt 1 of 2", text: "first attempt, turn one" },
          { when: "attempt 2 of 2", text: "second attempt, turn one" },
          { when: "attempt 1 of 2", text: "first attempt, turn two" },
          { text: "anyone" },
        ],
      },
    });
    expect(await ask(server.url, "This is attempt 2 of 2.")).toEqual({
      status: 200,
      text: "second attempt, turn one",
    });
    expect(await ask(server.url, "This is attempt 1 of 2.")).toEqual({
      status: 200,
      text: "first attempt, turn one",
    });
    expect(await ask(server.url, "This is attempt 1 of 2.")).toEqual({
      status: 200,
      text: "first attempt, turn two",
    });
    expect(await ask(server.url, "This is attempt 2 of 2.")).toEqual({ status: 200, text: "anyone" });
    expect(server.turnsServed()).toBe(4);
  });

  it("say so when the turns left are each for another request", async () => {
    server = await startFakeLlm({ script: { turns: [{ when: "planner", text: "plan" }] } });
    const refused = await ask(server.url, "You are the coder.");
    expect(refused.status).toBe(400);
    expect(refused.text).toBe("fake-llm: no turn left for this request (1 left, each for another request)");
    expect(await ask(server.url, "You are the planner.")).toEqual({ status: 200, text: "plan" });
    expect((await ask(server.url, "again")).text).toBe("fake-llm: script exhausted after 1 turns");
  });
});
