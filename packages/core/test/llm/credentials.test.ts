import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCredentialsFile, resolveApiKey } from "../../src/llm/index.js";

function homeWith(credentials?: unknown, mode = 0o600): string {
  const home = mkdtempSync(join(tmpdir(), "lathe-cred-"));
  if (credentials !== undefined) {
    const path = join(home, "credentials.json");
    writeFileSync(path, typeof credentials === "string" ? credentials : JSON.stringify(credentials));
    chmodSync(path, mode);
  }
  return home;
}

describe("resolveApiKey", () => {
  const home = homeWith({ openai: { apiKey: "from-file" }, anthropic: { apiKey: "anthropic-file" } });

  it("prefers the explicit key, then the environment, then credentials.json", () => {
    const env = { OPENAI_API_KEY: "from-env" };
    expect(resolveApiKey("openai", { apiKey: "explicit", env, latheHome: home })).toEqual({
      ok: true,
      apiKey: "explicit",
      source: "setting",
    });
    expect(resolveApiKey("openai", { env, latheHome: home })).toEqual({
      ok: true,
      apiKey: "from-env",
      source: "env",
      sourceName: "OPENAI_API_KEY",
    });
    expect(resolveApiKey("openai", { env: {}, latheHome: home })).toEqual({
      ok: true,
      apiKey: "from-file",
      source: "credentials",
      sourceName: join(home, "credentials.json"),
    });
  });

  it("reads GEMINI_API_KEY first and GOOGLE_GENERATIVE_AI_API_KEY second", () => {
    const both = { GEMINI_API_KEY: "gemini", GOOGLE_GENERATIVE_AI_API_KEY: "google" };
    expect(resolveApiKey("google", { env: both, latheHome: home })).toMatchObject({ apiKey: "gemini" });
    expect(
      resolveApiKey("google", { env: { GOOGLE_GENERATIVE_AI_API_KEY: "google" }, latheHome: home }),
    ).toMatchObject({ apiKey: "google", sourceName: "GOOGLE_GENERATIVE_AI_API_KEY" });
  });

  it("ignores blank environment values", () => {
    expect(resolveApiKey("anthropic", { env: { ANTHROPIC_API_KEY: "  " }, latheHome: home })).toMatchObject({
      apiKey: "anthropic-file",
      source: "credentials",
    });
  });

  it("needs no key for local servers", () => {
    const empty = homeWith();
    expect(resolveApiKey("ollama", { env: {}, latheHome: empty })).toEqual({
      ok: true,
      apiKey: undefined,
      source: "none",
    });
    expect(resolveApiKey("openai-compatible", { env: {}, latheHome: empty })).toEqual({
      ok: true,
      apiKey: undefined,
      source: "none",
    });
    expect(
      resolveApiKey("openai-compatible", { env: { OPENAI_COMPATIBLE_API_KEY: "lm" }, latheHome: empty }),
    ).toMatchObject({
      apiKey: "lm",
    });
  });

  it("explains every way to provide a missing key", () => {
    const empty = homeWith();
    expect(resolveApiKey("google", { env: {}, latheHome: empty })).toMatchObject({
      ok: false,
      error: {
        code: "E_LLM_AUTH",
        message: `No API key for google. Set GEMINI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY, or add {"google": {"apiKey": "…"}} to ${join(empty, "credentials.json")} (chmod 600), or pass --api-key.`,
      },
    });
  });
});

describe("credentials.json", () => {
  it.each([0o644, 0o640, 0o604, 0o660])("is refused when its mode is %o", (mode) => {
    const home = homeWith({ openai: { apiKey: "leaked" } }, mode);
    const path = join(home, "credentials.json");
    const octal = `0${mode.toString(8)}`;
    const expected = {
      ok: false,
      error: expect.objectContaining({
        code: "E_LLM_AUTH",
        message: `Refusing to read ${path}: its mode is ${octal}, so other users can read or change your API keys. Run: chmod 600 ${path}`,
      }),
    };
    expect(readCredentialsFile(home)).toEqual(expected);
    expect(resolveApiKey("openai", { env: {}, latheHome: home })).toEqual(expected);
  });

  it("is read when its mode is 0600 or stricter", () => {
    for (const mode of [0o600, 0o400]) {
      const home = homeWith({ deepseek: { apiKey: "ds" } }, mode);
      expect(readCredentialsFile(home)).toEqual({
        ok: true,
        credentials: { deepseek: { apiKey: "ds" } },
        path: join(home, "credentials.json"),
      });
    }
  });

  it("is not needed when the environment has the key", () => {
    const home = homeWith({ openai: { apiKey: "leaked" } }, 0o644);
    expect(resolveApiKey("openai", { env: { OPENAI_API_KEY: "env" }, latheHome: home })).toMatchObject({
      apiKey: "env",
    });
  });

  it("counts as empty when missing", () => {
    const home = homeWith();
    expect(readCredentialsFile(home)).toEqual({
      ok: true,
      credentials: {},
      path: join(home, "credentials.json"),
    });
  });

  it("reports invalid JSON and a wrong shape", () => {
    const broken = readCredentialsFile(homeWith("{nope"));
    expect(broken.ok || broken.error.message).toMatch(/credentials\.json is not valid JSON/);
    const wrong = readCredentialsFile(homeWith({ openai: "sk-plain-string" }));
    expect(wrong.ok || wrong.error.message).toMatch(/must look like \{"openai": \{"apiKey": "…"\}\}/);
  });
});
