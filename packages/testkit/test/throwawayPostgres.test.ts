import { existsSync } from "node:fs";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../src/throwawayPostgres.js";

let server: ThrowawayPostgres | undefined;
afterEach(async () => {
  await server?.remove();
  server = undefined;
});

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe("a throwaway PostgreSQL server", () => {
  it("serves on loopback, keeps its data across a restart, and leaves nothing when removed", async () => {
    server = await startThrowawayPostgres();
    expect(server.url).toBe(`postgresql://lathe@127.0.0.1:${server.port}/postgres`);
    await query(server.url, "CREATE TABLE kept (word text); INSERT INTO kept VALUES ('still here')");

    await server.stop();
    await expect(query(server.url, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);
    await server.start();
    expect(await query(server.url, "SELECT word FROM kept")).toEqual([{ word: "still here" }]);

    const folder = (await query(server.url, "SHOW data_directory")) as { data_directory: string }[];
    const dataDirectory = folder[0]?.data_directory ?? "";
    expect(existsSync(dataDirectory)).toBe(true);
    await server.remove();
    server = undefined;
    expect(existsSync(dataDirectory)).toBe(false);
  }, 30_000);
});
