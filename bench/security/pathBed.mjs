// The path corpus's test bed: a fresh project beside an `outside` directory and a sibling named
// like the project plus `-evil`, with each case's files, symlinks and FIFOs. Plain JavaScript so
// the security benchmark and the corpus test share it without a build.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function makePathBed(testCase, bases) {
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
  const fill = (text) =>
    text
      .replaceAll("$ROOT", root)
      .replaceAll("$NAME", path.basename(root))
      .replaceAll("$OUTSIDE", outside)
      .replaceAll("$SIBLING", sibling);
  const setup = testCase.setup ?? {};
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

/** What the guard and the sensitive-path check make of one case. */
export async function pathOutcome(testCase, { resolveProjectPath, isSensitivePath }, bases) {
  const bed = makePathBed(testCase, bases);
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
