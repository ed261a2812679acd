// The interactive terminal UI (issue 18): the built `lathe` in a pseudo-terminal against scripted
// models, measured from the bytes it writes to the terminal. (1) Keystroke to echo, p50/p95, on an
// empty session and on one resumed with 2,000 transcript items (target p95 < 16 ms); (2) CPU
// while idle at the prompt (target ~0%); (3) frames per second, bytes per second and full-screen
// repaints while an answer streams 5,000 tokens/s of markdown (targets ≥ 30 fps, no full-screen
// repaint); (4) resident memory after 2,000 items; (5) start to a ready prompt (target < 400 ms),
// and `lathe -p`'s start-up as bench/startup measures it, which the terminal UI must not slow.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeLlm } from "../../packages/testkit/dist/index.js";
import { run as startupFigures } from "../startup/bench.mjs";
import { longMarkdown } from "../ui/content.mjs";
import { residentMb, treeCpuSeconds } from "./processCpu.mjs";
import { startLathe, stripEscapes, terminalSize } from "./ptyLathe.mjs";
import { answerMark, questionMark, storeConversation } from "./storedConversation.mjs";
import { framesBetween, repaintsScreen } from "./terminalFrames.mjs";

const model = "openai:gpt-4.1";
const keystrokes = 200;
/** A fast typist's pace: the next key this long after the previous one is drawn. */
const keyGapMs = 50;
const storedTurns = 1_000;
const idleSeconds = 5;
const starts = 7;
const streamTokensPerSecond = 5_000;
const streamSeconds = 5;
/** How long after the stream's end the bench waits for the whole answer to be on the terminal. */
const streamLagLimitMs = 60_000;

export async function run() {
  const start = await measureStart();
  const empty = await measureSession({ turns: 0 });
  const long = await measureSession({ turns: storedTurns });
  const streaming = await measureStreaming();
  const startup = (await startupFigures()).filter(({ metric }) => metric.includes("lathe -p start"));
  return [
    {
      metric: `keystroke → echo, empty session, p50 (${keystrokes} keys)`,
      value: round(empty.echo.p50),
      unit: "ms",
    },
    { metric: "  p95", value: round(empty.echo.p95), unit: "ms", target: "< 16" },
    { metric: "  slowest", value: round(empty.echo.max), unit: "ms" },
    {
      metric: `keystroke → echo, ${long.items.toLocaleString("en")} transcript items, p50`,
      value: round(long.echo.p50),
      unit: "ms",
    },
    { metric: "  p95", value: round(long.echo.p95), unit: "ms", target: "< 16" },
    { metric: "  slowest", value: round(long.echo.max), unit: "ms" },
    {
      metric: `CPU idle at the prompt, empty session (${idleSeconds} s, % of one core)`,
      value: round(empty.idleCpu, 2),
      unit: "%",
      target: "~0",
    },
    {
      metric: `CPU idle at the prompt, ${long.items.toLocaleString("en")} items`,
      value: round(long.idleCpu, 2),
      unit: "%",
      target: "~0",
    },
    { metric: "RSS at the prompt, empty session", value: round(empty.rssMb), unit: "MB" },
    {
      metric: `RSS at the prompt, ${long.items.toLocaleString("en")} items`,
      value: round(long.rssMb),
      unit: "MB",
    },
    {
      metric: `frames/s while ${streamTokensPerSecond.toLocaleString("en")} tok/s of markdown stream (~${streamSeconds} s)`,
      value: round(streaming.fps),
      unit: "fps",
      target: "≥ 30",
    },
    { metric: "  longest gap between frames", value: round(streaming.longestGapMs), unit: "ms" },
    {
      metric: "  bytes written to the terminal per second",
      value: round(streaming.kbPerSecond),
      unit: "KB/s",
    },
    {
      metric: "  full-screen repaints / frames",
      value: `${streaming.repaints} / ${streaming.frames}`,
      unit: "",
      target: "0 repaints",
    },
    {
      metric: "  CPU of lathe while streaming (% of one core)",
      value: round(streaming.cpuPercent),
      unit: "%",
    },
    {
      metric: "  sections of the answer on the terminal when the stream ended",
      value: `${streaming.sectionsDrawnByEnd} / ${streaming.sections}`,
      unit: "",
    },
    {
      metric: "  stream's end → the whole answer on the terminal",
      value: streaming.lagMs === undefined ? `> ${streamLagLimitMs / 1_000} s` : round(streaming.lagMs),
      unit: streaming.lagMs === undefined ? "" : "ms",
    },
    {
      metric: `  bytes written to the terminal from the request until then (or the ${streamLagLimitMs / 1_000} s limit)`,
      value: round(streaming.writtenUntilDrawn / 2 ** 20),
      unit: "MB",
    },
    {
      metric: "  markdown streamed / streaming time",
      value: `${streaming.characters.toLocaleString("en")} chars, ${round(streaming.seconds, 2)} s`,
      unit: "",
    },
    {
      metric: `interactive start → prompt drawn (median of ${starts})`,
      value: round(start.promptMs),
      unit: "ms",
    },
    {
      metric: `interactive start → a typed key echoed in the prompt (median of ${starts})`,
      value: round(start.readyMs),
      unit: "ms",
      target: "< 400",
    },
    {
      metric: "  fastest / slowest",
      value: `${round(start.fastestMs)} / ${round(start.slowestMs)}`,
      unit: "ms",
    },
    {
      metric: `\`lathe -c\` with ${long.items.toLocaleString("en")} items → a typed key echoed`,
      value: round(long.readyMs),
      unit: "ms",
    },
    ...startup,
  ];
}

