/**
 * `heimdall ui` end to end: the real command serving a fixture index, its
 * token and cross-site protections checked with plain fetch, and every view
 * opened in Debian's Chromium (playwright-core), asserting what a person
 * would see. Screenshots of each view go to $TMPDIR/heimdall-ui-screens.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildUiFixture, type UiFixture } from "./ui_fixture.ts";
import {
  cli,
  copyDir,
  denoDir,
  hasCommand,
  MAIN,
  openFilesOf,
  PERMS,
  removeTree,
  tempDir,
  unprivileged,
  withoutTool,
  writeTree,
} from "./helpers.ts";
import { buildUi } from "../scripts/build_ui.ts";
import { freshDatabase, heimdall, machine, noPostgres, pgServer } from "./team_fixture.ts";
import { secretSamples } from "./secret_samples.ts";

const assertEquals = (a: unknown, b: unknown, m?: string) => assert.deepEqual(a, b, m);
const assertMatch = (s: string, re: RegExp) => assert.match(s, re);
const assertStringIncludes = (s: string, part: string, m?: string) =>
  assert.ok(
    s.includes(part),
    m ?? `expected ${JSON.stringify(s)} to include ${JSON.stringify(part)}`,
  );

const BROWSER = new URL("./ui_browser.ts", import.meta.url).pathname;
const noChromium = withoutTool("chromium", hasCommand("chromium"), "apt-get install -y chromium");

/** A `heimdall ui` subprocess and the URL it printed. */
interface Served {
  url: string;
  port: number;
  token: string;
  /** What it wrote on stderr so far (with an opener only; inherited otherwise). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * A stand-in for xdg-open and open, first on the PATH of `heimdall ui`: it
 * appends the command line it was given to `log`, as `ps` would show it.
 */
function fakeOpener(dir: string, log: string): string {
  const bin = join(dir, "bin");
  Deno.mkdirSync(bin, { recursive: true });
  for (const name of ["xdg-open", "open"]) {
    Deno.writeTextFileSync(join(bin, name), `#!/bin/sh\necho "$0 $*" >> '${log}'\n`);
    Deno.chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** The URL the fake opener of {@link fakeOpener} was given, once it ran. */
async function openedUrl(log: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    try {
      const url = /(http:\/\/\S+)/.exec(Deno.readTextFileSync(log))?.[1];
      if (url) return url;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("heimdall ui never ran the program that opens the browser");
}

async function serve(
  f: Pick<UiFixture, "home" | "repo">,
  extra: string[] = [],
  opener?: string,
): Promise<Served> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--allow-sys",
      "--allow-net=127.0.0.1",
      MAIN,
      "ui",
      ...(opener === undefined ? ["--no-open"] : []),
      "--port",
      "0",
      ...extra,
    ],
    cwd: f.repo,
    env: {
      HEIMDALL_HOME: f.home,
      HEIMDALL_AUTHOR: "carol",
      DENO_NO_UPDATE_CHECK: "1",
      NO_COLOR: "1",
      ...(opener === undefined ? {} : { PATH: `${opener}:${Deno.env.get("PATH") ?? ""}` }),
    },
    stdout: "piped",
    stderr: opener === undefined ? "inherit" : "piped",
  }).spawn();
  let errors = "";
  if (opener !== undefined) {
    (async () => {
      for await (const t of child.stderr.pipeThrough(new TextDecoderStream())) errors += t;
    })();
  }
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/token=\w+/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`heimdall ui exited before printing its URL: ${text}`);
    text += value;
  }
  const url = /(http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\w+))/.exec(text)!;
  return {
    url: url[1]!,
    port: Number(url[2]),
    token: url[3]!,
    errors: () => errors,
    async stop() {
      child.kill("SIGTERM");
      await reader.cancel().catch(() => {});
      const status = await child.status;
      assertEquals(status.code, 0, "heimdall ui stops cleanly on SIGTERM");
    },
  };
}

let fixture: Promise<UiFixture> | undefined;
const getFixture = () => (fixture ??= buildUiFixture());

Deno.test("the committed bundle is what scripts/build_ui.ts builds from src/ui/app", async () => {
  const committed = Deno.readTextFileSync(
    new URL("../src/ui/assets/app.js", import.meta.url),
  );
  assert(committed === await buildUi(), "src/ui/assets/app.js is stale: run `deno task ui:build`");
});

