import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  postgresBinaries,
  privateClusterFolder,
  privateClusterState,
  readClusterUrl,
  startPrivateCluster,
  stopPrivateCluster,
} from "../src/cluster/privateCluster.js";
import { describeUrl } from "../src/database/databaseUrl.js";

let latheHome = "";
beforeAll(async () => {
  latheHome = await mkdtemp(join(tmpdir(), "lathe-home-"));
});
afterAll(async () => {
  await stopPrivateCluster(latheHome);
  await rm(latheHome, { recursive: true, force: true });
});

async function query(url: string, text: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function timed<T>(what: string, step: () => Promise<T>): Promise<T> {
  const began = performance.now();
  const result = await step();
  console.log(`${what}: ${Math.round(performance.now() - began)} ms`);
  return result;
}

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

describe("the private PostgreSQL cluster", () => {
  it("is created, reused, stopped and restarted with its data and password kept", async () => {
    expect(postgresBinaries()).toBeDefined();
    expect(await privateClusterState(latheHome)).toBeUndefined();
    expect(await readClusterUrl(latheHome)).toBeUndefined();

    const first = await timed("first up", () => startPrivateCluster(latheHome));
    if (!first.ok) throw new Error(first.error.message);
    expect(first).toMatchObject({ created: true, started: true });
    const { url, port, folder } = first.state;
    expect(folder).toBe(privateClusterFolder(latheHome));
    const password = new URL(url).password;
    expect(password.length).toBeGreaterThanOrEqual(32);
    console.log(`cluster at ${describeUrl(url)}`);
    expect(describeUrl(url)).not.toContain(password);

    expect(await query(url, "SELECT current_database() AS name")).toEqual([{ name: "lathe" }]);
    const noPassword = new URL(url);
    noPassword.password = "";
    await expect(query(noPassword.toString(), "SELECT 1")).rejects.toThrow(/password/i);

    const recordFile = join(latheHome, "cloud", "database.json");
    expect((await stat(recordFile)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(recordFile, "utf8"))).toEqual({ url, port, folder });
    expect(await readClusterUrl(latheHome)).toBe(url);
    expect(await privateClusterState(latheHome)).toEqual({ url, port, running: true, folder });
    const log = await readFile(join(folder, "server.log"), "utf8");
    expect(log).not.toContain(password);

    const again = await timed("second up (already running)", () => startPrivateCluster(latheHome));
    expect(again).toEqual({ ok: true, state: first.state, created: false, started: false });
    await query(url, "CREATE TABLE kept (word text); INSERT INTO kept VALUES ('still here')");

    expect(await timed("down", () => stopPrivateCluster(latheHome))).toEqual({ ok: true, wasRunning: true });
    await expect(query(url, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);
    expect(await privateClusterState(latheHome)).toEqual({ url, port, running: false, folder });
    expect(await stopPrivateCluster(latheHome)).toEqual({ ok: true, wasRunning: false });

    const restart = await timed("up after down", () => startPrivateCluster(latheHome));
    expect(restart).toEqual({ ok: true, state: first.state, created: false, started: true });
    expect(await query(url, "SELECT word FROM kept")).toEqual([{ word: "still here" }]);

    // Taken while the cluster was down: the next start moves to a free port and says so in the record.
    expect(await stopPrivateCluster(latheHome)).toEqual({ ok: true, wasRunning: true });
    const squatter = await occupy(port);
    try {
      const moved = await startPrivateCluster(latheHome);
      if (!moved.ok) throw new Error(moved.error.message);
      expect(moved).toMatchObject({ created: false, started: true });
      expect(moved.state.port).not.toBe(port);
      expect(new URL(moved.state.url).password).toBe(password);
      expect(await readClusterUrl(latheHome)).toBe(moved.state.url);
      expect(await query(moved.state.url, "SELECT word FROM kept")).toEqual([{ word: "still here" }]);
    } finally {
      squatter.close();
    }

    expect(await stopPrivateCluster(latheHome)).toEqual({ ok: true, wasRunning: true });
  }, 120_000);
});
