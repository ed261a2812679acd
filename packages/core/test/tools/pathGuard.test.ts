import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isWithin, resolveProjectPath } from "../../src/policy/pathGuard.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

describe("resolveProjectPath", () => {
  it("resolves a relative path inside the project", async () => {
    writeFileSync(path.join(bed.projectRoot, "a.txt"), "a");
    const result = await resolveProjectPath(bed.projectRoot, "a.txt");
    expect(result).toEqual({ ok: true, path: path.join(bed.projectRoot, "a.txt"), relative: "a.txt" });
  });

  it("accepts a non-existing nested path inside the project", async () => {
    const result = await resolveProjectPath(bed.projectRoot, "src/deep/new/file.ts");
    expect(result).toEqual({
      ok: true,
      path: path.join(bed.projectRoot, "src/deep/new/file.ts"),
      relative: path.join("src", "deep", "new", "file.ts"),
    });
  });

  it("reports the root itself as '.'", async () => {
    expect(await resolveProjectPath(bed.projectRoot, ".")).toEqual({
      ok: true,
      path: bed.projectRoot,
      relative: ".",
    });
  });

  it("refuses a .. escape", async () => {
    const result = await resolveProjectPath(bed.projectRoot, "../outside/secret.txt");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("refuses an escape hidden in the middle of a path", async () => {
    const result = await resolveProjectPath(bed.projectRoot, "src/../../outside/x");
    expect(result.ok || result.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("refuses an absolute path outside the project", async () => {
    const result = await resolveProjectPath(bed.projectRoot, "/etc/passwd");
    expect(result.ok || result.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("accepts an absolute path inside the project", async () => {
    const inside = path.join(bed.projectRoot, "b.txt");
    expect(await resolveProjectPath(bed.projectRoot, inside)).toEqual({
      ok: true,
      path: inside,
      relative: "b.txt",
    });
  });

  it("treats a sibling sharing the root's name as a prefix as outside", async () => {
    const evil = `${bed.projectRoot}-evil`;
    mkdirSync(evil);
    writeFileSync(path.join(evil, "x.txt"), "x");
    const result = await resolveProjectPath(bed.projectRoot, path.join(evil, "x.txt"));
    expect(result.ok || result.error.code).toBe("E_PATH_TRAVERSAL");
    const relative = await resolveProjectPath(bed.projectRoot, `../${path.basename(evil)}/x.txt`);
    expect(relative.ok || relative.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("refuses a symlink inside the project that points outside", async () => {
    writeFileSync(path.join(bed.outside, "secret.txt"), "secret");
    symlinkSync(bed.outside, path.join(bed.projectRoot, "link"));
    const result = await resolveProjectPath(bed.projectRoot, "link/secret.txt");
    expect(result.ok || result.error.code).toBe("E_PATH_TRAVERSAL");
    // Also for a file that does not exist yet behind the link.
    const missing = await resolveProjectPath(bed.projectRoot, "link/new/file.txt");
    expect(missing.ok || missing.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("refuses a dangling symlink whose target is outside", async () => {
    symlinkSync(path.join(bed.outside, "not-yet.txt"), path.join(bed.projectRoot, "dangling"));
    const result = await resolveProjectPath(bed.projectRoot, "dangling");
    expect(result.ok || result.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("follows a symlink that stays inside the project", async () => {
    mkdirSync(path.join(bed.projectRoot, "real"));
    symlinkSync(path.join(bed.projectRoot, "real"), path.join(bed.projectRoot, "alias"));
    const result = await resolveProjectPath(bed.projectRoot, "alias/file.txt");
    expect(result).toEqual({
      ok: true,
      path: path.join(bed.projectRoot, "real", "file.txt"),
      relative: path.join("real", "file.txt"),
    });
  });

  it("handles a project root given through a symlink", async () => {
    const linkedRoot = path.join(bed.outside, "project-link");
    symlinkSync(bed.projectRoot, linkedRoot);
    const result = await resolveProjectPath(linkedRoot, "a.txt");
    expect(result).toEqual({ ok: true, path: path.join(bed.projectRoot, "a.txt"), relative: "a.txt" });
  });

  it("refuses NUL bytes", async () => {
    const result = await resolveProjectPath(bed.projectRoot, "a.txt\0.png");
    expect(result.ok || result.error.code).toBe("E_SECURITY_BLOCKED");
  });

  it("refuses /dev/null, as outside the project and as a device", async () => {
    const outside = await resolveProjectPath(bed.projectRoot, "/dev/null");
    expect(outside.ok || outside.error.code).toBe("E_PATH_TRAVERSAL");
    const device = await resolveProjectPath(bed.projectRoot, "/dev/null", { extraRoots: ["/dev"] });
    expect(device.ok || device.error.code).toBe("E_SECURITY_BLOCKED");
    if (!device.ok) expect(device.error.message).toContain("device file");
  });

  it("refuses a named pipe inside the project", async () => {
    execFileSync("mkfifo", [path.join(bed.projectRoot, "pipe")]);
    const result = await resolveProjectPath(bed.projectRoot, "pipe");
    expect(result.ok || result.error.code).toBe("E_SECURITY_BLOCKED");
  });

  it("allows extra roots and shows their paths in full", async () => {
    const spill = path.join(bed.latheHome, "tool-output", "s", "c.txt");
    const result = await resolveProjectPath(bed.projectRoot, spill, {
      extraRoots: [path.join(bed.latheHome, "tool-output")],
    });
    expect(result).toEqual({ ok: true, path: spill, relative: spill });
    const elsewhere = await resolveProjectPath(bed.projectRoot, path.join(bed.latheHome, "settings.json"), {
      extraRoots: [path.join(bed.latheHome, "tool-output")],
    });
    expect(elsewhere.ok || elsewhere.error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("reports a symlink loop as blocked instead of throwing", async () => {
    symlinkSync(path.join(bed.projectRoot, "loop-b"), path.join(bed.projectRoot, "loop-a"));
    symlinkSync(path.join(bed.projectRoot, "loop-a"), path.join(bed.projectRoot, "loop-b"));
    const result = await resolveProjectPath(bed.projectRoot, "loop-a/x");
    expect(result.ok || result.error.code).toBe("E_SECURITY_BLOCKED");
  });
});

describe("isWithin", () => {
  it("decides by path segments", () => {
    expect(isWithin("/proj", "/proj")).toBe(true);
    expect(isWithin("/proj", "/proj/a/b")).toBe(true);
    expect(isWithin("/proj", "/proj/..foo")).toBe(true);
    expect(isWithin("/proj", "/proj-evil")).toBe(false);
    expect(isWithin("/proj", "/proj-evil/a")).toBe(false);
    expect(isWithin("/proj", "/")).toBe(false);
    expect(isWithin("/proj", "/other")).toBe(false);
  });
});
