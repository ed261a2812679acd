import { type FakeTurn, startFakeLlm } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import {
  clientHome,
  fleetForThisFile,
  lathe,
  startLathe,
  stepsOf,
  taskReaches,
  until,
} from "./cloudFleet.js";

const fleet = fleetForThisFile();

const coderWrites: FakeTurn[] = [
  {
    when: "You are the coder of",
    tool_calls: [{ name: "write_file", arguments: { path: "out.txt", contents: "made here\n" } }],
  },
  { when: "You are the coder of", text: "Wrote out.txt." },
];
const reviewerApproves: FakeTurn = { when: "You are the reviewer of", text: "Fine.\nVERDICT: approve" };

async function fleetWorkers(turns: FakeTurn[]) {
  const model = await startFakeLlm({ script: { turns } });
  await fleet().startWorker([], { model });
  await fleet().startWorker([], { model });
  return model;
}

async function submit(args: string[], home = clientHome()): Promise<string> {
  const repo = fleet().repository();
  const submitted = await lathe(["cloud", "submit", "--database", fleet().url, ...args], { home, cwd: repo });
  expect(submitted.code, submitted.stderr).toBe(0);
  return submitted.stdout.trim();
}

const cloud = (args: string[], home = clientHome()) =>
  lathe(["cloud", ...args, "--database", fleet().url], { home });

async function eventsOf(taskId: string) {
  const rows = await fleet().database.pool.query<{ kind: string; message: string; device_id: string }>(
    "SELECT kind, message, device_id FROM lathe_cloud.events WHERE task_id = $1 ORDER BY seq",
    [taskId],
  );
  return rows.rows;
}

