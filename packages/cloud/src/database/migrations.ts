import type pg from "pg";

/** Lathe's own tables, the source of truth; pg-boss keeps its jobs in `lathe_boss`. */
export const cloudSchema = "lathe_cloud";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Versioned, append-only: a migration once shipped never changes; a change is a new version.
 * Seed 003's tables with its mistakes fixed: every row has `updated_at` and an owner, a claimed
 * step records its worker and lease, retries and timeouts are columns, step dependencies are kept,
 * and events carry a per-task sequence so a device catches up exactly from where it stopped.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "tasks, steps, events, devices",
    sql: `
CREATE TABLE ${cloudSchema}.devices (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('worker', 'client')),
  host text NOT NULL,
  labels text[] NOT NULL DEFAULT '{}',
  pid integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ${cloudSchema}.tasks (
  id uuid PRIMARY KEY,
  owner text NOT NULL,
  device_id text NOT NULL,
  title text NOT NULL,
  prompt text NOT NULL,
  route text NOT NULL CHECK (route IN ('local', 'cloud', 'hybrid')),
  route_reason text NOT NULL,
  repo_url text,
  ref text,
  has_bundle boolean NOT NULL DEFAULT false,
  model text,
  approval_mode text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'needs_input', 'completed', 'failed', 'cancelled')),
  priority integer NOT NULL DEFAULT 0,
  timeout_seconds integer NOT NULL CHECK (timeout_seconds > 0),
  max_retries integer NOT NULL CHECK (max_retries >= 0),
  last_seq bigint NOT NULL DEFAULT 0,
  branch text,
  patch text,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz
);
CREATE INDEX tasks_by_status ON ${cloudSchema}.tasks (status, priority DESC, created_at);
CREATE INDEX tasks_by_created ON ${cloudSchema}.tasks (created_at DESC);
CREATE TABLE ${cloudSchema}.bundles (
  task_id uuid PRIMARY KEY REFERENCES ${cloudSchema}.tasks (id) ON DELETE CASCADE,
  size integer NOT NULL,
  bytes bytea NOT NULL
);
CREATE TABLE ${cloudSchema}.steps (
  id uuid PRIMARY KEY,
  task_id uuid NOT NULL REFERENCES ${cloudSchema}.tasks (id) ON DELETE CASCADE,
  step_index integer NOT NULL,
  name text NOT NULL,
  prompt text NOT NULL,
  depends_on integer[] NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('queued', 'running', 'needs_input', 'completed', 'failed', 'cancelled')),
  job_id uuid,
  attempt integer NOT NULL DEFAULT 0,
  worker_id text,
  lease uuid,
  question jsonb,
  answer jsonb,
  patch text,
  summary text,
  error jsonb,
  heartbeat_at timestamptz,
  started_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (task_id, step_index)
);
-- Every worker renews its leases and looks for silent steps every few seconds: both by index,
-- over the few steps in hand, never the whole history.
CREATE INDEX steps_by_lease ON ${cloudSchema}.steps (lease) WHERE lease IS NOT NULL;
CREATE INDEX steps_in_hand ON ${cloudSchema}.steps (heartbeat_at) WHERE status IN ('running', 'needs_input');
CREATE TABLE ${cloudSchema}.events (
  task_id uuid NOT NULL REFERENCES ${cloudSchema}.tasks (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  id uuid NOT NULL UNIQUE,
  step_index integer,
  kind text NOT NULL,
  level text NOT NULL CHECK (level IN ('debug', 'info', 'warn', 'error')),
  message text NOT NULL,
  data jsonb,
  device_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task_id, seq)
);
CREATE FUNCTION ${cloudSchema}.announce_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text := json_build_object('task', NEW.task_id, 'seq', NEW.seq, 'kind', NEW.kind, 'step', NEW.step_index)::text;
BEGIN
  -- Watchers listen to their task's channel only; workers to the control channel, which carries
  -- only what they act on. Nobody receives every log line of the fleet.
  PERFORM pg_notify('lathe_task_' || replace(NEW.task_id::text, '-', ''), payload);
  IF NEW.kind IN ('cancel', 'answer') THEN
    PERFORM pg_notify('lathe_cloud_control', payload);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER events_announced AFTER INSERT ON ${cloudSchema}.events
  FOR EACH ROW EXECUTE FUNCTION ${cloudSchema}.announce_event();
`,
  },
  {
    version: 2,
    name: "pipelines, attempts, device steps, budgets",
    sql: `
-- A step waits (no job yet) until the steps it depends on are done; the one that finishes last
-- queues it, in its own transaction, so the graph can grow as it runs (a review's send-back).
ALTER TABLE ${cloudSchema}.steps DROP CONSTRAINT steps_status_check;
ALTER TABLE ${cloudSchema}.steps ADD CONSTRAINT steps_status_check
  CHECK (status IN ('waiting', 'queued', 'running', 'needs_input', 'completed', 'skipped', 'failed', 'cancelled'));
ALTER TABLE ${cloudSchema}.steps
  ADD COLUMN agent jsonb,
  ADD COLUMN purpose text NOT NULL DEFAULT 'work' CHECK (purpose IN ('work', 'review', 'rank')),
  ADD COLUMN optional boolean NOT NULL DEFAULT false,
  ADD COLUMN runs_on text,
  ADD COLUMN attempt_no integer,
  ADD COLUMN sent_back_by integer,
  ADD COLUMN verify jsonb,
  ADD COLUMN verdict jsonb,
  ADD COLUMN task_patch text,
  ADD COLUMN usage jsonb,
  ADD COLUMN released_at timestamptz;
ALTER TABLE ${cloudSchema}.tasks
  ADD COLUMN pipeline jsonb,
  ADD COLUMN attempts integer NOT NULL DEFAULT 1 CHECK (attempts BETWEEN 1 AND 8),
  ADD COLUMN budget jsonb,
  ADD COLUMN usage jsonb NOT NULL DEFAULT '{"inputTokens": 0, "outputTokens": 0, "costUsd": 0}',
  ADD COLUMN send_backs integer NOT NULL DEFAULT 0,
  ADD COLUMN ranking jsonb;
-- When a worker last ran on the device: a device step's device is online only with a worker up
-- (a client command on it says nothing about who will run the step).
ALTER TABLE ${cloudSchema}.devices ADD COLUMN worker_seen_at timestamptz;
`,
  },
];

/**
 * Applies the migrations not applied yet, each in its own transaction, under an advisory lock so
 * that workers starting together migrate once.
 */
export async function migrate(pool: pg.Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('lathe_cloud.migrations'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${cloudSchema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${cloudSchema}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await client.query<{ version: number }>(`SELECT version FROM ${cloudSchema}.migrations`);
    const have = new Set(done.rows.map((row) => row.version));
    for (const migration of migrations) {
      if (have.has(migration.version)) continue;
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${cloudSchema}.migrations (version, name) VALUES ($1, $2)`, [
          migration.version,
          migration.name,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      applied.push(migration.version);
    }
  } finally {
    await client
      .query("SELECT pg_advisory_unlock(hashtext('lathe_cloud.migrations'))")
      .catch(() => undefined);
    client.release();
  }
  return applied;
}
