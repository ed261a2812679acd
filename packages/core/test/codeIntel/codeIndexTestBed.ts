import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CodeIndex, type CodeIndexOptions } from "../../src/codeIntel/index.js";
import { SessionStore } from "../../src/store/sessionStore.js";

export interface CodeIndexBed {
  projectRoot: string;
  store: SessionStore;
  /** Writes a file of the project, creating its folders. */
  write(relative: string, contents: string | Buffer): string;
  open(options?: Omit<CodeIndexOptions, "db" | "projectRoot">, projectRoot?: string): CodeIndex;
  cleanup(): void;
}

/** A project directory and a session database, both real, in a fresh temp directory. */
export function createCodeIndexBed(): CodeIndexBed {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-codeintel-")));
  const projectRoot = path.join(base, "project");
  mkdirSync(projectRoot);
  const opened = SessionStore.open(path.join(base, "home", "lathe.db"));
  if (!opened.ok) throw new Error(opened.error.message);
  const store = opened.value;
  return {
    projectRoot,
    store,
    write(relative, contents) {
      const absolute = path.join(projectRoot, relative);
      mkdirSync(path.dirname(absolute), { recursive: true });
      writeFileSync(absolute, contents);
      return absolute;
    },
    open: (options = {}, root = projectRoot) =>
      CodeIndex.open({ db: store.db, projectRoot: root, ...options }),
    cleanup() {
      store.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

export const never = new AbortController().signal;
