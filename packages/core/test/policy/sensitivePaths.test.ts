import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isSensitivePath, sensitivePathMatch } from "../../src/policy/sensitivePaths.js";

const caseSensitive = { caseInsensitive: false };

describe("isSensitivePath", () => {
  it.each([
    [".env", ".env*"],
    [".env.local", ".env*"],
    ["config/.env.production", ".env*"],
    [".envrc", ".env*"],
    [".ssh", ".ssh/"],
    [".ssh/id_ed25519.pub", ".ssh/"],
    ["/home/u/.aws/credentials", ".aws/"],
    ["home/.gnupg/pubring.kbx", ".gnupg/"],
    ["certs/server.pem", "*.pem"],
    ["tls/private.key", "*.key"],
    ["backup/id_rsa", "id_rsa*"],
    ["id_rsa.pub", "id_rsa*"],
    ["keys/id_ecdsa_work", "id_ecdsa*"],
    ["credentials", "credentials*"],
    ["gcloud/credentials.json", "credentials*"],
    [".git/config", ".git/config"],
    ["vendor/lib/.git/config", ".git/config"],
    [".git/hooks", ".git/hooks/"],
    [".git/hooks/pre-commit", ".git/hooks/"],
    [".lathe/settings.json", ".lathe/settings*.json"],
    [".lathe/settings.local.json", ".lathe/settings*.json"],
    ["a\\.ssh\\id_rsa", ".ssh/"],
    ["src/../.env", ".env*"],
  ])("%s is sensitive (%s)", (input, pattern) => {
    expect(sensitivePathMatch(input, caseSensitive)).toBe(pattern);
  });

  it.each([
    "my.environment.ts",
    "env",
    "src/env.ts",
    ".env.example",
    "config/.env.sample",
    ".env.template",
    "notes/ssh/config",
    "aws.ts",
    "keyboard.ts",
    "key.ts",
    "server.pem.md",
    "my_credentials.json",
    "docs/id_rsa_explained.md/..",
    ".git/HEAD",
    ".git/objects/ab/cdef",
    ".gitconfig-notes/readme",
    "git/config",
    ".lathe/rules/style.md",
    ".lathe/hooks.json",
    "settings.json",
    "lathe/settings.json",
    "src/.lathe.ts",
  ])("%s is not sensitive", (input) => {
    expect(isSensitivePath(input, caseSensitive)).toBe(false);
  });

  it("ignores case where the file system does", () => {
    expect(isSensitivePath(".ENV", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".SSH/Id_Rsa", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".Lathe/Settings.JSON", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".ENV", { caseInsensitive: false })).toBe(false);
  });

  it("judges only the part below the project root, and follows symlinks", () => {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-sensitive-")));
    const projectRoot = path.join(base, ".aws", "project");
    mkdirSync(projectRoot, { recursive: true });
    writeFileSync(path.join(projectRoot, ".env"), "X=1");
    symlinkSync(".env", path.join(projectRoot, "notes.txt"));
    symlinkSync("missing/.env", path.join(projectRoot, "dangling.txt"));
    const options = { projectRoot, caseInsensitive: false };
    expect(isSensitivePath("src/index.ts", options)).toBe(false);
    expect(isSensitivePath(path.join(projectRoot, "src/index.ts"), options)).toBe(false);
    expect(isSensitivePath("notes.txt", options)).toBe(true);
    expect(isSensitivePath("dangling.txt", options)).toBe(true);
    expect(isSensitivePath(path.join(base, ".aws", "other", "file"), options)).toBe(true);
    rmSync(base, { recursive: true, force: true });
  });

  it("covers $LATHE_HOME's credentials and settings under any name", () => {
    const latheHome = "/srv/lathe-data";
    const options = { projectRoot: "/work/p", latheHome, caseInsensitive: false };
    expect(sensitivePathMatch("/srv/lathe-data/credentials.json", options)).toBe("credentials*");
    expect(sensitivePathMatch("/srv/lathe-data/settings.json", options)).toBe("$LATHE_HOME/settings*.json");
    expect(isSensitivePath("/srv/lathe-data/logs/run.log", options)).toBe(false);
    expect(isSensitivePath("/srv/lathe-data-evil/settings.json", options)).toBe(false);
  });
});