/** A fresh project and `$LATHE_HOME` with the default settings, removed by `remove`. */
function workspace() {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-bench-tui-")));
  const project = path.join(base, "project");
  const home = path.join(base, "home");
  for (const dir of [project, home]) mkdirSync(dir);
  writeFileSync(path.join(project, "README.md"), "# A project\n");
  return { project, home, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** `lathe` in the pty against `server`, in `at`; `extra` arguments after the model's. */
function startChat(server, at, extra = []) {
  return startLathe({
    args: ["--model", model, "--base-url", `${server.url}/v1`, ...extra],
    project: at.project,
    home: at.home,
  });
}

/**
 * Waits for the input line ("› ", after whatever `after` names) and for a key typed into it to be
 * drawn: from then on the prompt takes keys. Returns the times both happened.
 */
async function waitUntilReady(lathe, after = "") {
  let scanned = 0;
  let markAt = after ? -1 : 0;
  const promptAt = await lathe.waitForOutput(
    (output) => {
      // Only the output new since the last look is searched for the mark, which is plain text.
      if (markAt < 0) {
        const found = output.indexOf(after, Math.max(0, scanned - after.length));
        scanned = output.length;
        if (found < 0) return false;
        markAt = found;
      }
      return stripEscapes(output.slice(markAt)).includes("› ");
    },
    { timeoutMs: 60_000, what: "the prompt" },
  );
  const readyAt = await echoOf(lathe, "~");
  if (!lathe.rawMode()) throw new Error("the prompt was drawn but the terminal is not in raw mode");
  return { promptMs: promptAt - lathe.startedAt, readyMs: readyAt - lathe.startedAt };
}

/** Types one key (or a line) and resolves with the time it was written back to the terminal. */
function echoOf(lathe, key) {
  const from = lathe.output().length;
  lathe.type(key);
  return lathe.waitForOutput((output) => stripEscapes(output.slice(from)).includes(key), {
    timeoutMs: 10_000,
    what: `the echo of ${key}`,
  });
}

async function measureStart() {
  const promptMs = [];
  const readyMs = [];
  const server = await startFakeLlm({ script: { turns: [] } });
  try {
    for (let i = 0; i < starts; i++) {
      const at = workspace();
      const lathe = startChat(server, at);
      try {
        const ready = await waitUntilReady(lathe);
        promptMs.push(ready.promptMs);
        readyMs.push(ready.readyMs);
      } finally {
        await lathe.close();
        at.remove();
      }
    }
  } finally {
    await server.close();
  }
  return {
    promptMs: median(promptMs),
    readyMs: median(readyMs),
    fastestMs: Math.min(...readyMs),
    slowestMs: Math.max(...readyMs),
  };
}

/**
 * A session at the prompt, new or resumed (`-c`) with `turns` stored exchanges: CPU over
 * `idleSeconds` idle, RSS, then `keystrokes` keys typed into the prompt one at a time.
 */
async function measureSession({ turns }) {
  const server = await startFakeLlm({ script: { turns: [] } });
  const at = workspace();
  if (turns > 0) storeConversation({ home: at.home, projectRoot: at.project, turns, model });
  const lathe = startChat(server, at, turns > 0 ? ["-c"] : []);
  try {
    const ready = await waitUntilReady(lathe, turns > 0 ? answerMark(turns) : "");
    const items = turns > 0 ? countItems(stripEscapes(lathe.output()), turns) : 0;
    // Whatever the start left running (the sandbox probe, the database) settles first.
    await sleep(1_000);
    const cpuBefore = treeCpuSeconds(lathe.pid);
    const idleFrom = performance.now();
    await sleep(idleSeconds * 1_000);
    const idleCpu =
      ((treeCpuSeconds(lathe.pid) - cpuBefore) / ((performance.now() - idleFrom) / 1_000)) * 100;
    const rssMb = residentMb(lathe.pid);
    const echoMs = [];
    for (let i = 0; i < keystrokes; i++) {
      const key = String.fromCharCode(97 + (i % 26));
      const typedAt = performance.now();
      echoMs.push((await echoOf(lathe, key)) - typedAt);
      await sleep(keyGapMs);
    }
    return { items, idleCpu, rssMb, readyMs: ready.readyMs, echo: percentiles(echoMs) };
  } finally {
    await lathe.close();
    await server.close();
    at.remove();
  }
}

/**
 * Every stored message drawn on the terminal, counted by its mark: the items are really in the
 * UI's transcript, not only in the database.
 */
function countItems(drawn, turns) {
  const questions = new Set(drawn.match(/Question \d{4}/g));
  const answers = new Set(drawn.match(/Answer \d{4}/g));
  if (questions.size !== turns || answers.size !== turns || !drawn.includes(questionMark(1)))
    throw new Error(`drawn ${questions.size} questions and ${answers.size} answers of ${turns} each`);
  return questions.size + answers.size;
}

/**
 * One message answered with ~`streamSeconds` of markdown at `streamTokensPerSecond`: the frames
 * and bytes written while the model streams, the CPU lathe used meanwhile, how much of the answer
 * was on the terminal when the stream ended, and how long after that the rest took to be drawn.
 */
async function measureStreaming() {
  const text = longMarkdown(streamTokensPerSecond * streamSeconds * 4);
  const sections = Number([...text.matchAll(/### Step (\d+)/g)].at(-1)?.[1]);
  const server = await startFakeLlm({
    script: { turns: [{ text, tokens_per_second: streamTokensPerSecond }] },
  });
  const at = workspace();
  const lathe = startChat(server, at);
  try {
    await waitUntilReady(lathe);
    // The probe key from the readiness check goes; then the task is typed and sent.
    lathe.type("\x7f");
    await echoOf(lathe, "Write the routes.");
    lathe.type("\r");
    await until(() => server.requests.length > 0, 10_000, "the model request");
    const cpuAtRequest = treeCpuSeconds(lathe.pid);
    await until(() => server.requests[0]?.respondedAt !== undefined, 120_000, "the end of the stream");
    const cpuAtEnd = treeCpuSeconds(lathe.pid);
    const { receivedAt, respondedAt } = server.requests[0];
    const seconds = (respondedAt - receivedAt) / 1_000;
    const lastSection = drawnCheck(lathe, `handler${sections}(`);
    const drawnAt = await until(lastSection, streamLagLimitMs, "the answer's last section").then(
      () => performance.now(),
      () => undefined,
    );
    const writtenUntilDrawn = lathe.chunks
      .filter((chunk) => chunk.at >= receivedAt)
      .reduce((sum, chunk) => sum + Buffer.byteLength(chunk.data), 0);
    const { frames, bytes } = framesBetween(lathe.chunks, receivedAt, respondedAt);
    const frameTimes = frames.map((frame) => frame.at);
    const drawnByEnd = stripEscapes(
      lathe.chunks
        .filter((chunk) => chunk.at <= respondedAt)
        .map((chunk) => chunk.data)
        .join(""),
    );
    return {
      frames: frames.length,
      fps: frames.length / seconds,
      longestGapMs: Math.max(0, ...frameTimes.slice(1).map((time, i) => time - frameTimes[i])),
      kbPerSecond: bytes / 1024 / seconds,
      repaints: frames.filter((frame) => repaintsScreen(frame.text, terminalSize.rows)).length,
      cpuPercent: ((cpuAtEnd - cpuAtRequest) / seconds) * 100,
      sections,
      sectionsDrawnByEnd: Math.max(
        0,
        ...[...drawnByEnd.matchAll(/handler(\d+)\(/g)].map((match) => Number(match[1])),
      ),
      lagMs: drawnAt === undefined ? undefined : drawnAt - respondedAt,
      writtenUntilDrawn,
      characters: text.length,
      seconds,
    };
  } finally {
    await lathe.close();
    await server.close();
    at.remove();
  }
}

/**
 * A check of whether `text` has been drawn, that reads only the output written since it last
 * looked (and a little before, where an escape sequence may have cut the text).
 */
function drawnCheck(lathe, text) {
  let scanned = 0;
  return () => {
    const output = lathe.output();
    const found = stripEscapes(output.slice(Math.max(0, scanned - 512))).includes(text);
    scanned = output.length;
    return found;
  };
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Polls a condition outside the terminal (the scripted server's state) up to a deadline. */
async function until(check, timeoutMs, what) {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
