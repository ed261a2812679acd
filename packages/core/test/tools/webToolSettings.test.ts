import { describe, expect, it } from "vitest";
import { guardedFetchDefaults } from "../../src/policy/networkGuard/index.js";
import { browserSettingsSchema } from "../../src/tools/web/browserSettings.js";
import {
  imageGenerationSettingsFrom,
  imageGenerationSettingsSchema,
} from "../../src/tools/web/imageSettings.js";
import {
  resolveWebFetchSettings,
  webFetchDefaults,
  webFetchSettingsFrom,
  webFetchSettingsSchema,
} from "../../src/tools/web/webFetchSettings.js";
import { webSearchSettingsFrom, webSearchSettingsSchema } from "../../src/tools/web/webSearchSettings.js";

describe("web tool settings as settings.json holds them", () => {
  it("turns reach into the network guard's allowances, public when absent", () => {
    expect(webFetchSettingsFrom({ maxChars: 500, reach: "local" })).toEqual({
      maxChars: 500,
      network: { allowLoopback: true, allowPrivate: true },
    });
    expect(webFetchSettingsFrom(undefined)).toEqual({ network: {} });
    expect(webSearchSettingsFrom({ reach: "public", timeoutMs: 5 }, { BRAVE_API_KEY: "k" })).toEqual({
      timeoutMs: 5,
      network: {},
      env: { BRAVE_API_KEY: "k" },
    });
    expect(imageGenerationSettingsFrom(undefined, {})).toBeUndefined();
    expect(
      imageGenerationSettingsFrom({ provider: "sd-webui", url: "http://127.0.0.1:7860", reach: "local" }, {}),
    ).toEqual({
      provider: "sd-webui",
      url: "http://127.0.0.1:7860",
      network: { allowLoopback: true, allowPrivate: true },
      env: {},
    });
  });

  it("refuses what the tools do not read, naming the field", () => {
    const fetchIssues = webFetchSettingsSchema.safeParse({ network: { allowLoopback: true } }).error?.issues;
    expect(fetchIssues?.map((issue) => [issue.code, issue.path.join(".")])).toEqual([
      ["unrecognized_keys", ""],
    ]);
    const searchIssues = webSearchSettingsSchema.safeParse({ maxBytes: 10, brave: { key: "k" } }).error
      ?.issues;
    expect(searchIssues?.map((issue) => [issue.code, issue.path.join(".")])).toEqual([
      ["unrecognized_keys", "brave"],
      ["unrecognized_keys", ""],
    ]);
    const imageIssues = imageGenerationSettingsSchema.safeParse({ provider: "sd-webui" }).error?.issues;
    expect(imageIssues?.map((issue) => issue.path.join("."))).toEqual(["url"]);
    expect(imageGenerationSettingsSchema.safeParse({ provider: "openai", apiKey: "k" }).success).toBe(false);
    expect(webFetchSettingsSchema.safeParse({ reach: "everywhere" }).success).toBe(false);
    expect(browserSettingsSchema.safeParse({ viewport: { width: 0, height: 800 } }).success).toBe(false);
  });

  it("gives web_fetch the guard's limits of one exchange, with its page text on top", () => {
    expect(resolveWebFetchSettings({})).toEqual({
      maxBytes: 5 * 1024 * 1024,
      timeoutMs: 20_000,
      maxRedirects: 5,
      maxChars: 30_000,
      network: {},
    });
    expect(webFetchDefaults).toEqual({ ...guardedFetchDefaults, maxChars: 30_000 });
  });
});