describe("hybrid steps, budgets and devices", () => {
  it("holds a device step while the device is offline, asks there, and runs it there only", async () => {
    const model = await fleetWorkers([...coderWrites, reviewerApproves]);
    const id = await submit([
      "--device",
      "laptop",
      "--pipeline",
      "quick",
      "--on-device",
      "coder",
      "write out.txt here",
    ]);
    const short = id.slice(0, 8);
    await until(
      async () => (await eventsOf(id)).some((event) => event.kind === "device"),
      "the device notice",
    );
    expect((await eventsOf(id)).find((event) => event.kind === "device")?.message).toBe(
      "step 1 (coder) is held for device laptop, which is offline (no worker has run there): it runs when that device's worker is back",
    );
    // Two fleet workers are idle, and neither may take it.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const held = await stepsOf(fleet(), id);
    expect(held.map((step) => [step.status, step.runsOn, step.workerId])).toEqual([
      ["queued", "laptop", null],
      ["waiting", null, null],
    ]);
    const shownHeld = await cloud(["show", short]);
    expect(shownHeld.stdout).toContain(
      "     held for device laptop: it runs there after its user consents\n",
    );

    const device = await fleet().startWorker([], { model, deviceId: "laptop", deviceOnly: true });
    expect(device.output()).toContain(
      "worker laptop ready: this device's steps only, each after you consent",
    );
    const asking = await taskReaches(fleet(), id, ["needs_input", "failed", "completed"]);
    expect(asking.status).toBe("needs_input");
    const [step] = await stepsOf(fleet(), id);
    expect(step?.question).toMatchObject({
      kind: "run_here",
      device: "laptop",
      step: "coder",
      agent: "coder",
    });
    expect(model.requests).toHaveLength(0);
    const shown = await cloud(["show", short]);
    expect(shown.stdout).toContain(
      `     waiting for consent to run on device laptop\n     on that device: lathe cloud answer ${short} --allow | --deny\n`,
    );
    const elsewhere = await cloud(["answer", short, "--allow", "--device", "phone"]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(
      "Step 1 asks to run on device laptop: only that device can consent (this is phone). [E_TASK_STATE]",
    );
    const consent = await cloud(["answer", short, "--allow", "--device", "laptop"]);
    expect(consent.code, consent.stderr).toBe(0);

    const done = await taskReaches(fleet(), id, ["completed", "failed", "cancelled"]);
    expect(done.status, JSON.stringify(done.error)).toBe("completed");
    const steps = await stepsOf(fleet(), id);
    expect(steps[0]?.workerId).toBe("laptop");
    expect(steps[1]?.workerId).toMatch(/^worker-[12]$/);
    expect(done.patch).toContain("+made here\n");
    const told = (await eventsOf(id)).filter((event) =>
      ["question", "answer", "consent"].includes(event.kind),
    );
    expect(told.map((event) => [event.kind, event.device_id])).toEqual([
      ["question", "laptop"],
      ["answer", "laptop"],
      ["consent", "laptop"],
    ]);
  }, 120_000);

  it("fails a device step its user declines, and nothing of it runs", async () => {
    const model = await fleetWorkers([...coderWrites, reviewerApproves]);
    await fleet().startWorker([], { model, deviceId: "laptop", deviceOnly: true });
    const id = await submit([
      "--device",
      "laptop",
      "--pipeline",
      "quick",
      "--on-device",
      "coder",
      "write out.txt here",
    ]);
    await taskReaches(fleet(), id, ["needs_input"]);
    const declined = await cloud([
      "answer",
      id.slice(0, 8),
      "--deny",
      "--message",
      "not on my laptop",
      "--device",
      "laptop",
    ]);
    expect(declined.code, declined.stderr).toBe(0);
    const done = await taskReaches(fleet(), id, ["failed", "completed"]);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({
      code: "E_USER_REJECTED",
      message: "The user of device laptop declined to run step 1 (coder) there: not on my laptop.",
    });
    expect(model.requests).toHaveLength(0);
  }, 120_000);

  it("ends a task that reaches its token budget, with the reason", async () => {
    const usage = { prompt_tokens: 90, completion_tokens: 30 };
    const model = await fleetWorkers([
      { ...coderWrites[0], usage },
      { ...coderWrites[1], usage },
      reviewerApproves,
    ]);
    const home = clientHome();
    const id = await submit(["--pipeline", "quick", "--max-tokens", "100", "write out.txt"], home);
    const watched = await lathe(["cloud", "watch", id.slice(0, 8), "--database", fleet().url], { home });
    expect(watched.code).toBe(1);
    const done = await taskReaches(fleet(), id, ["failed", "completed"]);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({
      code: "E_BUDGET_EXCEEDED",
      message: "The task reached its token budget: 240 tokens used of 100; it ends here.",
    });
    expect(done.usage).toEqual({ inputTokens: 180, outputTokens: 60, costUsd: expect.any(Number) });
    expect(watched.stdout).toContain(
      "✗ The task reached its token budget: 240 tokens used of 100; it ends here.",
    );
    const steps = await stepsOf(fleet(), id);
    expect(steps.map((step) => step.status)).toEqual(["completed", "failed"]);
    expect(steps[1]?.error).toMatchObject({ code: "E_BUDGET_EXCEEDED" });
    // The reviewer was never asked.
    expect(model.turnsServed()).toBe(2);
  }, 120_000);

  it("stops a step when the task runs out of time, with the reason", async () => {
    await fleetWorkers([{ when: "You are the coder of", hang_ms: 60_000, text: "too late" }]);
    const id = await submit(["--pipeline", "quick", "--max-time", "3", "write out.txt"]);
    const started = Date.now();
    const done = await taskReaches(fleet(), id, ["failed", "completed"], 30_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(done.status).toBe("failed");
    expect(done.error).toMatchObject({
      code: "E_BUDGET_EXCEEDED",
      message: "The task reached its time budget of 3 s; it ends here.",
    });
    const steps = await stepsOf(fleet(), id);
    expect(steps.map((step) => step.status)).toEqual(["failed", "waiting"]);
    // Not retried: a budget does not grow by trying again.
    expect(steps[0]?.attempt).toBe(0);
  }, 60_000);

  it("shows a second device the same live progress, and takes its answer to an approval", async () => {
    await fleetWorkers([
      {
        when: "You are the coder of",
        tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo hi > out.txt" } }],
      },
      { when: "You are the coder of", text: "Wrote out.txt." },
      reviewerApproves,
    ]);
    const laptop = clientHome();
    const phone = clientHome();
    const id = await submit(
      ["--device", "laptop", "--pipeline", "quick", "--approval-mode", "ask_first", "write hi"],
      laptop,
    );
    const short = id.slice(0, 8);
    const watch = (home: string, device: string) =>
      startLathe(["cloud", "watch", short, "--database", fleet().url, "--device", device], { home });
    const onLaptop = watch(laptop, "laptop");
    const onPhone = watch(phone, "phone");
    await until(
      () => onPhone.stdout().includes("needs an answer: allow run_terminal_cmd?"),
      "the question on the phone",
    );
    const answered = await cloud(["answer", short, "--allow", "--device", "phone"], phone);
    expect(answered.code, answered.stderr).toBe(0);
    expect(await onLaptop.exited).toBe(0);
    expect(await onPhone.exited).toBe(0);
    expect(onPhone.stdout()).toBe(onLaptop.stdout());
    expect(onLaptop.stdout()).toMatch(/! needs an answer: allow run_terminal_cmd\?/);
    expect(onLaptop.stdout()).toMatch(/step 1 +allowed\n/);
    expect(onLaptop.stdout()).toContain("the reviewer approved the work");
    expect(onLaptop.stdout().trimEnd().split("\n").pop()).toMatch(/ completed$/);
  }, 120_000);
});
