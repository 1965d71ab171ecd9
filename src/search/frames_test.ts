import assert from "node:assert/strict";
import { pathTail, stackFrames } from "./frames.ts";

/** Each runtime's trace, as it prints one, and its frames innermost first: `path:line name`. */
const TRACES: [string, string, string[]][] = [
  [
    "python",
    'Traceback (most recent call last):\n  File "/app/cli.py", line 9, in main\n    load()\n' +
    '  File "/app/conf.py", line 4, in load\n    return decode(raw)\nValueError: bad',
    ["/app/conf.py:4 load", "/app/cli.py:9 main"],
  ],
  [
    "node",
    "TypeError: x is not a function\n    at Session.send (/app/src/session.js:10:5)\n" +
    "    at async Promise.all (index 0)\n    at Object.<anonymous> (/app/src/main.js:3:1)\n" +
    "    at node:internal/main/run_main_module:28:49",
    ["/app/src/session.js:10 send", "/app/src/main.js:3 null"],
  ],
  [
    "deno",
    "error: Uncaught (in promise) Error: boom\n    at open (file:///home/me/app/store.ts:12:9)\n" +
    "    at file:///home/me/app/main.ts:4:1",
    ["/home/me/app/store.ts:12 open", "/home/me/app/main.ts:4 null"],
  ],
  [
    "firefox",
    "send@http://localhost:8080/static/app.js:10:5\nstart/<@http://localhost:8080/static/app.js:20:9",
    ["/static/app.js:10 send", "/static/app.js:20 start"],
  ],
  [
    "jvm",
    'Exception in thread "main" java.lang.IllegalStateException: closed\n' +
    "\tat com.acme.Session.send(Session.java:42)\n\tat com.acme.Session.<init>(Session.java:9)\n" +
    "\tat com.acme.Main.main(Main.java:7)",
    ["Session.java:42 send", "Session.java:9 null", "Main.java:7 main"],
  ],
  [
    ".net",
    "System.InvalidOperationException: closed\n" +
    "   at Acme.Session.Send(String url) in /src/Acme/Session.cs:line 42\n" +
    "   at Acme.Program.Main(String[] args) in C:\\src\\Acme\\Program.cs:line 7",
    ["/src/Acme/Session.cs:42 Send", "C:\\src\\Acme\\Program.cs:7 Main"],
  ],
  [
    "ruby",
    "/app/lib/session.rb:42:in `send': closed (RuntimeError)\n" +
    "\tfrom /app/bin/run.rb:7:in 'Session#start'\n\tfrom /app/bin/run.rb:9:in `block in <main>'",
    // `<main>` is no function of the source's: its line alone says where it is.
    ["/app/lib/session.rb:42 send", "/app/bin/run.rb:7 start", "/app/bin/run.rb:9 null"],
  ],
  [
    "php",
    "PHP Fatal error:  Uncaught Exception: closed in /app/src/Session.php:42\nStack trace:\n" +
    "#0 /app/src/Main.php(7): Acme\\Session->send()\n#1 {main}",
    ["/app/src/Session.php:42 null", "/app/src/Main.php:7 null"],
  ],
  [
    "go",
    "panic: closed\n\ngoroutine 1 [running]:\nmain.(*Session).Send(0xc000010000, {0x4b2f00, 0x5})\n" +
    "\t/home/me/app/session.go:42 +0x1d\nmain.main()\n\t/home/me/app/main.go:10 +0x25",
    ["/home/me/app/session.go:42 Send", "/home/me/app/main.go:10 main"],
  ],
  [
    "rust",
    "stack backtrace:\n   3: app::session::send\n             at ./src/session.rs:42:5\n" +
    "   4: app::main\n             at ./src/main.rs:7:5",
    ["./src/session.rs:42 send", "./src/main.rs:7 main"],
  ],
  ["a question", "why does send fail at startup (see main.js)", []],
];

Deno.test("stackFrames() reads each runtime's trace, innermost frame first", () => {
  for (const [runtime, trace, want] of TRACES) {
    const got = stackFrames(trace).map((f) => `${f.path}:${f.line} ${f.name}`);
    assert.deepEqual(got, want, runtime);
  }
});

Deno.test("stackFrames() skips lines too long to be a frame, and reads a long paste's ends", () => {
  const minified = "at " + "x.".repeat(2000) + "(/app/min.js:1:1)";
  assert.deepEqual(stackFrames(minified), []);
  const frame = (line: number) => `  File "/app/conf.py", line ${line}, in load\n`;
  const log = "log line\n".repeat(5000);
  const pasted = `${frame(1)}${log}${frame(2)}${log}${frame(3)}`;
  assert.deepEqual(stackFrames(pasted).map((f) => f.line), [3, 1]);
});

Deno.test("pathTail() keeps a frame's file and its folder, whatever the separator", () => {
  assert.equal(pathTail("/usr/lib/python3.11/json/decoder.py"), "json/decoder.py");
  assert.equal(pathTail("C:\\src\\Acme\\Program.cs"), "Acme/Program.cs");
  assert.equal(pathTail("./main.rs"), "main.rs");
  assert.equal(pathTail("Session.java"), "Session.java");
});

Deno.test("stackFrames() reads a location alone as a frame with no function: compilers', links', pasted", () => {
  const at = (q: string) => stackFrames(q).map((f) => `${f.path}:${f.line} ${f.name}`);
  assert.deepEqual(at("src/pool.ts:42"), ["src/pool.ts:42 null"]);
  assert.deepEqual(at("the test fails at src/pool.ts:42:7, see there"), ["src/pool.ts:42 null"]);
  assert.deepEqual(at("src/pool.py:42: E501 line too long (91 > 79 characters)"), [
    "src/pool.py:42 null",
  ]);
  assert.deepEqual(at("C:\\src\\Acme\\Pool.cs(42,7): error CS1002: ; expected"), [
    "\\src\\Acme\\Pool.cs:42 null",
  ]);
  assert.deepEqual(at("https://github.com/acme/app/blob/main/src/pool.ts#L42-L50"), [
    "/acme/app/blob/main/src/pool.ts:42 null",
  ]);
  // A number that follows no file, a line number glued to a word, a version: no location.
  for (const q of ["version 1.2:3", "pool.ts:42abc", "retry 3 times", "see pool.ts"]) {
    assert.deepEqual(at(q), [], q);
  }
});
