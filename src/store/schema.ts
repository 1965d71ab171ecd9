/**
 * Forward-only migrations. Entry i takes the journal from `user_version` i to
 * i + 1; an entry is never edited once released, only appended to.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the reconciler core.
  `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE TABLE roots (
    id              INTEGER PRIMARY KEY,
    path            TEXT NOT NULL UNIQUE,
    depth           TEXT NOT NULL DEFAULT 'max',
    secrets_skipped INTEGER NOT NULL DEFAULT 0,
    ignored_skipped INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  -- One row per file under a root. Skipped files (binary, too large) keep a row
  -- with their reason so audits do not re-read them; secrets never get a row.
  CREATE TABLE paths (
    id              INTEGER PRIMARY KEY,
    root_id         INTEGER NOT NULL REFERENCES roots(id),
    path            TEXT NOT NULL UNIQUE,
    rel             TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('indexed', 'skipped', 'error')),
    reason          TEXT,
    hash            TEXT,
    size            INTEGER NOT NULL,
    mtime_ms        REAL NOT NULL,
    language        TEXT,
    summary         TEXT,
    requested_depth INTEGER NOT NULL,
    target_depth    INTEGER NOT NULL,
    effective_depth INTEGER NOT NULL,
    depth_reason    TEXT,
    generation      INTEGER NOT NULL,
    racy            INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE TABLE nodes (
    id          TEXT PRIMARY KEY,
    path_id     INTEGER NOT NULL,
    parent_id   TEXT,
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL,
    qualname    TEXT NOT NULL,
    start_line  INTEGER,
    end_line    INTEGER,
    signature   TEXT,
    doc         TEXT,
    struct_hash TEXT,
    partial     INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  CREATE INDEX nodes_path ON nodes(path_id, name);
  CREATE INDEX nodes_name ON nodes(name);

  -- Resolved edges, owned by the path whose reference produced them.
  CREATE TABLE edges (
    owner_id INTEGER NOT NULL,
    src      TEXT NOT NULL,
    dst      TEXT NOT NULL,
    kind     TEXT NOT NULL,
    line     INTEGER
  ) STRICT;
  CREATE INDEX edges_owner ON edges(owner_id, kind);
  CREATE INDEX edges_src ON edges(src);
  CREATE INDEX edges_dst ON edges(dst);

  -- Cross-file references waiting for (or never finding) their target.
  CREATE TABLE pending_edges (
    owner_id INTEGER NOT NULL,
    src      TEXT NOT NULL,
    kind     TEXT NOT NULL,
    target   TEXT NOT NULL,
    module   TEXT,
    line     INTEGER
  ) STRICT;
  CREATE INDEX pending_owner ON pending_edges(owner_id, kind);

  -- The work queue: one row per path. seq moves on every enqueue so a path
  -- re-queued while it is being reconciled gets exactly one more pass.
  CREATE TABLE queue (
    path        TEXT PRIMARY KEY,
    reason      TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    enqueued_ms INTEGER NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    not_before  INTEGER NOT NULL DEFAULT 0
  ) STRICT;
  `,
  // 2: the code graph. A resolved edge keeps the reference it came from (name
  // as written, module, how it was resolved) so that it can turn back into a
  // pending edge when its target disappears or stops being unique.
  `
  ALTER TABLE edges ADD COLUMN target TEXT;
  ALTER TABLE edges ADD COLUMN module TEXT;
  ALTER TABLE edges ADD COLUMN how TEXT;
  ALTER TABLE edges ADD COLUMN name TEXT;
  ALTER TABLE pending_edges ADD COLUMN name TEXT;
  ALTER TABLE edges ADD COLUMN module_tail TEXT;
  ALTER TABLE pending_edges ADD COLUMN module_tail TEXT;
  CREATE INDEX edges_name ON edges(name);
  CREATE INDEX pending_name ON pending_edges(name);
  -- Who imports a file: imports are found by the last segment of their module
  -- specifier (\`mod\` of ./util/mod.ts, \`store\` of .../internal/store).
  CREATE INDEX edges_module_tail ON edges(module_tail) WHERE module_tail IS NOT NULL;
  CREATE INDEX pending_module_tail ON pending_edges(module_tail) WHERE module_tail IS NOT NULL;
  CREATE INDEX nodes_qualname ON nodes(qualname);
  `,
];
