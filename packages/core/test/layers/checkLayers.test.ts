import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const script = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../scripts/check-layers.mjs");
const dirs: string[] = [];

function tree(files: Record<string, string>): string {
  const src = mkdtempSync(join(tmpdir(), "lathe-layers-"));
  dirs.push(src);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  return src;
}

function check(src: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [script, src], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("scripts/check-layers.mjs", () => {
  it("passes a tree that keeps the layering", () => {
    const src = tree({
      "tools/tool.ts": 'import type { TodoItem } from "../planning/todo.js";\nexport type T = TodoItem;\n',
      "planning/todo.ts": "export interface TodoItem { id: string }\n",
      "agent/session.ts": 'import "../tools/tool.js";\n',
    });
    expect(check(src).status).toBe(0);
  });

  it("fails on a capability importing agent, a stand-alone one importing tools, and a cycle", () => {
    const src = tree({
      "hooks/runner.ts": 'import { x } from "../agent/session.js";\nexport const y = x;\n',
      "agent/session.ts": "export const x = 1;\n",
      "store/records.ts": 'import type {\n  Port,\n} from "../tools/services.js";\nexport type P = Port;\n',
      "tools/services.ts": "export interface Port { a: string }\n",
      "llm/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
      "llm/b.ts": 'import type { A } from "./a.js";\nexport type B = A | string;\n',
      "llm/c.ts": '// import { nothing } from "../tools/services.js";\nexport const c = "../tools/x.js";\n',
    });
    const { status, output } = check(src);
    expect(status).toBe(1);
    expect(output).toContain("hooks/ imports agent/");
    expect(output).toContain("store/ imports tools/");
    expect(output).toMatch(/import cycle: .*llm\/a\.ts -> .*llm\/b\.ts -> .*llm\/a\.ts/);
    expect(output).not.toContain("llm/c.ts");
  });
});
