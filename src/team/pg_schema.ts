/**
 * The shared PostgreSQL's schema: forward-only migrations of schema
 * `heimdall`, like the journal's (entry i takes version i to i + 1; never
 * edited once released, only appended to). The same tables as the journal's
 * team migration, with times as `timestamptz` set by the server's `now()`,
 * and the team's shared memory (the journal keeps copies of it).
 */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: claims, tasks, task events, acknowledged warnings.
  `
  CREATE TABLE heimdall.claims (
    id          bigserial PRIMARY KEY,
    repo        text NOT NULL,
    path        text NOT NULL,
    qualname    text NOT NULL,
    kind        text NOT NULL,
    struct_hash text,
    developer   text NOT NULL,
    agent       text,
    session     text,
    task_id     text,
    task_text   text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    released_at timestamptz
  );
  CREATE INDEX claims_active ON heimdall.claims (expires_at) WHERE released_at IS NULL;
  CREATE INDEX claims_symbol ON heimdall.claims (qualname, path);
  CREATE INDEX claims_task ON heimdall.claims (task_id) WHERE task_id IS NOT NULL;

  CREATE TABLE heimdall.tasks (
    id            text PRIMARY KEY,
    text          text NOT NULL,
    owner         text NOT NULL,
    owner_agent   text,
    owner_session text,
    state         text NOT NULL CHECK (state IN ('open', 'handed_off', 'done')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX tasks_owner ON heimdall.tasks (owner, state);

  CREATE TABLE heimdall.task_events (
    id        bigserial PRIMARY KEY,
    task_id   text NOT NULL REFERENCES heimdall.tasks(id),
    kind      text NOT NULL CHECK (kind IN ('start', 'handoff', 'resume', 'done')),
    actor     text NOT NULL,
    to_person text,
    note      text,
    at        timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX task_events_task ON heimdall.task_events (task_id, id);

  CREATE TABLE heimdall.acks (
    developer text NOT NULL,
    session   text NOT NULL,
    claim_id  bigint NOT NULL REFERENCES heimdall.claims(id),
    at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (developer, session, claim_id)
  );
  `,
  // 2: shared memory: decisions, conventions, attempts, notes and facts of
  // scope project or team (private ones never leave their machine), anchored
  // by portable keys (repository, repository-relative path, qualified name,
  // hashes; never code). Times are the server's. `rev` orders changes for
  // the machines that copy them: every write takes the next value of
  // `memory_feed` as its last statement and holds that row until it commits,
  // so revisions become visible in order and "everything after rev R" misses
  // nothing. Writers lock the `memory_locks` rows of their anchors (sorted)
  // first, so two writes about the same code serialise and cannot both leave
  // a current decision. `store` names this database for the copies' cursors.
  `
  CREATE TABLE heimdall.store (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    one        boolean NOT NULL DEFAULT true UNIQUE CHECK (one),
    created_at timestamptz NOT NULL DEFAULT now()
  );
  INSERT INTO heimdall.store DEFAULT VALUES;

  CREATE TABLE heimdall.memory_feed (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    rev bigint NOT NULL
  );
  INSERT INTO heimdall.memory_feed (rev) VALUES (0);

  CREATE TABLE heimdall.memories (
    id            text PRIMARY KEY,
    kind          text NOT NULL CHECK (kind IN ('decision', 'convention', 'attempt', 'note', 'fact')),
    text          text NOT NULL,
    author        text NOT NULL,
    scope         text NOT NULL CHECK (scope IN ('project', 'team')),
    valid_from    timestamptz NOT NULL,
    valid_to      timestamptz,
    recorded_at   timestamptz NOT NULL,
    superseded_at timestamptz,
    superseded_by text,
    forgotten_at  timestamptz,
    forgotten_by  text,
    task_id       text,
    outcome       text CHECK (outcome IN ('failed', 'passed')),
    status        text CHECK (status IN ('open', 'resolved')),
    count         integer NOT NULL DEFAULT 1,
    last_seen_at  timestamptz NOT NULL,
    tests         text NOT NULL DEFAULT '[]',
    fix           text,
    resolved_by   text,
    resolved_at   timestamptz,
    updated_at    timestamptz NOT NULL,
    -- sha1 of the sorted keys of its anchors: "the same anchors".
    anchor_set    text NOT NULL,
    rev           bigint NOT NULL
  );
  CREATE INDEX memories_rev ON heimdall.memories (rev, id);
  CREATE INDEX memories_current ON heimdall.memories (anchor_set, kind)
    WHERE superseded_at IS NULL AND forgotten_at IS NULL;
  CREATE INDEX memories_open ON heimdall.memories (status) WHERE status = 'open';

  CREATE TABLE heimdall.memory_anchors (
    memory_id   text NOT NULL REFERENCES heimdall.memories(id),
    ord         integer NOT NULL,
    key         text NOT NULL,
    target      text NOT NULL CHECK (target IN ('symbol', 'file', 'folder')),
    repo        text NOT NULL,
    path        text NOT NULL,
    qualname    text NOT NULL,
    kind        text NOT NULL,
    name        text NOT NULL,
    struct_hash text,
    shape       text,
    PRIMARY KEY (memory_id, ord)
  );
  CREATE INDEX memory_anchors_key ON heimdall.memory_anchors (key);

  CREATE TABLE heimdall.memory_locks (key text PRIMARY KEY);
  `,
  // 3: the memory kinds of personal memory and knowledge pages (the journal's
  // migration 11). Preferences are private and never stored here; a project's
  // page is.
  `
  ALTER TABLE heimdall.memories DROP CONSTRAINT IF EXISTS memories_kind_check;
  ALTER TABLE heimdall.memories ADD CONSTRAINT memories_kind_check CHECK (kind IN
    ('decision', 'convention', 'attempt', 'note', 'fact', 'preference', 'page'));
  `,
];
