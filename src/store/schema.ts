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
  // 3: memory: decisions, conventions, attempts, notes and facts, attached to
  // code by anchors. Bi-temporal (valid time + record time), superseded or
  // forgotten by marking, never deleted; no path owns these rows, so neither
  // a commit nor a rebuild of the code index touches them.
  `
  CREATE TABLE memories (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('decision', 'convention', 'attempt', 'note', 'fact')),
    text          TEXT NOT NULL,
    author        TEXT NOT NULL,
    scope         TEXT NOT NULL CHECK (scope IN ('private', 'project', 'team')),
    valid_from    INTEGER NOT NULL,
    valid_to      INTEGER,
    recorded_at   INTEGER NOT NULL,
    superseded_at INTEGER,
    superseded_by TEXT,
    forgotten_at  INTEGER,
    forgotten_by  TEXT,
    task_id       TEXT,
    -- Attempts: failed or passed; a failure is open until a passing attempt resolves it.
    outcome       TEXT CHECK (outcome IN ('failed', 'passed')),
    status        TEXT CHECK (status IN ('open', 'resolved')),
    count         INTEGER NOT NULL DEFAULT 1,
    last_seen_at  INTEGER NOT NULL,
    tests         TEXT NOT NULL DEFAULT '[]',
    fix           TEXT,
    resolved_by   TEXT,
    resolved_at   INTEGER,
    updated_at    INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX memories_recorded ON memories(recorded_at);
  CREATE INDEX memories_task ON memories(task_id) WHERE task_id IS NOT NULL;
  CREATE INDEX memories_open ON memories(status) WHERE status = 'open';

  -- What a memory is about: a symbol, a file or a folder, as last seen. When
  -- the code moves the anchor follows it (state 'moved', moved_from says from
  -- where); when it is gone the anchor is 'orphaned' and the memory stays.
  CREATE TABLE memory_anchors (
    memory_id   TEXT NOT NULL REFERENCES memories(id),
    ord         INTEGER NOT NULL,
    target      TEXT NOT NULL CHECK (target IN ('symbol', 'file', 'folder')),
    original    TEXT NOT NULL,
    path        TEXT NOT NULL,
    root        TEXT,
    symbol      TEXT,
    symbol_kind TEXT,
    name        TEXT NOT NULL,
    node_id     TEXT,
    struct_hash TEXT,
    shape       TEXT,
    start_line  INTEGER,
    end_line    INTEGER,
    state       TEXT NOT NULL CHECK (state IN ('active', 'moved', 'orphaned')),
    moved_from  TEXT,
    state_at    INTEGER NOT NULL,
    checked     TEXT,
    PRIMARY KEY (memory_id, ord)
  ) STRICT;
  CREATE INDEX memory_anchors_node ON memory_anchors(node_id) WHERE node_id IS NOT NULL;
  CREATE INDEX memory_anchors_path ON memory_anchors(path);
  `,
  // 4: search. The unit of search is a chunk (a symbol, a markdown section, a
  // file's own text, a note, a memory), for the lexical and semantic legs
  // alike. Path-owned chunks (path_id set) are written and deleted with their
  // path's rows; notes and memories (ref_id set) are never touched by
  // re-indexing. The FTS5 table is contentless: it keeps only the inverted
  // index, never the text a second time (path-owned text is read back from
  // disk, loose text is in `text`).
  `
  CREATE TABLE chunks (
    id         INTEGER PRIMARY KEY,
    path_id    INTEGER REFERENCES paths(id),
    node_id    TEXT,
    source     TEXT NOT NULL CHECK (source IN ('code', 'docs', 'notes', 'memory')),
    ref_id     ANY,
    title      TEXT NOT NULL,
    start_line INTEGER,
    end_line   INTEGER,
    text_hash  TEXT NOT NULL,
    -- Loose chunks only: the path a note or memory points at, and its text.
    anchor     TEXT,
    text       TEXT
  ) STRICT;
  CREATE INDEX chunks_path ON chunks(path_id);
  CREATE INDEX chunks_node ON chunks(node_id);
  CREATE INDEX chunks_ref ON chunks(source, ref_id) WHERE ref_id IS NOT NULL;
  CREATE VIRTUAL TABLE chunks_fts USING fts5(
    name, qual, sig, doc, body, path,
    content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  );

  -- Notes from \`heimdall insert\`: memory, never deleted by re-indexing.
  CREATE TABLE notes (
    id         INTEGER PRIMARY KEY,
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    keywords   TEXT NOT NULL DEFAULT '',
    created_ms INTEGER NOT NULL
  ) STRICT;
  -- The paths a note points at, with what they were when it was written.
  CREATE TABLE note_paths (
    note_id  INTEGER NOT NULL REFERENCES notes(id),
    ord      INTEGER NOT NULL,
    path     TEXT NOT NULL,
    hash     TEXT,
    size     INTEGER,
    PRIMARY KEY (note_id, ord)
  ) STRICT;

  -- Re-anchoring a moved file by its content hash.
  CREATE INDEX paths_hash ON paths(hash) WHERE hash IS NOT NULL;
  `,
  // 5: team coordination: claims on code, tasks and their hand-offs, and the
  // conflict warnings each person acknowledged. Code is keyed portably
  // (repository name, repository-relative path, qualified name; "" for a whole
  // file) because the same rows live in a shared PostgreSQL for a team. Times
  // are ms from SQLite's clock. No path owns these rows: re-indexing never
  // touches them; expired and released claims stay as history (who-knows).
  `
  CREATE TABLE claims (
    id          INTEGER PRIMARY KEY,
    repo        TEXT NOT NULL,
    path        TEXT NOT NULL,
    qualname    TEXT NOT NULL,
    kind        TEXT NOT NULL,
    struct_hash TEXT,
    developer   TEXT NOT NULL,
    agent       TEXT,
    session     TEXT,
    task_id     TEXT,
    task_text   TEXT,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    released_at INTEGER
  ) STRICT;
  CREATE INDEX claims_active ON claims(expires_at) WHERE released_at IS NULL;
  CREATE INDEX claims_symbol ON claims(qualname, path);
  CREATE INDEX claims_task ON claims(task_id) WHERE task_id IS NOT NULL;

  CREATE TABLE tasks (
    id            TEXT PRIMARY KEY,
    text          TEXT NOT NULL,
    owner         TEXT NOT NULL,
    owner_agent   TEXT,
    owner_session TEXT,
    state         TEXT NOT NULL CHECK (state IN ('open', 'handed_off', 'done')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX tasks_owner ON tasks(owner, state);

  CREATE TABLE task_events (
    id        INTEGER PRIMARY KEY,
    task_id   TEXT NOT NULL REFERENCES tasks(id),
    kind      TEXT NOT NULL CHECK (kind IN ('start', 'handoff', 'resume', 'done')),
    actor     TEXT NOT NULL,
    to_person TEXT,
    note      TEXT,
    at        INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX task_events_task ON task_events(task_id, id);

  -- A conflict warning seen once is not repeated for the same (viewer, claim).
  CREATE TABLE acks (
    developer TEXT NOT NULL,
    session   TEXT NOT NULL,
    claim_id  INTEGER NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (developer, session, claim_id)
  ) STRICT;
  `,
  // 6: embeddings. One vector per (chunk, model), owned like its chunk: a
  // commit's deleteOwned drops a path's vectors, and deleting a note's or
  // memory's chunk cascades to its vectors. `vectors_gone` logs deletions so
  // a reader's in-memory scan cache can follow them without re-reading the
  // table; the embedding pass prunes it.
  `
  CREATE TABLE vectors (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    chunk_id        INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
    path_id         INTEGER,
    embedding_model TEXT NOT NULL,
    dims            INTEGER NOT NULL,
    quant           TEXT NOT NULL CHECK (quant IN ('i8', 'f32')),
    scale           REAL NOT NULL,
    data            BLOB NOT NULL,
    text_hash       TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX vectors_chunk ON vectors(chunk_id, embedding_model);
  CREATE INDEX vectors_path ON vectors(path_id) WHERE path_id IS NOT NULL;
  CREATE INDEX vectors_model ON vectors(embedding_model, id);

  CREATE TABLE vectors_gone (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    vector_id       INTEGER NOT NULL,
    embedding_model TEXT NOT NULL,
    gone_ms         INTEGER NOT NULL
  ) STRICT;
  CREATE TRIGGER vectors_gone_log AFTER DELETE ON vectors BEGIN
    INSERT INTO vectors_gone (vector_id, embedding_model, gone_ms)
    VALUES (OLD.id, OLD.embedding_model, CAST(unixepoch('subsec') * 1000 AS INTEGER));
  END;
  `,
  // 7: team memory: which memory rows are copies of a shared PostgreSQL's
  // (src/team pulls them there; src/memory owns the rows), of which store
  // (its id), and at which of its revisions (an older copy never replaces a
  // newer one). Never deleted: a journal disconnected from the store keeps
  // its copies as memories of its own.
  `
  CREATE TABLE memory_shared (
    memory_id TEXT PRIMARY KEY REFERENCES memories(id),
    store     TEXT NOT NULL,
    rev       INTEGER NOT NULL
  ) STRICT;
  `,
  // 8: a vocabulary learned from the documented symbols: which prose words
  // (a doc comment's first sentence) go with which code words (the symbol's
  // name, signature and body). `vocab_sets` holds what each path's symbols
  // contribute, one line per symbol ("prose stems<TAB>code stems"), owned
  // like its nodes, so a commit subtracts exactly what it once added. The
  // counts are their sum over every path, kept in the same transaction:
  // `vocab_pairs` how many symbols pair a prose stem with a code stem,
  // `vocab_words` how many symbols have a stem on each side, and the row
  // ('symbols', '') how many symbols there are. A count that reaches 0 is
  // deleted. Journals indexed before this migration learn as files change
  // (`heimdall rebuild` learns from everything at once).
  `
  CREATE TABLE vocab_sets (
    path_id INTEGER PRIMARY KEY,
    sets    TEXT NOT NULL
  ) STRICT;
  CREATE TABLE vocab_pairs (
    prose TEXT NOT NULL,
    code  TEXT NOT NULL,
    n     INTEGER NOT NULL,
    PRIMARY KEY (prose, code)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE vocab_words (
    side TEXT NOT NULL CHECK (side IN ('prose', 'code', 'symbols')),
    word TEXT NOT NULL,
    n    INTEGER NOT NULL,
    PRIMARY KEY (side, word)
  ) STRICT, WITHOUT ROWID;
  `,
  // 9: the learned vocabulary keeps postings instead of pair counts: counting
  // every (prose, code) pair cost a B-tree upsert per pair, ~13% of a cold
  // index's main thread; a posting is one row per prose stem and path.
  // `vocab_postings` holds, for each prose stem, the code stems of each
  // symbol of a path whose first sentence has it (one line per symbol),
  // ordered by `mix` (a hash of the path) so that the first postings of a
  // common word are a sample of every root. `vocab_sets` keeps `mix` to find
  // its postings again. The rows of 8 are derived: dropped here, and learned
  // again as files change (`heimdall rebuild` learns from everything at once).
  `
  DROP TABLE vocab_pairs;
  DROP TABLE vocab_sets;
  DELETE FROM vocab_words;
  CREATE TABLE vocab_sets (
    path_id INTEGER PRIMARY KEY,
    mix     INTEGER NOT NULL,
    sets    TEXT NOT NULL
  ) STRICT;
  CREATE TABLE vocab_postings (
    prose   TEXT NOT NULL,
    mix     INTEGER NOT NULL,
    path_id INTEGER NOT NULL,
    codes   TEXT NOT NULL,
    PRIMARY KEY (prose, mix, path_id)
  ) STRICT, WITHOUT ROWID;
  `,
  // 10: every path row records the version of the code that derived its rows
  // (extractor and chunker, structural hash, the language's queries), so that
  // a release that changes one of them re-derives exactly the files it
  // concerns at the next audit. Rows from before are NULL, read as "1.1.0".
  `
  ALTER TABLE paths ADD COLUMN derivation TEXT;
  `,
  // 11: personal memory. Two kinds of memory: a person's accepted rule or
  // preference ("always run the linter before committing") and a project's
  // knowledge page (`heimdall reflect`). SQLite cannot change a CHECK in
  // place, so memories is rebuilt; the rows that refer to it are set aside
  // and put back in the same transaction, so foreign keys hold throughout.
  // Candidates wait in a review queue until accepted (then a memory) or
  // rejected; a near-duplicate raises `seen` instead of adding a row.
  `
  CREATE TEMP TABLE keep_anchors AS SELECT * FROM memory_anchors;
  CREATE TEMP TABLE keep_shared AS SELECT * FROM memory_shared;
  DELETE FROM memory_anchors;
  DELETE FROM memory_shared;
  CREATE TABLE memories_v11 (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN
                    ('decision', 'convention', 'attempt', 'note', 'fact', 'preference', 'page')),
    text          TEXT NOT NULL,
    author        TEXT NOT NULL,
    scope         TEXT NOT NULL CHECK (scope IN ('private', 'project', 'team')),
    valid_from    INTEGER NOT NULL,
    valid_to      INTEGER,
    recorded_at   INTEGER NOT NULL,
    superseded_at INTEGER,
    superseded_by TEXT,
    forgotten_at  INTEGER,
    forgotten_by  TEXT,
    task_id       TEXT,
    outcome       TEXT CHECK (outcome IN ('failed', 'passed')),
    status        TEXT CHECK (status IN ('open', 'resolved')),
    count         INTEGER NOT NULL DEFAULT 1,
    last_seen_at  INTEGER NOT NULL,
    tests         TEXT NOT NULL DEFAULT '[]',
    fix           TEXT,
    resolved_by   TEXT,
    resolved_at   INTEGER,
    updated_at    INTEGER NOT NULL
  ) STRICT;
  INSERT INTO memories_v11 SELECT * FROM memories;
  DROP TABLE memories;
  ALTER TABLE memories_v11 RENAME TO memories;
  CREATE INDEX memories_recorded ON memories(recorded_at);
  CREATE INDEX memories_task ON memories(task_id) WHERE task_id IS NOT NULL;
  CREATE INDEX memories_open ON memories(status) WHERE status = 'open';
  INSERT INTO memory_anchors SELECT * FROM keep_anchors;
  INSERT INTO memory_shared SELECT * FROM keep_shared;
  DROP TABLE keep_anchors;
  DROP TABLE keep_shared;

  CREATE TABLE personal_candidates (
    id          INTEGER PRIMARY KEY,
    text        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('rule', 'preference', 'decision', 'correction')),
    confidence  REAL NOT NULL,
    -- Where it was said: a transcript file and line, or the distiller's name.
    source      TEXT NOT NULL,
    project     TEXT NOT NULL,
    author      TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
    seen        INTEGER NOT NULL DEFAULT 1,
    memory_id   TEXT,
    created_at  INTEGER NOT NULL,
    decided_at  INTEGER
  ) STRICT;
  CREATE INDEX personal_candidates_open ON personal_candidates(project, status);
  `,
  // 12: pending edges are looked up by name and target together (a class's
  // method \`C.m\` retried when C's file changes, a bare name where it is
  // unique): by name alone, an edit of a 2,954-symbol file in a 31,000-file
  // index read every pending \`get\`, \`length\`… to find none, and held the
  // write lock 1.2 s instead of 0.9 s.
  `
  DROP INDEX pending_name;
  CREATE INDEX pending_name ON pending_edges(name, target);
  `,
  // 13: what contains what is \`nodes.parent_id\` alone. A \`contains\` edge
  // per symbol repeated it: half the edge rows, each with four index entries
  // (about a tenth of the journal, and of a commit's writes); a node's
  // children are found through this index instead.
  `
  DELETE FROM edges WHERE kind = 'contains';
  CREATE INDEX nodes_parent ON nodes(parent_id) WHERE parent_id IS NOT NULL;
  `,
  // 14: a symbol's chunk is found through its node's file (\`chunks_path\`):
  // only the graph leg looked chunks up by node, and the index on a random
  // text id was 2.4% of the journal and an entry written per chunk.
  `
  DROP INDEX chunks_node;
  `,
  // 15: a call in a language with overloads (Java, C#, C++) says how many
  // arguments it passes, resolved or not: the resolver takes the overload
  // that accepts them (NULL elsewhere, and before the files are re-derived).
  // An import that binds another name than it imports (\`from m import a as
  // b\`) says what it imports: calls of the name bound land on it.
  `
  ALTER TABLE pending_edges ADD COLUMN args INTEGER;
  ALTER TABLE edges ADD COLUMN args INTEGER;
  ALTER TABLE pending_edges ADD COLUMN imported TEXT;
  ALTER TABLE edges ADD COLUMN imported TEXT;
  `,
  // 16: a path row records its file's status-change time (ctime, which no
  // tool can set back) beside its mtime: a rewrite that keeps the size and
  // the mtime (an archive's fixed mtimes, \`cp -p\`, \`rsync -a\`, \`touch -r\`)
  // is re-read by the stat screen. NULL before, and read once more.
  `
  ALTER TABLE paths ADD COLUMN ctime_ms REAL;
  `,
  // 17: a JS/TS definition inside a function that is no symbol (the IIFE
  // that wraps a script, a test's callback) is that function's own: no other
  // file's bare call lands on it, however unique its name. 0 before, until
  // the file is derived again (javascript 19, typescript and tsx 20).
  `
  ALTER TABLE nodes ADD COLUMN scoped INTEGER NOT NULL DEFAULT 0;
  `,
  // 18: a node's children are in its own file, so they are found through
  // \`nodes_path\` (the parent's path id, then the parent id among the
  // file's rows): the index of 13 on \`parent_id\` held a 20-character id
  // per symbol, 2.2% of a 31,000-file journal and an entry written per
  // symbol, for look-ups the path index answers within one file.
  `
  DROP INDEX nodes_parent;
  `,
];