Deno.test({
  name: "heimdall ui refuses requests without the token, from another host, and cross-site writes",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const s = await serve(f);
    try {
      const base = `http://127.0.0.1:${s.port}`;
      const cookie = `heimdall_ui_${s.port}=${s.token}`;
      const status = async (path: string, init: RequestInit = {}) => {
        const r = await fetch(base + path, { redirect: "manual", ...init });
        await r.body?.cancel();
        return r;
      };
      assertEquals((await status("/")).status, 403, "no token");
      assertEquals((await status("/api/memory")).status, 403, "no token on the API");
      assertEquals((await status(`/?token=${"0".repeat(s.token.length)}`)).status, 403);
      assertEquals(
        (await status("/", { headers: { cookie: "heimdall_ui_1=" + s.token } })).status,
        403,
      );
      const first = await status(`/?token=${s.token}`);
      assertEquals(
        first.status,
        303,
        "the first visit sets the cookie and drops the token from the URL",
      );
      assertMatch(first.headers.get("set-cookie") ?? "", /HttpOnly; SameSite=Strict/);
      assertEquals(first.headers.get("location"), "/");
      // Followed from another site's page, where a redirect would leave the Strict cookie behind.
      const linked = await fetch(`${base}/?token=${s.token}`, {
        redirect: "manual",
        headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
      });
      assertEquals(linked.status, 200);
      assertMatch(linked.headers.get("set-cookie") ?? "", /HttpOnly; SameSite=Strict/);
      assertMatch(await linked.text(), /<meta http-equiv="refresh" content="0;url=\/">/);
      assertEquals((await status("/api/memory", { headers: { cookie } })).status, 200);
      // A page of another server on 127.0.0.1 is sent this cookie too (cookies ignore ports).
      for (const headers of [{ "sec-fetch-site": "same-site" }, { origin: "http://127.0.0.1:1" }]) {
        const other = await fetch(`${base}/api/memory`, { headers: { cookie, ...headers } });
        assertEquals(other.status, 403, JSON.stringify(headers));
        assertMatch((await other.json()).error, /is refused/);
      }
      assertEquals(
        (await status("/api/badges", { method: "PUT", headers: { cookie } })).status,
        405,
      );

      // A DNS-rebinding page reaches the port under its own name: refused by Host.
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.port });
      await conn.write(
        new TextEncoder().encode(
          `GET /api/memory?token=${s.token} HTTP/1.1\r\nHost: evil.example:${s.port}\r\nConnection: close\r\n\r\n`,
        ),
      );
      const raw = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
      assertMatch(raw, /^HTTP\/1\.1 403/);

      const body = JSON.stringify({
        kind: "decision",
        text: "x",
        about: ["src/parse.ts"],
        author: "eve",
      });
      const json = { cookie, "content-type": "application/json" };
      assertEquals(
        (await status("/api/remember", { method: "POST", headers: json, body })).status,
        403,
        "a cookie alone cannot write",
      );
      const write = { ...json, "x-heimdall-token": s.token };
      assertEquals(
        (await status("/api/remember", {
          method: "POST",
          headers: { ...write, origin: "http://evil.example" },
          body,
        })).status,
        403,
        "cross-origin write",
      );
      assertEquals(
        (await status("/api/remember", {
          method: "POST",
          headers: { ...write, "sec-fetch-site": "cross-site" },
          body,
        })).status,
        403,
      );
      assertEquals(
        (await status("/api/remember", {
          method: "POST",
          headers: { ...write, "content-type": "text/plain" },
          body,
        })).status,
        415,
      );
      assertEquals(
        (await status("/api/remember", { method: "GET", headers: { cookie } })).status,
        404,
      );
      const why = await cli(f.home, ["why", "src/parse.ts"], { cwd: f.repo });
      assert(!why.stdout.includes("eve"), "nothing refused was recorded");

      // Files: only indexed ones under an indexed root.
      const file = (p: string) =>
        status(`/api/file?path=${encodeURIComponent(p)}&line=1`, { headers: { cookie } });
      assertEquals((await file("/etc/passwd")).status, 404);
      const kind = await fetch(`${base}/api/search?q=parse&kind=functions`, {
        headers: { cookie },
      });
      assertEquals(
        kind.status,
        400,
        "a kind search does not know is refused (it found nothing, silently)",
      );
      assertStringIncludes((await kind.json()).error, "expected one of code, docs, notes, memory");
      assertEquals((await file(join(f.repo, "src", "..", "..", "home", "journal.db"))).status, 404);
      const ok = await fetch(
        `${base}/api/file?path=${encodeURIComponent(join(f.repo, "src/parse.ts"))}&line=2`,
        {
          headers: { cookie },
        },
      );
      assertStringIncludes((await ok.json()).lines.join("\n"), "export function parseInput");

      // A file gone or turned into a FIFO since it was indexed: refused at once, never opened.
      const extra = join(f.repo, "src", "extra.ts");
      Deno.writeTextFileSync(extra, "export const extra = 1;\n");
      assertEquals((await cli(f.home, ["reconcile", extra])).code, 0);
      try {
        Deno.removeSync(extra);
        const gone = await fetch(`${base}/api/file?path=${encodeURIComponent(extra)}&line=1`, {
          headers: { cookie },
        });
        assertEquals(gone.status, 404);
        assertStringIncludes((await gone.json()).error, "gone from disk");
        new Deno.Command("mkfifo", { args: [extra] }).outputSync();
        const fifo = await fetch(`${base}/api/file?path=${encodeURIComponent(extra)}&line=1`, {
          headers: { cookie },
          signal: AbortSignal.timeout(5_000),
        });
        assertEquals(fifo.status, 404);
        assertStringIncludes((await fifo.json()).error, "no longer a regular file");
      } finally {
        Deno.removeSync(extra, { recursive: true });
        await cli(f.home, ["reconcile", extra]);
      }
    } finally {
      await s.stop();
    }
  },
});

Deno.test("heimdall ui refuses a --port or --author it cannot use before serving, naming it", async () => {
  const home = tempDir("heimdall-ui-flags-");
  for (const port of ["", "1e3", "0x1F90", "8080.5", "65536"]) {
    const r = await cli(home, ["ui", "--no-open", `--port=${port}`]);
    assertEquals(r.code, 2, `--port=${port}: ${r.stdout}${r.stderr}`);
    assertStringIncludes(r.stderr, `Invalid --port "${port}": expected a port number`);
  }
  const r = await cli(home, ["ui", "--no-open", "--author=  "]);
  assertEquals(r.code, 2, r.stdout + r.stderr);
  assertStringIncludes(r.stderr, 'Empty --author "  "');
});

