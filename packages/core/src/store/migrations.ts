/**
 * The schema, one entry per version. `PRAGMA user_version` records how many have run; a
 * migration is never edited once shipped, only followed by another.
 */
export const migrations: readonly string[] = [
  `
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    root TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    mode TEXT NOT NULL,
    model TEXT NOT NULL,
    parent_session_id TEXT,
    forked_from_message_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_by_project ON sessions(project_id, updated_at DESC);
  CREATE INDEX sessions_by_update ON sessions(updated_at DESC);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (session_id, seq)
  );
  CREATE TABLE parts (
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (message_id, seq)
  );
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    prompt TEXT NOT NULL,
    mode TEXT NOT NULL,
    model TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    iterations INTEGER NOT NULL DEFAULT 0,
    error_code TEXT,
    error_message TEXT,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    duration_ms INTEGER
  );
  CREATE INDEX runs_by_session ON runs(session_id, started_at);
  CREATE TABLE tool_calls (
    call_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL,
    name TEXT NOT NULL,
    arguments TEXT NOT NULL,
    state TEXT NOT NULL,
    error_code TEXT,
    error_message TEXT,
    duration_ms INTEGER,
    started_at INTEGER NOT NULL,
    ended_at INTEGER
  );
  CREATE INDEX tool_calls_by_session ON tool_calls(session_id, started_at);
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    call_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    risk TEXT NOT NULL,
    reason TEXT NOT NULL,
    decision TEXT,
    requested_at INTEGER NOT NULL,
    answered_at INTEGER
  );
  CREATE INDEX approvals_by_call ON approvals(call_id);
  CREATE TABLE granted_rules (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    scope TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE todos (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL,
    position INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, id)
  ) WITHOUT ROWID;
  CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE checkpoints (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    message_id TEXT,
    call_id TEXT,
    reason TEXT NOT NULL,
    commit_sha TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX checkpoints_by_session ON checkpoints(session_id, created_at);
  CREATE TABLE spans (
    span_id TEXT PRIMARY KEY,
    trace_id TEXT NOT NULL,
    parent_span_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL,
    name TEXT NOT NULL,
    start_ms REAL NOT NULL,
    end_ms REAL NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    attributes TEXT NOT NULL
  );
  CREATE INDEX spans_by_session ON spans(session_id, start_ms);
  CREATE TABLE usage (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    run_id TEXT NOT NULL,
    model TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cached_input_tokens INTEGER NOT NULL,
    reasoning_tokens INTEGER NOT NULL,
    cost_usd REAL NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX usage_by_session ON usage(session_id);
  `,
  // 2: the code index (SPEC §6: repo map and codebase_search), kept per project root. BM25 runs
  // in JavaScript over a postings table rather than SQLite FTS5, because FTS5 is missing from some
  // node:sqlite builds (Windows before Node 22.16, Homebrew builds), and a migration that fails
  // there would make the whole session database unusable. Measured on the 513 files of the
  // codesearch bench: writing FTS5 took 75 ms against 293 ms for this table, both small beside the
  // ~2.5 s a cold build spends parsing and tokenizing; queries take 1-2 ms either way. Postings
  // carry no foreign key: checking one on each of their hundreds of thousands of inserts costs,
  // and the index deletes them itself with their chunk.
  `
  CREATE TABLE code_roots (
    id INTEGER PRIMARY KEY,
    root TEXT NOT NULL UNIQUE,
    format INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE code_files (
    id INTEGER PRIMARY KEY,
    root_id INTEGER NOT NULL REFERENCES code_roots(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    hash TEXT NOT NULL,
    mtime_ms REAL NOT NULL,
    size INTEGER NOT NULL,
    refs TEXT NOT NULL,
    UNIQUE (root_id, path)
  );
  CREATE TABLE code_symbols (
    file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    signature TEXT NOT NULL,
    visibility TEXT NOT NULL
  );
  CREATE INDEX code_symbols_by_file ON code_symbols(file_id);
  CREATE TABLE code_chunks (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    symbol TEXT,
    kind TEXT,
    text TEXT NOT NULL,
    length REAL NOT NULL
  );
  CREATE INDEX code_chunks_by_file ON code_chunks(file_id);
  CREATE TABLE code_postings (
    root_id INTEGER NOT NULL,
    term TEXT NOT NULL,
    chunk_id INTEGER NOT NULL,
    tf REAL NOT NULL,
    PRIMARY KEY (root_id, term, chunk_id)
  ) WITHOUT ROWID;
  CREATE INDEX code_postings_by_chunk ON code_postings(chunk_id);
  CREATE TABLE code_vectors (
    chunk_id INTEGER PRIMARY KEY REFERENCES code_chunks(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL
  );
  `,
  // 3: the process that owns a run, so a run whose process was killed is found and marked
  // interrupted instead of showing as running for good. The start time (clock ticks after boot,
  // Linux only) tells a reused pid from the owner. The partial index keeps the look for such runs,
  // made each time the database is opened, to the few rows still running.
  `
  ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
  ALTER TABLE runs ADD COLUMN owner_start_ticks INTEGER;
  CREATE INDEX runs_running ON runs(status) WHERE status = 'running';
  `,
];
