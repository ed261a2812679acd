import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveProjectPath } from "../../src/policy/pathGuard.js";
import { isSensitivePath } from "../../src/policy/sensitivePaths.js";

type Expectation = "allow" | "sensitive" | "E_PATH_TRAVERSAL" | "E_SECURITY_BLOCKED";

interface PathCase {
  path: string;
  expect: Expectation;
  why: string;
  setup?: {
    files?: Record<string, string>;
    dirs?: string[];
    /** Link path (in the project) → target, as written into the link. */
    symlinks?: Record<string, string>;
    fifos?: string[];
  };
  extraRoots?: string[];
  latheHome?: string;
}

const corpus: { cases: PathCase[] } = JSON.parse(
  readFileSync(new URL("./corpora/paths.json", import.meta.url), "utf8"),
);

const bases: string[] = [];
afterAll(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

/** A fresh project beside an `outside` directory and a sibling named like the project plus `-evil`. */
function makeBed(testCase: PathCase) {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-path-corpus-")));
  bases.push(base);
  const root = path.join(base, "proj");
  const outside = path.join(base, "outside");
  const sibling = `${root}-evil`;
  mkdirSync(root);
  mkdirSync(path.join(outside, "dir"), { recursive: true });
  mkdirSync(sibling);
  writeFileSync(path.join(outside, "secret.txt"), "secret");
  writeFileSync(path.join(sibling, "x.txt"), "x");
  const fill = (text: string) =>
    text
      .replaceAll("$ROOT", root)
      .replaceAll("$NAME", path.basename(root))
      .replaceAll("$OUTSIDE", outside)
      .replaceAll("$SIBLING", sibling);
  const { setup = {} } = testCase;
  for (const dir of setup.dirs ?? []) mkdirSync(path.join(root, dir), { recursive: true });
  for (const [file, contents] of Object.entries(setup.files ?? {})) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), contents);
  }
  for (const fifo of setup.fifos ?? []) execFileSync("mkfifo", [path.join(root, fifo)]);
  for (const [link, target] of Object.entries(setup.symlinks ?? {}))
    symlinkSync(fill(target), path.join(root, link));
  return {
    root,
    input: fill(testCase.path),
    extraRoots: (testCase.extraRoots ?? []).map(fill),
    latheHome: fill(testCase.latheHome ?? path.join(base, "lathe-home")),
  };
}

async function outcome(testCase: PathCase): Promise<Expectation> {
  const bed = makeBed(testCase);
  const guarded = await resolveProjectPath(bed.root, bed.input, { extraRoots: bed.extraRoots });
  if (!guarded.ok) {
    const { code } = guarded.error;
    if (code !== "E_PATH_TRAVERSAL" && code !== "E_SECURITY_BLOCKED") throw new Error(`unexpected ${code}`);
    return code;
  }
  // The policy judges the path as the model gave it, as it does for a real call.
  return isSensitivePath(bed.input, { projectRoot: bed.root, latheHome: bed.latheHome })
    ? "sensitive"
    : "allow";
}

// Backslashes, drive letters and device names mean other things on Windows; see the corpus's decisions.
describe.skipIf(process.platform === "win32")("path corpus", () => {
  it("has at least 100 cases of every kind", () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(100);
    const kinds = new Set(corpus.cases.map((testCase) => testCase.expect));
    expect([...kinds].sort()).toEqual(["E_PATH_TRAVERSAL", "E_SECURITY_BLOCKED", "allow", "sensitive"]);
  });

  it.each(
    corpus.cases.map(
      (testCase, index) => [index, JSON.stringify(testCase.path), testCase.why, testCase] as const,
    ),
  )("#%i %s: %s", async (_index, _shown, _why, testCase) => {
    expect(await outcome(testCase)).toBe(testCase.expect);
  });
});
