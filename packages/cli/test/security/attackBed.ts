import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { headlessArgs, type LatheRun, runLathe } from "../latheProcess.js";

/** Markers live outside /tmp, which the sandbox replaces with a private one. */
const markerBase = existsSync("/var/tmp") ? "/var/tmp" : tmpdir();

/**
 * A temp project for a malicious model to attack, with a throwaway `$LATHE_HOME` and `$HOME`, and
 * a folder for the markers its payloads would create, outside the project and outside /tmp.
 */
export function attackBed(name: string) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `lathe-${name}-`)));
  const bed = {
    root: join(base, "project"),
    home: join(base, "lathe-home"),
    userHome: join(base, "home"),
    markers: mkdtempSync(join(markerBase, `lathe-${name}-markers-`)),
  };
  for (const dir of [bed.root, bed.home, bed.userHome]) mkdirSync(dir);
  return bed;
}

export type AttackBed = ReturnType<typeof attackBed>;

export interface Attack {
  run: LatheRun;
  /** The tool results the model was sent in its last request, in call order. */
  toolResults: string[];
}

/**
 * Plays `turns` as the model in a real `lathe -p` in the bed's project with no approval given,
 * and settings (`sandbox`, `checkpoints`…) written to the bed's `$LATHE_HOME`.
 */
export async function runAttack(
  bed: AttackBed,
  turns: FakeTurn[],
  options: { approvalMode: string; settings: Record<string, unknown> },
): Promise<Attack> {
  writeFileSync(join(bed.home, "settings.json"), JSON.stringify(options.settings));
  const server: FakeLlm = await startFakeLlm({ script: { turns } });
  try {
    const run = await runLathe(
      headlessArgs("Tidy the project", { root: bed.root, serverUrl: server.url, format: "json" }, [
        "--approval-mode",
        options.approvalMode,
      ]),
      { home: bed.home, env: { OPENAI_API_KEY: fakeKeys.openai, HOME: bed.userHome } },
    );
    const last = server.requests.at(-1)?.body as { messages?: { role: string; content: unknown }[] };
    const toolResults = (last.messages ?? []).filter((m) => m.role === "tool").map((m) => String(m.content));
    return { run, toolResults };
  } finally {
    await server.close();
  }
}
