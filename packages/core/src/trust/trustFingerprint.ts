import { createHash } from "node:crypto";

/**
 * One sha256 over every gated file's relative path and content hash, in path order: any file
 * added, removed, renamed or edited gives another fingerprint.
 */
export function trustFingerprint(files: readonly { path: string; sha256: string }[]): string {
  const hash = createHash("sha256");
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${file.path}\0${file.sha256}\n`);
  }
  return hash.digest("hex");
}
