import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RuleProject {
  /** Real path of a fresh project directory. */
  root: string;
  /** A directory beside the project, for things that must be outside it. */
  outside: string;
  /** Writes a file of the project, creating its folders. */
  write(relative: string, contents: string): void;
  /** Makes `relative` a symbolic link to `target` (absolute, or relative to the link). */
  link(relative: string, target: string): void;
  cleanup(): void;
}

export function createRuleProject(): RuleProject {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-rules-")));
  const root = path.join(base, "project");
  const outside = path.join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  const ensureParent = (absolute: string) => mkdirSync(path.dirname(absolute), { recursive: true });
  return {
    root,
    outside,
    write: (relative, contents) => {
      const absolute = path.join(root, relative);
      ensureParent(absolute);
      writeFileSync(absolute, contents);
    },
    link: (relative, target) => {
      const absolute = path.join(root, relative);
      ensureParent(absolute);
      symlinkSync(target, absolute);
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
