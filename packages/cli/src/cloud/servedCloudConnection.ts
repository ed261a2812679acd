import { join } from "node:path";
import {
  type CloudDatabase,
  openCloudDatabase,
  type RunningWorker,
  registerDevice,
  startCloudWorker,
  startStepQueue,
} from "@lathe/cloud";
import { type ServiceResult, served, serviceError } from "@lathe/server";
import type { PgBoss } from "pg-boss";
import { databaseUrlFor, deviceIdFor, latheBinary } from "./cloudConnection.js";

/** The task database as `lathe serve` holds it: one pool for the life of the server. */
export interface CloudConnection {
  database: CloudDatabase;
  deviceId: string;
  /** pg-boss, started on first use (only submit and cancel touch jobs). */
  queue(): Promise<PgBoss>;
}

export interface ServedCloudConnection {
  /** The connection, opened on first use; a failure is not kept, so the next request tries again. */
  get(): Promise<ServiceResult<CloudConnection>>;
  close(): Promise<void>;
}

/** What `lathe serve` says when it has no task database: the two ways to give it one. */
const noDatabase =
  "No task database for the Cloud tab: start one on this machine with `lathe cloud up`, or start `lathe serve` with LATHE_DATABASE_URL set to a PostgreSQL URL.";

/**
 * Opens the task database lazily, so `lathe serve` starts as fast without one and works without
 * one; the Cloud tab's first request opens it (the database of LATHE_DATABASE_URL, else the
 * private cluster of `lathe cloud up`), migrates it and records this machine as a client device.
 * From then on the server is also this device's worker for the steps that must run here: it
 * claims them and asks first, so Run here in the tab is all they need (none of the fleet's steps).
 */
export function servedCloudConnection(inputs: {
  latheHome: string;
  env: Record<string, string | undefined>;
  /** What the device's own worker has to say (claims, a database lost), one line each. */
  report(line: string): void;
}): ServedCloudConnection {
  let opening: Promise<ServiceResult<CloudConnection>> | undefined;
  let opened: CloudConnection | undefined;
  let boss: Promise<PgBoss> | undefined;
  let worker: RunningWorker | undefined;
  let closed = false;

  const startDeviceWorker = async (url: string, deviceId: string) => {
    const started = await startCloudWorker({
      url,
      deviceId,
      labels: [],
      concurrency: 1,
      deviceOnly: true,
      latheCommand: latheBinary(),
      checkoutRoot: join(inputs.latheHome, "worktrees", deviceId),
      env: { ...inputs.env },
      report: inputs.report,
    });
    if (!started.ok) {
      inputs.report(`this device's steps will not run here: ${started.error.message}`);
      return;
    }
    if (closed) await started.worker.stop(0);
    else worker = started.worker;
  };

  const open = async (): Promise<ServiceResult<CloudConnection>> => {
    const url = await databaseUrlFor(undefined, inputs.env, inputs.latheHome);
    if (url === undefined) return serviceError("unavailable", "E_CLOUD_URL", noDatabase);
    const result = await openCloudDatabase(url);
    if (!result.ok) return serviceError("unavailable", result.error.code, result.error.message);
    const database = result.database;
    let deviceId: string;
    try {
      deviceId = await deviceIdFor(undefined, inputs.latheHome);
      await registerDevice(database.pool, { id: deviceId, kind: "client", labels: [] });
    } catch (error) {
      await database.close();
      throw error;
    }
    const connection: CloudConnection = {
      database,
      deviceId,
      queue: () => {
        boss ??= startStepQueue({ url: database.url, supervise: false, maxConnections: 2 });
        // A queue that failed to start is tried again on the next request.
        boss.catch(() => {
          boss = undefined;
        });
        return boss;
      },
    };
    if (closed) {
      await database.close();
      return serviceError("unavailable", "E_SERVER_CLOSING", "The server is shutting down.");
    }
    opened = connection;
    await startDeviceWorker(url, deviceId);
    return served(connection);
  };

  return {
    async get() {
      if (opened !== undefined) return served(opened);
      opening ??= open().catch((error: unknown) =>
        serviceError(
          "unavailable",
          "E_CLOUD_UNREACHABLE",
          error instanceof Error ? error.message : String(error),
        ),
      );
      const result = await opening;
      if (!result.ok) opening = undefined;
      return result;
    },
    async close() {
      closed = true;
      await worker?.stop(0);
      worker = undefined;
      const queue = boss;
      boss = undefined;
      await queue
        ?.then((started) => started.stop({ graceful: false, timeout: 1_000 }))
        .catch(() => undefined);
      await opened?.database.close();
      opened = undefined;
    },
  };
}
