import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEmbedder } from "../../src/llm/embeddings.js";
import { type CodeIndexBed, createCodeIndexBed, never } from "./codeIndexTestBed.js";

let bed: CodeIndexBed;
let server: FakeLlm;
beforeEach(async () => {
  bed = createCodeIndexBed();
  server = await startFakeLlm({ script: { turns: [] } });
});
afterEach(async () => {
  bed.cleanup();
  await server.close();
});

const embedderFor = (modelId: string) =>
  createEmbedder({
    modelId,
    baseUrl: `${server.url}/v1`,
    apiKey: fakeKeys.openaiEmbeddings,
    env: {},
    latheHome: bed.projectRoot,
  });

describe("a configured embedding model", () => {
  it("embeds chunks and queries over the provider's wire format and blends them into search", async () => {
    bed.write(
      "src/billing.ts",
      "export function chargeCustomerCard(amount: number) {\n  return amount;\n}\n",
    );
    bed.write("src/weather.ts", "export function forecastRain(city: string) {\n  return city;\n}\n");
    const embedder = embedderFor("openai:text-embedding-3-small");
    if (!embedder.ok) throw new Error(embedder.error.message);
    const index = bed.open({ embed: embedder.embed, embeddingModel: "openai:text-embedding-3-small" });
    const refreshed = await index.refresh();
    expect(refreshed.embeddingError).toBeUndefined();
    const hits = await index.search("charge the customer card", { limit: 2 }, never);
    expect(hits[0]?.path).toBe("src/billing.ts");
    const calls = server.requests.filter((request) => request.path === "/v1/embeddings");
    // One request for the chunks, one for the query.
    expect(calls).toHaveLength(2);
    expect(calls[0]?.headers.authorization).toBe(`Bearer ${fakeKeys.openaiEmbeddings}`);
    expect((calls[1]?.body as { input: string[] }).input).toEqual(["charge the customer card"]);
  });

  it("is refused for a provider without embeddings, with a clear error", () => {
    const embedder = embedderFor("anthropic:claude-sonnet-4-5");
    expect(embedder.ok || embedder.error.code).toBe("E_INVALID_ARGS");
  });
});
