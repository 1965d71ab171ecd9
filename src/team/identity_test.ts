import assert from "node:assert/strict";
import { currentActor, formatDuration, parseDuration } from "./identity.ts";
import { originUrl } from "./symbol_key.ts";
import { parseTeamUrl, redactUrl, TeamUrlError } from "./team_url.ts";

Deno.test("parseDuration() reads s, m, h, d and their sums; nothing else", () => {
  const table: [string, number | undefined][] = [
    ["90s", 90],
    ["45m", 2700],
    ["2h", 7200],
    ["1d", 86400],
    ["1h30m", 5400],
    ["2H", 7200],
    ["", undefined],
    ["2", undefined],
    ["0s", undefined],
    ["-1h", undefined],
    ["2 hours", undefined],
  ];
  for (const [text, want] of table) assert.equal(parseDuration(text), want, text);
  assert.equal(formatDuration(90_000), "2m");
  assert.equal(formatDuration(5_400_000), "1h 30m");
  assert.equal(formatDuration(7_200_000), "2h");
});

Deno.test("currentActor() takes the author, agent and session from flags, then the environment", () => {
  const env = (vars: Record<string, string>) => ({ get: (k: string) => vars[k] });
  assert.deepEqual(
    currentActor(
      {},
      env({ HEIMDALL_AUTHOR: "alice", HEIMDALL_AGENT: "claude", HEIMDALL_SESSION: "s1" }),
    ),
    { developer: "alice", agent: "claude", session: "s1" },
  );
  assert.deepEqual(
    currentActor(
      { agent: "codex", session: "s2" },
      env({ HEIMDALL_AUTHOR: "alice", HEIMDALL_AGENT: "claude" }),
    ),
    { developer: "alice", agent: "codex", session: "s2" },
  );
  assert.deepEqual(currentActor({}, env({ HEIMDALL_AUTHOR: " bob ", HEIMDALL_AGENT: "" })), {
    developer: "bob",
    agent: null,
    session: null,
  });
});

Deno.test("team URLs are checked and never shown with their password", () => {
  assert.equal(
    redactUrl("postgres://alice:" + "s3cret@db:5432/team"),
    "postgres://alice:***@db:5432/team",
  );
  assert.equal(redactUrl("postgres://alice@db/team"), "postgres://alice@db/team");
  assert.equal(redactUrl("postgres://alice:s3 cret@db/t%"), "postgres://alice:***@db/t%");
  // A password with unencoded ":", "/", "#" or "@" is hidden up to the last "@".
  for (const pw of ["top:secret/pw", "a#b:c", "x@y:z"]) {
    assert.equal(
      redactUrl(`postgres://heimdall:${pw}@db.example:5432/team`),
      "postgres://heimdall:***@db.example:5432/team",
    );
  }
  // The driver also takes a password from the query.
  assert.equal(
    redactUrl("postgres://alice@db:5432/team?sslmode=disable&password=" + "s3@cret&x=1"),
    "postgres://alice@db:5432/team?sslmode=disable&password=***&x=1",
  );
  assert.equal(
    redactUrl("postgres://alice:pw1@db/team?PASSWORD=s3cret&sslpassword=k3y"),
    "postgres://alice:***@db/team?PASSWORD=***&sslpassword=***",
  );
  for (const bad of ["postgres://heimdall:top:secret/pw@h/d", "postgres://u:p#w@h/d"]) {
    assert.throws(
      () => parseTeamUrl(bad),
      (e: unknown) =>
        e instanceof TeamUrlError && /percent-encode/.test(e.message) &&
        !/secret|p#w/.test(e.message),
    );
  }
  assert.equal(parseTeamUrl("postgresql://a@h/d"), "postgresql://a@h/d");
  for (const bad of ["mysql://a:pw@h/d", "postgres://", "not a url :pw@"]) {
    assert.throws(
      () => parseTeamUrl(bad),
      (e: unknown) => e instanceof TeamUrlError && !e.message.includes("pw"),
    );
  }
});

Deno.test("originUrl() finds the origin remote in a git config", () => {
  const config = `[core]
\tbare = false
[remote "upstream"]
\turl = https://example.com/other/thing.git
[remote "origin"]
\turl = git@example.com:acme/shop.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
`;
  assert.equal(originUrl(config), "git@example.com:acme/shop.git");
  assert.equal(originUrl("[core]\n"), undefined);
});
