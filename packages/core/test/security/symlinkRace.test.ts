import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/tools/builtin/index.js";
import { FileReadLedger } from "../../src/tools/fileReadLedger.js";
import type { ToolResult } from "../../src/tools/tool.js";
import { runTool } from "../../src/tools/toolInvocation.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, type ToolTestBed } from "../tools/toolTestContext.js";

/**
 * The attack of issue 14, class 5: while the tools write into `sub/`, another process keeps
 * swapping the real directory `sub` for a link `sub -> <outside>` and back. The path guard sees a
 * real directory, then the write happens through whatever `sub` is at that moment.
 */
const swapperSource = `
const fs = require("node:fs");
const path = require("node:path");
const [root, outside, stopFile, maxSwaps, maxMs] = process.argv.slice(1);
const sub = path.join(root, "sub");
const parked = path.join(root, "sub.real");
const link = path.join(root, "sub.link");
fs.symlinkSync(outside, link);
const deadline = Date.now() + Number(maxMs);
let swaps = 0;
let fresh = 0;
process.stdout.write("ready\\n");
const attempt = (step) => { try { step(); return true; } catch { return false; } };
const linger = () => { const until = Date.now() + Math.random() * 2; while (Date.now() < until); };
while (swaps < Number(maxSwaps) && Date.now() < deadline && !fs.existsSync(stopFile)) {
  linger();
  if (!attempt(() => fs.renameSync(sub, parked))) continue;
  if (attempt(() => fs.renameSync(link, sub))) {
    swaps++;
    attempt(() => fs.renameSync(sub, link));
  }
  // A tool may have made a new sub while it was gone: set that one aside, inside the project.
  for (let tries = 0; tries < 100 && !attempt(() => fs.renameSync(parked, sub)); tries++) {
    attempt(() => fs.renameSync(sub, sub + ".fresh" + fresh++));
  }
}
process.stdout.write(String(swaps));
`;

const writes = 200;
const concurrency = 4;

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

/** Every entry below `directory`, links not followed: relative name → mode and content hash or link target. */
function snapshot(directory: string, prefix = ""): Map<string, string> {
  const entries = new Map<string, string>();
  for (const name of readdirSync(directory)) {
    const entry = path.join(directory, name);
    const relative = `${prefix}${name}`;
    const stats = lstatSync(entry);
    if (stats.isSymbolicLink()) entries.set(relative, `link ${readlinkSync(entry)}`);
    else if (stats.isDirectory()) {
      entries.set(relative, `dir ${stats.mode}`);
      for (const [inner, described] of snapshot(entry, `${relative}/`)) entries.set(inner, described);
    } else {
      const hash = createHash("sha256").update(readFileSync(entry)).digest("hex");
      entries.set(relative, `file ${stats.mode} ${hash}`);
    }
  }
  return entries;
}

/** Entries added, removed or changed between two snapshots. */
function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

/** Every regular file below `directory` with its text, links not followed. */
function filesBelow(directory: string): string[] {
  return [...snapshot(directory).keys()]
    .filter((relative) => lstatSync(path.join(directory, relative)).isFile())
    .map((relative) => `${path.basename(relative)}=${readFileSync(path.join(directory, relative), "utf8")}`);
}

interface Call {
  tool: string;
  args: Record<string, unknown>;
  /** A file name and text that must be somewhere in the project once the call succeeded. */
  leaves?: string;
}

