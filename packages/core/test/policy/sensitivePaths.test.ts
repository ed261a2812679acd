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
    [".git/config.worktree", ".git/config.worktree"],
    [".git/commondir", ".git/commondir"],
    [".git/info/attributes", ".git/info/"],
    [".git/worktrees/feature/gitdir", ".git/worktrees/"],
    [".git/modules/libs/ui/config", ".git/modules/*/config"],
    [".git/modules/ui/hooks/post-checkout", ".git/modules/*/hooks/"],
    [".git", ".git (a gitdir file)"],
    ["vendor/lib/.git", ".git (a gitdir file)"],
    [".lathe", ".lathe/"],
    [".lathe/settings.json", ".lathe/"],
    [".lathe/settings.local.json", ".lathe/"],
    [".lathe/hooks.json", ".lathe/"],
    [".lathe/mcp.json", ".lathe/"],
    [".lathe/agents/reviewer.md", ".lathe/"],
    [".lathe/commands/ship.md", ".lathe/"],
    [".lathe/rules/style.md", ".lathe/"],
    [".lathe/.gitignore", ".lathe/"],
    ["./.lathe/../.lathe/settings.json", ".lathe/"],
    [".lathe/plans/../hooks.json", ".lathe/"],
    [".cursor", ".cursor/mcp.json"],
    [".cursor/mcp.json", ".cursor/mcp.json"],
    [".cursor/rules/style.mdc", ".cursor/rules/"],
    ["/home/u/.bashrc", ".bashrc"],
    [".bash_profile", ".bash_profile"],
    [".bash_login", ".bash_login"],
    [".profile", ".profile"],
    [".zshrc", ".zshrc"],
    [".zshenv", ".zshenv"],
    [".zprofile", ".zprofile"],
    [".zlogin", ".zlogin"],
    [".inputrc", ".inputrc"],
    ["/home/u/.gitconfig", ".gitconfig"],
    ["/home/u/.config/git/config", ".config/git/config"],
    ["/home/u/.config/fish/config.fish", ".config/fish/"],
    ["/home/u/.config/fish/conf.d/x.fish", ".config/fish/"],
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
    ".git/objects/info/alternates",
    ".git/refs/heads/config",
    ".git/modules/ui/HEAD",
    ".lathe/plans/refactor.md",
    "lathe/hooks.json",
    ".cursor/environment.json",
    "cursor/mcp.json",
    "docs/bashrc.md",
    ".bashrc.d.md/../notes.md",
    "profile",
    ".config/git/ignore",
    "fish/config.fish",
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
    expect(isSensitivePath(".LATHE/hooks.json", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".Git/Hooks/pre-commit", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".Cursor/MCP.json", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".BashRC", { caseInsensitive: true })).toBe(true);
    expect(isSensitivePath(".Lathe/Plans/a.md", { caseInsensitive: true })).toBe(false);
    expect(isSensitivePath(".LATHE/hooks.json", { caseInsensitive: false })).toBe(false);
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

  it("judges .lathe, .git and .cursor however they are spelled or reached", () => {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-sensitive-")));
    const projectRoot = path.join(base, "project");
    mkdirSync(path.join(projectRoot, ".lathe"), { recursive: true });
    mkdirSync(path.join(projectRoot, ".git", "hooks"), { recursive: true });
    mkdirSync(path.join(projectRoot, "src"));
    symlinkSync(".lathe/settings.json", path.join(projectRoot, "settings-link.json"));
    symlinkSync(".lathe", path.join(projectRoot, "config-dir"));
    symlinkSync(".git/hooks", path.join(projectRoot, "hook-dir"));
    symlinkSync("../.cursor", path.join(projectRoot, "src", "editor"));
    const options = { projectRoot, caseInsensitive: false };
    for (const spelling of [
      ".lathe/settings.json",
      "./.lathe/../.lathe/settings.json",
      "src/../.lathe/./settings.json",
      path.join(projectRoot, ".lathe", "settings.json"),
      `${projectRoot}//.lathe/settings.json`,
      "settings-link.json",
      "config-dir/hooks.json",
      "hook-dir/pre-commit",
      "src/editor/mcp.json",
    ]) {
      expect(isSensitivePath(spelling, options), spelling).toBe(true);
    }
    expect(isSensitivePath(".lathe/plans/next.md", options)).toBe(false);
    expect(isSensitivePath("config-dir/plans/next.md", options)).toBe(false);
    rmSync(base, { recursive: true, force: true });
  });

  it("counts .git as sensitive unless it is a directory: a gitdir file redirects the repository", () => {
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-sensitive-")));
    const withDirectory = path.join(base, "with-directory");
    const withFile = path.join(base, "with-file");
    const without = path.join(base, "without");
    mkdirSync(path.join(withDirectory, ".git"), { recursive: true });
    mkdirSync(withFile);
    writeFileSync(path.join(withFile, ".git"), "gitdir: ../elsewhere\n");
    mkdirSync(without);
    const judge = (projectRoot: string) =>
      sensitivePathMatch(".git", { projectRoot, caseInsensitive: false });
    expect(judge(withDirectory)).toBeUndefined();
    expect(judge(withFile)).toBe(".git (a gitdir file)");
    expect(judge(without)).toBe(".git (a gitdir file)");
    expect(sensitivePathMatch(".git/HEAD", { projectRoot: withDirectory, caseInsensitive: false })).toBe(
      undefined,
    );
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
