import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadUserSettings } from "../src/userSettings.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "lathe-settings-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function write(text: string): string {
  const file = join(home, "settings.json");
  writeFileSync(file, text);
  return file;
}

describe("loadUserSettings", () => {
  it("reads no file as no settings", () => {
    expect(loadUserSettings(home)).toEqual({ ok: true, settings: {} });
  });

  it("composes the web tools' own schemas", () => {
    write(
      JSON.stringify({
        webFetch: { maxChars: 500, reach: "local" },
        webSearch: { providers: ["duckduckgo"] },
        imageGeneration: { provider: "sd-webui", url: "http://127.0.0.1:7860" },
        browser: { allowLocalhost: true },
      }),
    );
    expect(loadUserSettings(home)).toEqual({
      ok: true,
      settings: {
        webFetch: { maxChars: 500, reach: "local" },
        webSearch: { providers: ["duckduckgo"] },
        imageGeneration: { provider: "sd-webui", url: "http://127.0.0.1:7860" },
        browser: { allowLocalhost: true },
      },
    });
  });

  it("names the file and the fields of invalid settings", () => {
    const file = write(JSON.stringify({ webFetch: { maxChars: -1 }, webSearch: { reach: "far" } }));
    const loaded = loadUserSettings(home);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const [heading, ...problems] = loaded.message.split("\n  ");
    expect(heading).toBe(`${file} has invalid settings:`);
    expect(problems.map((problem) => problem.split(":")[0])).toEqual([
      "webSearch.reach",
      "webFetch.maxChars",
    ]);
  });

  it("says when the file is not JSON, or not a JSON object", () => {
    const file = write("{ not json");
    const broken = loadUserSettings(home);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.message).toMatch(new RegExp(`^${file} is not valid JSON: `));
    write("[]");
    expect(loadUserSettings(home)).toEqual({ ok: false, message: `${file} must hold a JSON object` });
  });
});