/** 200 calls into sub/, the four mutating file tools and apply_patch's add, update, delete and move. */
function plannedCalls(): Call[] {
  const calls: Call[] = [];
  for (let index = 0; index < writes / 5; index++) {
    calls.push({
      tool: "write_file",
      args: { path: `sub/w${index}.txt`, contents: `written ${index}\n` },
      leaves: `w${index}.txt=written ${index}\n`,
    });
    calls.push({
      tool: "edit_file",
      args: { path: `sub/e${index}.txt`, old_string: "original", new_string: `edited ${index}` },
      leaves: `e${index}.txt=edited ${index}\n`,
    });
    calls.push({ tool: "delete_file", args: { path: `sub/d${index}.txt` } });
    calls.push({
      tool: "apply_patch",
      args: {
        patch: [
          "*** Begin Patch",
          `*** Add File: sub/n${index}.txt`,
          `+added ${index}`,
          `*** Update File: sub/u${index}.txt`,
          `*** Move to: sub/m${index}.txt`,
          "@@",
          "-original",
          `+moved ${index}`,
          `*** Delete File: sub/p${index}.txt`,
          "*** End Patch",
        ].join("\n"),
      },
      leaves: `n${index}.txt=added ${index}\n`,
    });
    calls.push({
      tool: "multi_edit",
      args: {
        path: `sub/x${index}.txt`,
        edits: [{ old_string: "original", new_string: `multi ${index}` }],
      },
      leaves: `x${index}.txt=multi ${index}\n`,
    });
  }
  return calls;
}

/** The same files, with the same text, inside the project and outside it, so any escape shows. */
function plantTargets(directories: string[]): void {
  for (const directory of directories) {
    mkdirSync(directory, { recursive: true });
    for (let index = 0; index < writes / 5; index++) {
      for (const prefix of ["w", "e", "d", "u", "p", "x"]) {
        writeFileSync(path.join(directory, `${prefix}${index}.txt`), "original\n");
      }
    }
  }
}

/** Starts the swapper and waits until it is about to swap; `swaps` is how many it made. */
async function startSwapper(stopFile: string): Promise<{ child: ChildProcess; swaps: Promise<number> }> {
  const child = spawn(
    process.execPath,
    ["-e", swapperSource, bed.projectRoot, bed.outside, stopFile, "1000000", "60000"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  let announceReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    announceReady = resolve;
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.startsWith("ready\n")) announceReady();
  });
  const swaps = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => {
      announceReady();
      resolve(Number(output.replace("ready\n", "")));
    });
  });
  await ready;
  return { child, swaps };
}

describe("writes into a directory swapped for a link while they run", () => {
  it(`lets none of ${writes} file tool calls change anything outside the project`, async () => {
    plantTargets([path.join(bed.projectRoot, "sub"), bed.outside]);
    const outsideBefore = snapshot(bed.outside);
    const registry = new ToolRegistry(builtinTools());
    // Reads are not what is attacked here; enforcing them would refuse most edits before they race.
    const ctx = { ...bed.context(), fileReads: new FileReadLedger({ enforce: false }) };
    const stopFile = path.join(bed.latheHome, "stop-swapping");
    const swapper = await startSwapper(stopFile);

    const calls = plannedCalls();
    const results: ToolResult[] = [];
    try {
      for (let start = 0; start < calls.length; start += concurrency) {
        const batch = calls.slice(start, start + concurrency).map(async (call) => {
          const validated = registry.validate(call.tool, JSON.stringify(call.args));
          if (!validated.ok) throw new Error(`invalid call: ${validated.error.message}`);
          return runTool(validated.tool, validated.args, ctx);
        });
        results.push(...(await Promise.all(batch)));
      }
    } finally {
      writeFileSync(stopFile, "");
    }
    const swaps = await swapper.swaps;

    const escapes = differences(outsideBefore, snapshot(bed.outside));
    const refusals = new Map<string, number>();
    for (const result of results) {
      if (!result.ok) refusals.set(result.error.code, (refusals.get(result.error.code) ?? 0) + 1);
    }
    const succeeded = results.filter((result) => result.ok).length;
    console.info(
      `symlink race: ${swaps} swaps, ${succeeded} of ${writes} calls succeeded, refused: ${JSON.stringify(Object.fromEntries(refusals))}, escapes: ${escapes.length}`,
    );

    expect(results).toHaveLength(writes);
    expect(swaps).toBeGreaterThan(0);
    expect(escapes).toEqual([]);
    // What a call reported as done is in the project: in sub, or in the parked copy of it.
    const inProject = new Set(filesBelow(bed.projectRoot));
    const missing = calls.flatMap((call, index) =>
      results[index]?.ok === true && call.leaves !== undefined && !inProject.has(call.leaves)
        ? [call.leaves]
        : [],
    );
    expect(missing).toEqual([]);
  }, 120_000);
});
