import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { noProviderHelp, probeLocalProviders } from "../../src/llm/index.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A port nothing listens on: bound, noted, released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A real HTTP server answering one path with JSON, standing in for a local model server's listing. */
async function serving(path: string, body: unknown): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(req.url === path ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(req.url === path ? body : { error: "not found" }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("probeLocalProviders", () => {
  it("reports nothing when no local server runs", async () => {
    const started = Date.now();
    const probe = await probeLocalProviders({
      timeoutMs: 500,
      ollamaUrl: `http://127.0.0.1:${await closedPort()}`,
      lmStudioUrl: `http://127.0.0.1:${await closedPort()}/v1`,
    });
    expect(probe).toEqual({ servers: [] });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("lists the models of the servers that answer", async () => {
    const ollama = await serving("/api/tags", { models: [{ name: "qwen3:8b" }, { name: "llama3.2:3b" }] });
    const lmStudio = await serving("/v1/models", { object: "list", data: [{ id: "qwen/qwen3-coder-30b" }] });
    expect(
      await probeLocalProviders({ timeoutMs: 500, ollamaUrl: ollama, lmStudioUrl: `${lmStudio}/v1` }),
    ).toEqual({
      servers: [
        { name: "Ollama", provider: "ollama", baseUrl: `${ollama}/v1`, models: ["qwen3:8b", "llama3.2:3b"] },
        {
          name: "LM Studio",
          provider: "openai-compatible",
          baseUrl: `${lmStudio}/v1`,
          models: ["qwen/qwen3-coder-30b"],
        },
      ],
    });
  });

  it("ignores a server that answers with something else", async () => {
    const other = await serving("/api/tags", { hello: "world" });
    const probe = await probeLocalProviders({ timeoutMs: 500, ollamaUrl: other, lmStudioUrl: `${other}/v1` });
    expect(probe).toEqual({ servers: [] });
  });
});

describe("noProviderHelp", () => {
  it("explains the environment variables, credentials.json, --model and --base-url", () => {
    const text = noProviderHelp({ servers: [] }, "/home/u/.lathe");
    expect(text).toContain("No model provider is configured.");
    for (const line of [
      "  export ANTHROPIC_API_KEY=…   then: lathe --model anthropic:claude-sonnet-4-5",
      "  export OPENAI_API_KEY=…      then: lathe --model openai:gpt-4.1",
      "  export GEMINI_API_KEY=…      then: lathe --model google:gemini-2.5-pro",
      "  export DEEPSEEK_API_KEY=…    then: lathe --model deepseek:deepseek-chat",
      '/home/u/.lathe/credentials.json (chmod 600), e.g. {"anthropic": {"apiKey": "…"}}',
      "lathe --model openai-compatible:<model> --base-url <url>/v1",
      "providers: openai, anthropic, google, deepseek, openai-compatible, ollama.",
    ]) {
      expect(text).toContain(line);
    }
    expect(text).not.toContain("Found");
  });

  it("offers a ready-to-paste --model for each local server found", () => {
    const text = noProviderHelp({
      servers: [
        { name: "Ollama", provider: "ollama", baseUrl: "http://127.0.0.1:11434/v1", models: ["qwen3:8b"] },
        {
          name: "LM Studio",
          provider: "openai-compatible",
          baseUrl: "http://10.0.0.5:1234/v1",
          models: ["qwen/qwen3-coder-30b"],
        },
      ],
    });
    expect(text).toContain(
      "Found Ollama at http://127.0.0.1:11434/v1 serving: qwen3:8b. To use it:\n  lathe --model ollama:qwen3:8b\n",
    );
    expect(text).toContain(
      "  lathe --model openai-compatible:qwen/qwen3-coder-30b --base-url http://10.0.0.5:1234/v1\n",
    );
  });

  it("says so when a local server has no model loaded", () => {
    const text = noProviderHelp({
      servers: [{ name: "Ollama", provider: "ollama", baseUrl: "http://127.0.0.1:11434/v1", models: [] }],
    });
    expect(text).toContain(
      "Found Ollama at http://127.0.0.1:11434/v1, but it serves no models yet; load or pull one first.",
    );
  });
});
