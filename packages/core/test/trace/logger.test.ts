import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeKeys } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { secretRedactor } from "../../src/secrets/index.js";
import { createLogger, logFilePath } from "../../src/trace/index.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "lathe-log-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const logFile = () => logFilePath(home);
const lines = (file = logFile()) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Fills the log directory with a current log of `size` bytes and the given rotated files. */
function prefill(size: number, rotated: Record<number, string> = {}) {
  mkdirSync(join(home, "logs"), { recursive: true });
  writeFileSync(logFile(), `${"old line\n".repeat(Math.ceil(size / 9))}`);
  for (const [n, text] of Object.entries(rotated)) writeFileSync(`${logFile()}.${n}`, text);
}

describe("createLogger", () => {
  it("writes JSON lines with level, time, message and fields to $LATHE_HOME/logs/lathe.log", () => {
    const logger = createLogger({ latheHome: home });
    logger.info("run started", { runId: "r1", mode: "agent" });
    logger.error("run failed", { code: "E_LLM_AUTH" });
    logger.flush();
    const [first, second] = lines();
    expect(first).toMatchObject({ level: 30, msg: "run started", runId: "r1", mode: "agent" });
    expect(typeof first?.time).toBe("number");
    expect(second).toMatchObject({ level: 50, msg: "run failed", code: "E_LLM_AUTH" });
    expect(statSync(logFile()).mode & 0o777).toBe(0o600);
  });

  it("writes only what is at or above its level (info by default)", () => {
    const byDefault = createLogger({ latheHome: home });
    byDefault.debug("hidden");
    byDefault.info("shown");
    expect(lines().map((l) => l.msg)).toEqual(["shown"]);

    const warnings = createLogger({ latheHome: home, level: "warn" });
    warnings.debug("d");
    warnings.info("i");
    warnings.warn("w");
    warnings.error("e");
    const debug = createLogger({ latheHome: home, level: "debug" });
    debug.debug("d2");
    expect(lines().map((l) => l.msg)).toEqual(["shown", "w", "e", "d2"]);
  });

  it("keeps a message with % signs as it is", () => {
    const logger = createLogger({ latheHome: home });
    logger.info("100% done %s %d", { n: 1 });
    logger.info("50% left");
    expect(lines().map((l) => l.msg)).toEqual(["100% done %s %d", "50% left"]);
  });

  it("never writes a secret, whether in the message, a nested field or an error", () => {
    const secret = fakeKeys.anthropic;
    const logger = createLogger({ latheHome: home, redact: secretRedactor([secret]) });
    logger.warn(`key ${secret} refused`, {
      request: { headers: { authorization: `Bearer ${secret}` }, tries: [secret] },
      err: new Error(`401 for ${secret}`),
    });
    logger.flush();
    const text = readFileSync(logFile(), "utf8");
    expect(text).not.toContain(secret);
    const [line] = lines();
    expect(line).toMatchObject({
      msg: "key [redacted] refused",
      request: { headers: { authorization: "Bearer [redacted]" }, tries: ["[redacted]"] },
      err: { type: "Error", message: "401 for [redacted]" },
    });
  });

  it("appends to a log still under maxBytes", () => {
    prefill(50);
    createLogger({ latheHome: home, maxBytes: 100 }).info("new");
    expect(existsSync(`${logFile()}.1`)).toBe(false);
    const text = readFileSync(logFile(), "utf8");
    expect(text.startsWith("old line\n")).toBe(true);
    expect(text.trim().split("\n").at(-1)).toContain('"msg":"new"');
  });

  it("rotates a log over maxBytes at open: lathe.log → lathe.log.1, the new line in a fresh file", () => {
    prefill(200);
    const old = readFileSync(logFile(), "utf8");
    const logger = createLogger({ latheHome: home, maxBytes: 100 });
    logger.info("after rotation");
    logger.flush();
    expect(readFileSync(`${logFile()}.1`, "utf8")).toBe(old);
    expect(lines().map((l) => l.msg)).toEqual(["after rotation"]);
  });

  it("shifts older files up and keeps at most `keep` of them", () => {
    prefill(200, { 1: "one", 2: "two", 3: "three", 7: "stray" });
    const old = readFileSync(logFile(), "utf8");
    createLogger({ latheHome: home, maxBytes: 100, keep: 2 }).info("new");
    expect(readFileSync(`${logFile()}.1`, "utf8")).toBe(old);
    expect(readFileSync(`${logFile()}.2`, "utf8")).toBe("one");
    for (const n of [3, 4, 7]) expect(existsSync(`${logFile()}.${n}`)).toBe(false);
    expect(lines().map((l) => l.msg)).toEqual(["new"]);
  });

  it("keeps three old files by default", () => {
    prefill(20 * 1024 * 1024, { 1: "one", 2: "two", 3: "three" });
    createLogger({ latheHome: home }).info("new");
    expect(readFileSync(`${logFile()}.2`, "utf8")).toBe("one");
    expect(readFileSync(`${logFile()}.3`, "utf8")).toBe("two");
    expect(existsSync(`${logFile()}.4`)).toBe(false);
  });

  it("with keep 0 drops the old log instead of keeping it", () => {
    prefill(200);
    createLogger({ latheHome: home, maxBytes: 100, keep: 0 }).info("new");
    expect(existsSync(`${logFile()}.1`)).toBe(false);
    expect(lines().map((l) => l.msg)).toEqual(["new"]);
  });
});
