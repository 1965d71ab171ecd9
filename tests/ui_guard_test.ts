/**
 * The dashboard's request check (`src/ui/guard.ts`) on requests as a
 * browser sends them, for the cases a running server in a test cannot
 * reach: port 80 needs privileges to listen on.
 */
import assert from "node:assert/strict";
import { checkRequest } from "../src/ui/mod.ts";

const TOKEN = "ab".repeat(24);

function request(
  port: number,
  headers: Record<string, string>,
  init: { method?: string; path?: string } = {},
): Request {
  const url = `http://127.0.0.1${port === 80 ? "" : `:${port}`}${init.path ?? "/api/badges"}`;
  return new Request(url, { method: init.method ?? "GET", headers });
}

Deno.test("on port 80 the browser's Host and Origin carry no port, and are this server", () => {
  const cookie = `heimdall_ui_80=${TOKEN}`;
  for (const host of ["127.0.0.1", "localhost", "127.0.0.1:80"]) {
    assert.deepEqual(checkRequest(request(80, { host, cookie }), TOKEN, 80), {
      ok: true,
      setCookie: false,
    }, host);
  }
  const write = {
    host: "127.0.0.1",
    cookie,
    origin: "http://127.0.0.1",
    "sec-fetch-site": "same-origin",
    "x-heimdall-token": TOKEN,
    "content-type": "application/json",
  };
  assert.deepEqual(
    checkRequest(request(80, write, { method: "POST", path: "/api/remember" }), TOKEN, 80),
    { ok: true, setCookie: false },
  );
  // Still refused: another name (DNS rebinding), another origin.
  const evil = checkRequest(request(80, { host: "evil.example", cookie }), TOKEN, 80);
  assert.equal(evil.ok, false);
  const cross = checkRequest(
    request(80, { ...write, origin: "http://evil.example" }, { method: "POST" }),
    TOKEN,
    80,
  );
  assert.equal(cross.ok, false);
});

Deno.test("on any other port a Host or Origin without the port is another server", () => {
  const cookie = `heimdall_ui_8765=${TOKEN}`;
  for (const host of ["127.0.0.1", "localhost", "127.0.0.1:80", "localhost:8766"]) {
    const v = checkRequest(request(8765, { host, cookie }), TOKEN, 8765);
    assert.equal(v.ok, false, host);
  }
  assert.deepEqual(
    checkRequest(request(8765, { host: "localhost:8765", cookie }), TOKEN, 8765),
    { ok: true, setCookie: false },
  );
  const write = checkRequest(
    request(8765, {
      host: "127.0.0.1:8765",
      cookie,
      origin: "http://127.0.0.1",
      "x-heimdall-token": TOKEN,
      "content-type": "application/json",
    }, { method: "POST", path: "/api/remember" }),
    TOKEN,
    8765,
  );
  assert.equal(write.ok, false, "an origin on port 80 is not this server's");
});

Deno.test("a one-time code lets a GET in once to set the cookie; used, expired or unknown it does not", () => {
  const code = "cd".repeat(24);
  const host = { host: "127.0.0.1:8765" };
  const visit = (state: "valid" | "used" | "expired" | "unknown") =>
    checkRequest(request(8765, host, { path: `/?code=${code}` }), TOKEN, 8765, (c) => {
      assert.equal(c, code);
      return state;
    });
  assert.deepEqual(visit("valid"), { ok: true, setCookie: true, code });
  const used = visit("used");
  assert.equal(used.ok, false);
  assert.equal(!used.ok && used.reused, code, "a second use is told to the server");
  assert.match(!used.ok ? used.reason : "", /used already.*printed in its terminal/);
  const expired = visit("expired");
  assert.match(!expired.ok ? expired.reason : "", /expired/);
  assert.equal(visit("unknown").ok, false, "a made-up code is no token");
  // A code never stands in for the token a write carries.
  const write = checkRequest(
    request(8765, {
      ...host,
      "x-heimdall-token": code,
      "content-type": "application/json",
    }, { method: "POST", path: `/api/remember?code=${code}` }),
    TOKEN,
    8765,
    () => "valid",
  );
  assert.equal(write.ok, false);
});

Deno.test("a page of another server on 127.0.0.1 gets nothing with the cookie it is sent but a visit of /", () => {
  // Cookies ignore the port: the browser sends this dashboard's cookie to requests from a page
  // of any other local server, which it counts as the same site.
  const cookie = `heimdall_ui_8765=${TOKEN}`;
  const host = "127.0.0.1:8765";
  const fromOtherPort = {
    host,
    cookie,
    "sec-fetch-site": "same-site",
    "sec-fetch-mode": "no-cors",
  };
  for (const path of ["/api/search?q=x", "/api/memory", "/api/events", "/app.js", "/"]) {
    const v = checkRequest(request(8765, fromOtherPort, { path }), TOKEN, 8765);
    assert.equal(v.ok, false, path);
    assert.match((v as { reason: string }).reason, /Sec-Fetch-Site: same-site\) is refused/);
  }
  const cors = checkRequest(
    request(8765, { host, cookie, origin: "http://127.0.0.1:3000" }, { path: "/api/memory" }),
    TOKEN,
    8765,
  );
  assert.equal(cors.ok, false, "a browser without fetch metadata still names the origin");
  assert.match((cors as { reason: string }).reason, /"http:\/\/127\.0\.0\.1:3000" is refused/);
  // Following a link to the dashboard opens it; its own page's calls go through.
  const visit = { ...fromOtherPort, "sec-fetch-mode": "navigate" };
  assert.deepEqual(checkRequest(request(8765, visit, { path: "/" }), TOKEN, 8765), {
    ok: true,
    setCookie: false,
  });
  assert.equal(
    checkRequest(request(8765, visit, { path: "/api/memory" }), TOKEN, 8765).ok,
    false,
    "a visit of an API address is not a visit of the dashboard",
  );
  const own = { host, cookie, "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" };
  assert.equal(checkRequest(request(8765, own, { path: "/api/memory" }), TOKEN, 8765).ok, true);
});
