import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runLathe } from "./latheProcess.js";

describe("lathe models", () => {
  it("lists the catalog and each provider's key source without the key, as JSON", async () => {
    const ws = await makeWorkspace({}, { baseUrls: { ollama: "http://10.1.2.3:11434/v1" } });
    writeFileSync(
      join(ws.home, "credentials.json"),
      JSON.stringify({ anthropic: { apiKey: "sk-ant-stored" } }),
      {
        mode: 0o600,
      },
    );
    const run = await runLathe(["models", "--json"], {
      home: ws.home,
      env: { OPENAI_API_KEY: "sk-env-secret" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("sk-env-secret");
    expect(run.stdout).not.toContain("sk-ant-stored");
    const json = JSON.parse(run.stdout);
    expect(json.defaultModel).toEqual({
      id: "openai:gpt-4.1",
      source: "the provider key in the environment",
    });
    const byName = Object.fromEntries(json.providers.map((p: { name: string }) => [p.name, p]));
    expect(byName.openai).toEqual({
      name: "openai",
      local: false,
      baseUrl: "https://api.openai.com/v1",
      baseUrlSource: "default",
      hasKey: true,
      keySource: "env",
      keyFrom: "OPENAI_API_KEY",
    });
    expect(byName.anthropic).toMatchObject({
      hasKey: true,
      keySource: "credentials",
      keyFrom: join(ws.home, "credentials.json"),
    });
    expect(byName.google).toMatchObject({ hasKey: false, keySource: "none", local: false });
    expect(byName.ollama).toEqual({
      name: "ollama",
      local: true,
      baseUrl: "http://10.1.2.3:11434/v1",
      baseUrlSource: "settings",
      hasKey: false,
      keySource: "none",
    });
    expect(json.models).toContainEqual({
      id: "openai:gpt-4o",
      provider: "openai",
      contextWindow: 128000,
      maxOutputTokens: 16384,
      inputPerMTok: 2.5,
      cachedInputPerMTok: 1.25,
      outputPerMTok: 10,
      inCatalog: true,
      ready: true,
    });
    expect(json.models.find((m: { id: string }) => m.id.startsWith("google:"))).toMatchObject({
      ready: false,
    });
  });

  it("prints tables, and lists a configured model the catalog does not know", async () => {
    const ws = await makeWorkspace({}, { model: "ollama:qwen3-coder" });
    const run = await runLathe(["models", "--provider", "ollama"], { home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "Default model: ollama:qwen3-coder (from settings model)",
      "",
      "PROVIDER  KEY                  BASE URL",
      "ollama    none needed (local)  http://127.0.0.1:11434/v1",
      "",
      "MODEL               CONTEXT  MAX OUT  IN $/M  CACHED $/M  OUT $/M",
      "ollama:qwen3-coder  128,000    8,192       ?           ?        ?  ready, not in catalog",
      "",
    ]);
  });

  it("refuses an unknown provider or argument with exit 2, and prints --help", async () => {
    const ws = await makeWorkspace();
    const bad = await runLathe(["models", "--provider", "nope"], { home: ws.home });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain('lathe models: E_INVALID_ARGS: unknown provider "nope"');
    const extra = await runLathe(["models", "gpt"], { home: ws.home });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("lathe models: unexpected: gpt");
    const help = await runLathe(["models", "--help"], { home: ws.home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: lathe models [--provider NAME] [--json]");
  });
});