const PREFIX = unprivileged();

/** The lowest port any user may listen on (Linux's sysctl; 1024 where there is none). */
function firstUnprivilegedPort(): number {
  try {
    const out = new Deno.Command("cat", {
      args: ["/proc/sys/net/ipv4/ip_unprivileged_port_start"],
      stderr: "null",
    }).outputSync();
    return out.success ? Number(new TextDecoder().decode(out.stdout).trim()) : 1024;
  } catch {
    return 1024;
  }
}

Deno.test({
  name:
    "heimdall ui on a port only root may listen on says so and names another --port, not a path's permissions",
  ignore: (PREFIX === undefined || firstUnprivilegedPort() <= 80) &&
    (console.error("ignored: no user here that port 80 refuses (root without `unshare -U`)"), true),
  fn: async () => {
    const base = tempDir("heimdall-ui-port-");
    Deno.chmodSync(base, 0o777); // the unprivileged user makes its home and repository here
    const asUser = async (args: string[]) => {
      const [cmd, ...pre] = [...PREFIX!, Deno.execPath()];
      const out = await new Deno.Command(cmd!, {
        // The network as the binary has it: any port (the tests' PERMS grant none).
        args: [...pre, "run", ...PERMS, "--allow-net", MAIN, ...args],
        env: {
          HEIMDALL_HOME: join(base, "home"),
          DENO_NO_UPDATE_CHECK: "1",
          NO_COLOR: "1",
          DENO_DIR: denoDir(),
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const dec = new TextDecoder();
      return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
    };
    try {
      const repo = join(base, "repo");
      writeTree(repo, { "a.ts": "export function a() {}\n" });
      Deno.chmodSync(repo, 0o755);
      Deno.chmodSync(join(repo, "a.ts"), 0o644);
      const made = await asUser(["index", repo]);
      assertEquals(made.code, 0, made.stderr);
      const r = await asUser(["ui", "--no-open", "--port", "80"]);
      assertEquals(r.code, 3, r.stdout + r.stderr);
      // It said "Permission denied (os error 13); check the owner and mode of that path".
      assertStringIncludes(r.stderr, "127.0.0.1:80");
      assertStringIncludes(r.stderr, "--port");
      assert.ok(!r.stderr.includes("that path"), r.stderr);
      assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    } finally {
      removeTree(base);
    }
  },
});

Deno.test({
  name:
    "the file view reads a file grown to a gigabyte since it was indexed only as far as it shows, and takes any line asked",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const big = join(f.repo, "src", "big.ts");
    Deno.writeTextFileSync(
      big,
      "/** Grows. */\nexport function grows(): number {\n  return 1;\n}\n",
    );
    assertEquals((await cli(f.home, ["reconcile", big])).code, 0);
    const s = await serve(f);
    try {
      const cookie = `heimdall_ui_${s.port}=${s.token}`;
      const view = async (line: string) => {
        const r = await fetch(
          `http://127.0.0.1:${s.port}/api/file?path=${encodeURIComponent(big)}&line=${line}`,
          { headers: { cookie } },
        );
        return { status: r.status, body: await r.json() };
      };
      // A line number below 1, or not a finite number, is the first line, not an empty view.
      for (const line of ["-100", "0", "1e309", "x"]) {
        const { status, body } = await view(line);
        assertEquals([status, body.first, body.lines[1]], [
          200,
          1,
          "export function grows(): number {",
        ], `line=${line}`);
        assertEquals(body.total, 5);
      }
      // A gigabyte of zero bytes appended (sparse: no disk used): read whole, it did not fit
      // in a string (a 400 or 500 after seconds of the server's only thread and as much memory).
      Deno.truncateSync(big, 1 << 30);
      const { status, body } = await view("2");
      assertEquals(status, 200, JSON.stringify(body));
      assertEquals(body.lines.slice(0, 4), [
        "/** Grows. */",
        "export function grows(): number {",
        "  return 1;",
        "}",
      ]);
      const tail: string = body.lines[4];
      assertEquals(tail.length, 64 * 1024 + 1, "the endless last line is cut, and says so");
      assert.ok(tail.endsWith("…"));
      assertEquals(body.total, null, "not read to its end, so not counted");
    } finally {
      await s.stop();
      Deno.removeSync(big);
      await cli(f.home, ["reconcile", big]);
    }
  },
});

Deno.test({
  name: "the file view shows UTF-16 and Latin-1 text as the index reads it, line for line",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const wide = join(f.repo, "notes-utf16.txt");
    const latin = join(f.repo, "legacy.c");
    const text = "Première ligne\r\nzweite Zeile\r\ndritte\r\n";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      utf16[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      utf16[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    Deno.writeFileSync(wide, utf16);
    Deno.writeFileSync(latin, Uint8Array.from("/* café */\nint x;\n", (c) => c.charCodeAt(0)));
    assertEquals((await cli(f.home, ["reconcile", wide, latin])).code, 0);
    const s = await serve(f);
    try {
      const view = async (path: string) => {
        const r = await fetch(
          `http://127.0.0.1:${s.port}/api/file?path=${encodeURIComponent(path)}&line=1`,
          { headers: { cookie: `heimdall_ui_${s.port}=${s.token}` } },
        );
        return await r.json();
      };
      const w = await view(wide);
      assertEquals(w.lines, ["Première ligne\r", "zweite Zeile\r", "dritte\r", ""]);
      assertEquals(w.total, 4, "as for UTF-8 text: the empty line after the last newline counts");
      assertEquals((await view(latin)).lines, ["/* café */", "int x;", ""]);
    } finally {
      await s.stop();
      Deno.removeSync(wide);
      Deno.removeSync(latin);
      await cli(f.home, ["reconcile", wide, latin]);
    }
  },
});

Deno.test({
  name:
    "the file view refuses a file or folder it may not read with why, not as an internal error or a file gone",
  // Root reads whatever the permissions say.
  ignore: Deno.uid() === 0,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const dir = join(f.repo, "locked");
    const file = join(dir, "locked.ts");
    Deno.mkdirSync(dir);
    Deno.writeTextFileSync(file, "export const locked = 1;\n");
    assertEquals((await cli(f.home, ["reconcile", dir])).code, 0);
    const s = await serve(f);
    try {
      const view = async () => {
        const r = await fetch(
          `http://127.0.0.1:${s.port}/api/file?path=${encodeURIComponent(file)}&line=1`,
          { headers: { cookie: `heimdall_ui_${s.port}=${s.token}` } },
        );
        return [r.status, (await r.json()).error];
      };
      Deno.chmodSync(file, 0o000);
      assertEquals(await view(), [
        403,
        `"${file}" cannot be read by the dashboard (permission denied); check the permissions of the file and its folders`,
      ]);
      Deno.chmodSync(file, 0o644);
      Deno.chmodSync(dir, 0o000);
      assertEquals((await view())[0], 403, "a folder it may not enter: not gone from disk");
    } finally {
      Deno.chmodSync(dir, 0o755);
      await s.stop();
      Deno.removeSync(dir, { recursive: true });
      await cli(f.home, ["reconcile", dir]);
    }
  },
});

Deno.test({
  name:
    "a map.toml the dashboard may not read is that repository's error in the health view, not a 500 for the view",
  // Root reads whatever the permissions say.
  ignore: Deno.uid() === 0,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const map = join(f.repo, ".heimdall", "map.toml");
    const s = await serve(f);
    try {
      Deno.chmodSync(map, 0o000);
      const r = await fetch(`http://127.0.0.1:${s.port}/api/health`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      const body = await r.json();
      assertEquals(r.status, 200, JSON.stringify(body));
      const shown = body.maps.find((m: { repo: string }) => m.repo === f.repo);
      assertStringIncludes(shown.error, "Permission denied");
      assertEquals(body.check[f.repo].code, 3, "environment, as `heimdall map check` exits");
      assertStringIncludes(body.check[f.repo].errors, "check the owner and mode of that path");
    } finally {
      Deno.chmodSync(map, 0o644);
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "heimdall ui holds no writer lock and tells the page when another process changes the journal",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const s = await serve(f);
    try {
      const res = await fetch(`http://127.0.0.1:${s.port}/api/events`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      assertEquals(res.headers.get("content-type"), "text/event-stream");
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      // The single writer runs while the dashboard reads: no lock is in its way.
      const index = await cli(f.home, ["index", f.repo]);
      assertEquals(index.code, 0, index.stderr);
      const note = await cli(f.home, [
        "remember",
        "--kind",
        "convention",
        "--about",
        "src/render.ts",
        "Markup is escaped where it is built",
      ], { cwd: f.repo });
      assertEquals(note.code, 0, note.stderr);
      let seen = "";
      const deadline = Date.now() + 10_000;
      while (!seen.includes("event: change") && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value;
      }
      await reader.cancel();
      assertStringIncludes(seen, "event: change");
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "heimdall ui reads the new journal when the one it opened is deleted and the folder indexed again",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const home = join(tempDir("heimdall-ui-replaced-"), "home");
    copyDir(f.home, home);
    const s = await serve({ home, repo: f.repo });
    try {
      const headers = { cookie: `heimdall_ui_${s.port}=${s.token}` };
      const texts = async () =>
        ((await (await fetch(`http://127.0.0.1:${s.port}/api/memory`, { headers })).json())
          .memories as { text: string }[]).map((m) => m.text);
      assert.ok((await texts()).includes("Validate request bodies with a schema library"));
      const res = await fetch(`http://127.0.0.1:${s.port}/api/events`, { headers });
      const events = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (const suffix of ["", "-wal", "-shm"]) {
        Deno.removeSync(join(home, `journal.db${suffix}`), { recursive: true });
      }
      assertEquals((await cli(home, ["index", f.repo])).code, 0);
      const note = await cli(home, [
        "remember",
        "--kind",
        "convention",
        "--about",
        "src/render.ts",
        "Only the new journal holds this",
      ], { cwd: f.repo });
      assertEquals(note.code, 0, note.stderr);
      // Each change the dashboard sees, it announces; the old file's rows stayed for ever.
      let now = await texts();
      const deadline = Date.now() + 20_000;
      while (!now.includes("Only the new journal holds this") && Date.now() < deadline) {
        const { done } = await events.read();
        if (done) break;
        now = await texts();
      }
      await events.cancel();
      assertEquals(now, ["Only the new journal holds this"]);
      if (Deno.build.os === "linux") {
        // The deleted file is let go once no request reads it (its space is freed).
        const held = await openFilesOf(home, "ui");
        const deleted = held.filter((p) => p.includes("journal.db") && p.endsWith(" (deleted)"));
        assertEquals(deleted, []);
      }
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "heimdall ui gives the program that opens the browser a one-time link, not its token: what ps shows opens the dashboard once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const dir = Deno.makeTempDirSync({ prefix: "heimdall-ui-open-" });
    const log = join(dir, "opened.log");
    const s = await serve(f, [], fakeOpener(dir, log));
    try {
      const base = `http://127.0.0.1:${s.port}`;
      const opened = await openedUrl(log);
      assert(!Deno.readTextFileSync(log).includes(s.token), "the token is on a command line");
      assertMatch(opened, new RegExp(`^${base}/\\?code=\\w+$`));
      const get = async (url: string, headers: Record<string, string> = {}) => {
        const r = await fetch(url, { redirect: "manual", headers });
        await r.body?.cancel();
        return r;
      };
      const first = await get(opened);
      assertEquals(
        first.status,
        303,
        "the browser's first visit exchanges the code for the cookie",
      );
      assertEquals(first.headers.get("location"), "/");
      const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0]!;
      assertEquals(cookie, `heimdall_ui_${s.port}=${s.token}`);
      assertEquals((await get(`${base}/api/memory`, { cookie })).status, 200);
      // The same link again: someone who read it from the process list.
      const again = await fetch(opened, { redirect: "manual" });
      assertEquals(again.status, 403);
      assertMatch(
        (await again.json()).error,
        /used already: it opens the dashboard once; open the URL `heimdall ui` printed/,
      );
      assertEquals(
        (await get(`${base}/api/memory`, { cookie })).status,
        403,
        "the token changed: a cookie the link gave is worth nothing",
      );
      let fresh: RegExpExecArray | null = null;
      for (let i = 0; i < 100 && fresh === null; i++) {
        fresh = /used twice.*open the new URL: (http:\/\/127\.0\.0\.1:\d+\/\?token=(\w+))/
          .exec(s.errors());
        if (fresh === null) await new Promise((r) => setTimeout(r, 50));
      }
      assert(fresh !== null, s.errors());
      assert(fresh[2] !== s.token);
      const visit = await get(fresh[1]!);
      assertEquals(visit.status, 303, "the new URL printed opens the dashboard");
      const newCookie = (visit.headers.get("set-cookie") ?? "").split(";")[0]!;
      assertEquals((await get(`${base}/api/memory`, { cookie: newCookie })).status, 200);
      // Used again, the link changes nothing more: the new token keeps working.
      assertEquals((await get(opened)).status, 403);
      assertEquals((await get(`${base}/api/memory`, { cookie: newCookie })).status, 200);
    } finally {
      await s.stop();
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "every view in Chromium: search, the map with claims and ×2, conflicts in red, as-of, a decision added",
  ignore: noChromium,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const s = await serve(f);
    const demoDir = Deno.makeTempDirSync({ prefix: "heimdall-ui-demo-" });
    // The demo is opened as `heimdall ui` opens a browser: through its one-time link.
    const log = join(demoDir, "opened.log");
    const demo = await serve(
      { home: join(demoDir, "home"), repo: demoDir },
      ["--demo"],
      fakeOpener(demoDir, log),
    );
    try {
      const demoUrl = await openedUrl(log);
      // playwright-core reads /proc paths Deno grants only with every permission,
      // so the browser is driven from a subprocess of its own.
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", BROWSER, s.url, JSON.stringify(f), demoUrl, demo.url],
        env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, text);
      assertStringIncludes(text, "all views checked");
    } finally {
      await s.stop();
      await demo.stop();
      Deno.removeSync(demoDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "heimdall ui --demo plays the three-developer scenario into a throwaway home, one step per POST",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = Deno.makeTempDirSync({ prefix: "heimdall-ui-demo-" });
    const home = join(dir, "home");
    Deno.mkdirSync(home);
    const s = await serve({ home, repo: dir }, ["--demo"]);
    try {
      const base = `http://127.0.0.1:${s.port}`;
      const headers = {
        cookie: `heimdall_ui_${s.port}=${s.token}`,
        "content-type": "application/json",
        "x-heimdall-token": s.token,
      };
      const api = async (path: string) => await (await fetch(base + path, { headers })).json();
      const first = await api("/api/demo");
      assertEquals(first.next, 0);
      assertEquals(first.steps.length, 9);
      let state = first;
      for (let i = 0; i < first.steps.length; i++) {
        state =
          await (await fetch(`${base}/api/demo/next`, { method: "POST", headers, body: "{}" }))
            .json();
        assert.match(state.last, /→ exit 0/, state.last);
      }
      assert.ok(state.steps.every((x: { done: boolean }) => x.done));
      const team = await api("/api/team");
      assertEquals(
        team.conflicts[0].path.map((p: { qualname: string }) => p.qualname),
        ["handleRequest", "validate", "parseInput"],
      );
      assertEquals(team.tasks[0].state, "handed_off");
      const memory = await api("/api/memory");
      const failure = memory.memories.find((m: { outcome: string }) => m.outcome === "failed");
      assertEquals([failure.count, failure.status], [2, "resolved"]);
      const old = memory.memories.find((m: { text: string }) => m.text.includes("hand-written"));
      assert.ok(old.superseded_by !== null, "the first decision is superseded");
      assertEquals([...Deno.readDirSync(home)], [], "the home given was never touched");
    } finally {
      await s.stop();
      removeTree(dir);
    }
  },
});

Deno.test({
  name:
    "with the team store unreachable, the dashboard's search answers from this machine's copy and says why",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    // The fixture's home, connected to a PostgreSQL no one listens for (port 1).
    const home = join(tempDir("heimdall-ui-team-"), "home");
    copyDir(f.home, home);
    const config = JSON.parse(Deno.readTextFileSync(join(home, "config.json")));
    config.teamUrl = "postgres://heimdall@127.0.0.1:1/none";
    Deno.writeTextFileSync(join(home, "config.json"), JSON.stringify(config));
    const s = await serve({ home, repo: f.repo });
    try {
      const r = await fetch(
        `http://127.0.0.1:${s.port}/api/search?q=${encodeURIComponent("split a body into fields")}`,
        { headers: { cookie: `heimdall_ui_${s.port}=${s.token}` } },
      );
      assertEquals(r.status, 200);
      const found = await r.json();
      assertEquals(found.hits[0].symbol, "parseInput");
      assertStringIncludes(found.warning, 'Cannot reach the team store "postgres://');
      assertStringIncludes(found.warning, "this machine's copy");
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "the code map opens folders named with fullwidth characters or emoji (UTF-8 and UTF-16 orders differ)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = tempDir("heimdall-ui-names-");
    const repo = join(dir, "repo");
    const home = join(dir, "home");
    writeTree(repo, {
      "（仮）/kari.ts": "export function kari(): number {\n  return 2;\n}\n",
      "😀/smile.ts": "export function smile(): number {\n  return 1;\n}\n",
      "plain/a.ts": "export function a(): number {\n  return 3;\n}\n",
    });
    assertEquals((await cli(home, ["index", repo])).code, 0);
    const s = await serve({ home, repo });
    try {
      const level = async (at: string) => {
        const r = await fetch(
          `http://127.0.0.1:${s.port}/api/map?at=${encodeURIComponent(at)}`,
          { headers: { cookie: `heimdall_ui_${s.port}=${s.token}` } },
        );
        return ((await r.json()).nodes as { label: string }[]).map((n) => n.label).sort();
      };
      assertEquals(await level(repo), ["plain", "（仮）", "😀"].sort());
      assertEquals(await level(join(repo, "（仮）")), ["kari.ts"]);
      assertEquals(await level(join(repo, "😀")), ["smile.ts"]);
      assertEquals(await level(join(repo, "plain")), ["a.ts"]);
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name: "the usage view counts the sound lines of a damaged usage.log and skips the rest",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const home = join(tempDir("heimdall-ui-usage-"), "home");
    copyDir(f.home, home);
    Deno.mkdirSync(join(home, "logs"), { recursive: true });
    Deno.writeTextFileSync(
      join(home, "logs", "usage.log"),
      [
        `{"at":"2020-01-02T10:00:00.000Z","event":"search","via":"cli","hits":2,"verdicts":{"STRONG":2}}`,
        "null",
        "42",
        '"text"',
        "[]",
        "\u0000\u0001garbage{",
        `{"at":"2020-01-02T11:00:00.000Z","event":"search","via":"ui","hits":1,"verdicts":{"WEAK":1}}`,
        "",
      ].join("\n"),
    );
    const s = await serve({ home, repo: f.repo });
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/api/usage`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      const body = await r.json();
      assertEquals(r.status, 200, JSON.stringify(body));
      const day = body.days.find((d: { day: string }) => d.day === "2020-01-02");
      assertEquals([day.searches, day.verdicts], [2, { STRONG: 2, WEAK: 1 }]);
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "the memory view keeps a standing convention older than its newest 2,000 memories, and says how many it leaves out",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const home = join(tempDir("heimdall-ui-many-"), "home");
    copyDir(f.home, home);
    const old = await cli(home, [
      "remember",
      "--kind",
      "convention",
      "--about",
      "src/parse.ts",
      "Parsers never throw on user input",
    ], { cwd: f.repo });
    assertEquals(old.code, 0, old.stderr);
    // 2,000 failed attempts recorded after it, as a busy month of hooks would.
    const exported = await cli(home, ["export"]);
    const [header, ...rows] = exported.stdout.trim().split("\n");
    const template = rows.map((l) => JSON.parse(l)).find((m) =>
      m.text === "Parsers never throw on user input"
    );
    const later = Date.now() + 1000;
    const attempts = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({
        ...template,
        id: `mmany${String(i).padStart(5, "0")}`,
        kind: "attempt",
        outcome: "failed",
        status: "open",
        text: `attempt ${i} failed`,
        recorded_at: later + i,
        valid_from: later + i,
        updated_at: later + i,
        last_seen_at: later + i,
      }));
    const file = join(home, "..", "attempts.jsonl");
    const end = JSON.stringify({ type: "heimdall-memory-end", memories: 2000, notes: 0 });
    Deno.writeTextFileSync(file, [header, ...attempts, end].join("\n") + "\n");
    const imported = await cli(home, ["import", file]);
    assertEquals(imported.code, 0, imported.stderr);
    // Every memory the journal holds now, as `heimdall export` writes them (one a line,
    // between the header and the end record).
    const total = (await cli(home, ["export"])).stdout.trim().split("\n").length - 2;
    const s = await serve({ home, repo: f.repo });
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/api/memory`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      const body = await r.json();
      assertEquals(r.status, 200, JSON.stringify(body).slice(0, 500));
      const standing = body.memories.filter((m: { kind: string; superseded_at: number | null }) =>
        m.kind === "convention" && m.superseded_at === null
      ).map((m: { text: string }) => m.text);
      assert.ok(
        standing.includes("Parsers never throw on user input"),
        `the standing convention is in the view: ${standing}`,
      );
      assertEquals(body.total, total, "every memory counted, shown or not");
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name: "the code map counts a repository's files and symbols as heimdall index does",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const f = await getFixture();
    const home = join(tempDir("heimdall-ui-counts-"), "home");
    copyDir(f.home, home);
    const indexed = await cli(home, ["index", f.repo]);
    assertEquals(indexed.code, 0, indexed.stderr);
    const said = /indexed (\d+) files?, (\d+) symbols?/.exec(indexed.stdout + indexed.stderr);
    assert.ok(said, indexed.stdout + indexed.stderr);
    const s = await serve({ home, repo: f.repo });
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/api/map`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      const body = await r.json();
      assertEquals(r.status, 200, JSON.stringify(body));
      const repo = body.nodes.find((n: { path: string }) => n.path === f.repo);
      assertEquals(
        [repo.files, repo.symbols],
        [Number(said[1]), Number(said[2])],
        `the map's repository node against "${said[0]}"`,
      );
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "the code map counts a root inside another root once, in the inner root, as heimdall status does",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir("heimdall-ui-nested-");
    const home = join(base, "home");
    const outer = join(base, "src");
    writeTree(outer, {
      "app/a.ts": "export function a() {}\nexport function a2() {}\n",
      "tool/b.ts": "export function b() {}\n",
    });
    const inner = join(outer, "app");
    assertEquals((await cli(home, ["index", inner])).code, 0);
    assertEquals((await cli(home, ["index", outer])).code, 0);
    const status = JSON.parse((await cli(home, ["status", "--json"])).stdout);
    const said = Object.fromEntries(
      status.roots.map((r: { path: string; files: number }) => [r.path, r.files]),
    );
    assertEquals(said, { [outer]: 1, [inner]: 1 });
    const s = await serve({ home, repo: outer });
    try {
      const r = await fetch(`http://127.0.0.1:${s.port}/api/map`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      const body = await r.json();
      assertEquals(r.status, 200, JSON.stringify(body));
      // The outer root counted app/a.ts too: 3 files shown for the 2 indexed.
      const shown = Object.fromEntries(
        body.nodes.map((n: { path: string; files: number; symbols: number }) => [
          n.path,
          [n.files, n.symbols],
        ]),
      );
      assertEquals(shown, { [outer]: [1, 1], [inner]: [1, 2] });
    } finally {
      await s.stop();
      removeTree(base);
    }
  },
});

Deno.test({
  name:
    "the file view refuses a file that holds a secret pasted in since it was indexed, wherever in the file",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = tempDir("heimdall-ui-secret-");
    const repo = join(dir, "repo"), home = join(dir, "home");
    const samples = secretSamples();
    const files: Record<string, string> = { "clean.ts": "export const clean = 1;\n" };
    samples.forEach((_, i) => files[`s${i}.ts`] = `export const v${i} = ${i};\n`);
    // A secret past the first megabyte read, at the end of a line begun before it.
    files["far.ts"] = "export const far = 1;\n";
    writeTree(repo, files);
    const indexed = await cli(home, ["index", repo]);
    assertEquals(indexed.code, 0, indexed.stderr);
    samples.forEach((x, i) =>
      Deno.writeTextFileSync(join(repo, `s${i}.ts`), x.line + "\n", {
        append: true,
      })
    );
    const far = samples.find((x) => !x.line.includes("\n"))!;
    Deno.writeTextFileSync(
      join(repo, "far.ts"),
      "// filler\n".repeat(100_000) + "x".repeat((1 << 20) - 1_000_000 - 5) + far.line + "\n",
      { append: true },
    );
    const s = await serve({ home, repo });
    try {
      const view = async (name: string) => {
        const r = await fetch(
          `http://127.0.0.1:${s.port}/api/file?path=${encodeURIComponent(join(repo, name))}`,
          { headers: { cookie: `heimdall_ui_${s.port}=${s.token}` } },
        );
        return { status: r.status, text: await r.text() };
      };
      assertEquals((await view("clean.ts")).status, 200);
      for (const [i, x] of samples.entries()) {
        const r = await view(`s${i}.ts`);
        assertEquals(r.status, 403, `${x.kind}: ${r.text}`);
        assertStringIncludes(r.text, "holds a secret now");
        assert.ok(!r.text.includes(x.secret), `${x.kind} shown: ${r.text}`);
      }
      const r = await view("far.ts");
      assertEquals(r.status, 403, r.text.slice(0, 300));
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name:
    "a search on a journal damaged while the dashboard runs says it is damaged and to rebuild, not an internal error",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = tempDir("heimdall-ui-damaged-");
    const repo = join(dir, "repo"), home = join(dir, "home");
    writeTree(repo, { "a.ts": "export function alpha() { return 1; }\n" });
    const indexed = await cli(home, ["index", repo]);
    assertEquals(indexed.code, 0, indexed.stderr);
    const s = await serve({ home, repo });
    try {
      // Garbage over every page after the header's, in place (the same file, still open).
      const journal = join(home, "journal.db");
      const size = Deno.statSync(journal).size;
      using f = Deno.openSync(journal, { write: true });
      f.seekSync(4096, Deno.SeekMode.Start);
      f.writeSync(new Uint8Array(size - 4096).fill(0xde));
      const r = await fetch(`http://127.0.0.1:${s.port}/api/search?q=alpha`, {
        headers: { cookie: `heimdall_ui_${s.port}=${s.token}` },
      });
      const body = await r.json();
      assertEquals(r.status, 503, JSON.stringify(body));
      assertStringIncludes(body.error, `Journal "${journal}" is damaged`);
      assertStringIncludes(body.error, "heimdall rebuild");
    } finally {
      await s.stop();
    }
  },
});

Deno.test({
  name: "ui fixture cleanup",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (fixture) Deno.removeSync((await fixture).dir, { recursive: true });
  },
});

Deno.test({
  name:
    "with a shared PostgreSQL, the dashboard shows the team's claims and conflicts from another machine, and its memories",
  ignore: noPostgres(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await pgServer();
    const db = await freshDatabase(server.url, "heimdall_ui");
    using a = await machine("shop");
    using b = await machine("shop-clone");
    let s: Served | undefined;
    try {
      for (const m of [a, b]) {
        assert.equal((await heimdall(m.home, ["team", "connect", db.url])).code, 0);
      }
      const bob = { HEIMDALL_AUTHOR: "bob", HEIMDALL_AGENT: "codex", HEIMDALL_SESSION: "b1" };
      const alice = { HEIMDALL_AUTHOR: "alice", HEIMDALL_SESSION: "a1" };
      // Bob, on the other machine, holds store(); Alice, here, holds route(): two calls apart.
      assert.equal((await heimdall(b.home, ["claim", "store"], { env: bob, cwd: b.repo })).code, 0);
      assert.equal(
        (await heimdall(a.home, ["claim", "route"], { env: alice, cwd: a.repo })).code,
        0,
      );
      assert.equal(
        (await heimdall(b.home, [
          "remember",
          "--kind",
          "decision",
          "--about",
          "store",
          "store writes go through the outbox",
        ], { env: bob, cwd: b.repo })).code,
        0,
      );
      s = await serve({ home: a.home, repo: a.repo });
      const base = `http://127.0.0.1:${s.port}`;
      const headers = { cookie: `heimdall_ui_${s.port}=${s.token}` };
      const api = async (path: string) => await (await fetch(base + path, { headers })).json();
      const team = await api("/api/team");
      assert.match(team.store, /^postgres/, "the team view reads the shared store");
      const holders = team.claims.map((c: { developer: string; qualname: string }) =>
        `${c.developer}:${c.qualname}`
      ).sort();
      assertEquals(holders, ["alice:route", "bob:store"]);
      const path = team.conflicts.flatMap((c: { path: { qualname: string }[] }) =>
        c.path.map((p) => p.qualname)
      );
      assert.ok(path.includes("dispatch"), JSON.stringify(team.conflicts));
      // Bob decides again while the dashboard runs: its search pulls the team's memories first,
      // as `heimdall search` does (it searched this machine's copy as of the last pull).
      assert.equal(
        (await heimdall(b.home, [
          "remember",
          "--kind",
          "convention",
          "--about",
          "route",
          "routes are registered in one table",
        ], { env: bob, cwd: b.repo })).code,
        0,
      );
      for (const kind of ["memory", ""]) {
        const found = await api(
          `/api/search?q=${encodeURIComponent("routes registered table")}&kind=${kind}`,
        );
        assert.ok(
          found.hits.some((h: { summary: string | null }) =>
            h.summary?.includes("registered in one table")
          ),
          `kind=${kind}: ${JSON.stringify(found.hits)}`,
        );
      }
      const memory = await api("/api/memory");
      assert.ok(
        memory.memories.some((m: { text: string; author: string }) =>
          m.text === "store writes go through the outbox" && m.author === "bob"
        ),
        "the team's memory, pulled from the store",
      );
    } finally {
      await s?.stop();
      await db.drop();
      await server.stop();
    }
  },
});

Deno.test("heimdall ui --demo on a --port in use says so and leaves no throwaway home behind", async () => {
  const tmp = tempDir("heimdall-ui-demo-tmp-");
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const r = await cli(join(tmp, "home"), ["ui", "--demo", "--no-open", "--port", String(port)], {
      env: { TMPDIR: tmp },
      extraPerms: ["--allow-net=127.0.0.1"],
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertStringIncludes(r.stderr, `Port ${port} is in use`);
    assertEquals([...Deno.readDirSync(tmp)].map((e) => e.name), [], "each try left a demo home");
  } finally {
    taken.close();
    removeTree(tmp);
  }
});

Deno.test({
  name:
    "a root deleted from disk is named so in the code map and, with the way out, in the health view",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const base = tempDir("heimdall-ui-gone-");
    const home = join(base, "home");
    writeTree(join(base, "kept"), { "a.ts": "export function kept() {}\n" });
    writeTree(join(base, "lost"), { "b.ts": "export function lost() {}\n" });
    for (const r of ["kept", "lost"]) {
      assertEquals((await cli(home, ["index", join(base, r)])).code, 0);
    }
    const lost = Deno.realPathSync(join(base, "lost"));
    Deno.removeSync(lost, { recursive: true });
    const s = await serve({ home, repo: join(base, "kept") });
    try {
      const cookie = `heimdall_ui_${s.port}=${s.token}`;
      const map = await (await fetch(`http://127.0.0.1:${s.port}/api/map`, { headers: { cookie } }))
        .json();
      // Listed as any other repository, with a file that is no longer there.
      const node = map.nodes.find((n: { path: string }) => n.path === lost);
      assertEquals({ label: node.label, gone: node.gone }, {
        label: "lost (gone from disk)",
        gone: true,
      });
      assertEquals(map.nodes.find((n: { label: string }) => n.label === "kept").gone, undefined);
      if (noChromium) return;
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", BROWSER, "gone-root", s.url, lost],
        env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, text);
      assertStringIncludes(text, "gone root checked");
    } finally {
      await s.stop();
      removeTree(base);
    }
  },
});
