import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type LoadedHooks, loadHooks } from "../../src/hooks/index.js";

/** A temp project and `$LATHE_HOME`, with helpers to write hooks.json files and hook scripts. */
export interface HookTestBed {
  projectRoot: string;
  latheHome: string;
  /** Writes an executable script under `.lathe/hooks/` and returns its absolute path. */
  script(name: string, body: string): string;
  projectHooks(config: unknown): void;
  userHooks(config: unknown): void;
  load(): LoadedHooks;
  cleanup(): void;
}

export function createHookTestBed(): HookTestBed {
  const base = mkdtempSync(path.join(tmpdir(), "lathe-hooks-"));
  const projectRoot = path.join(base, "project");
  const latheHome = path.join(base, "home");
  mkdirSync(path.join(projectRoot, ".lathe", "hooks"), { recursive: true });
  mkdirSync(latheHome, { recursive: true });
  return {
    projectRoot,
    latheHome,
    script(name, body) {
      const file = path.join(projectRoot, ".lathe", "hooks", name);
      writeFileSync(file, `#!/usr/bin/env bash\n${body}`);
      chmodSync(file, 0o755);
      return file;
    },
    projectHooks(config) {
      writeFileSync(path.join(projectRoot, ".lathe", "hooks.json"), JSON.stringify(config));
    },
    userHooks(config) {
      writeFileSync(path.join(latheHome, "hooks.json"), JSON.stringify(config));
    },
    load: () => loadHooks({ projectRoot, latheHome }),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * A `node -e` one-liner that prints one field of the hook's stdin JSON (a dotted path): node is on
 * every machine Lathe runs on, jq is not.
 */
export function readInputField(field: string): string {
  const program = `let s="";process.stdin.on("data",(d)=>{s+=d}).on("end",()=>{let v=JSON.parse(s);for(const k of ${JSON.stringify(field.split("."))})v=v==null?undefined:v[k];process.stdout.write(v==null?"":typeof v==="string"?v:JSON.stringify(v))})`;
  return `node -e '${program}'`;
}
