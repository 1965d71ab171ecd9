import assert from "node:assert/strict";
import { ConfigEditError } from "./json_file.ts";
import { readServer, removeServer, setServer, type TomlServer } from "./toml_edit.ts";
import { scanToml } from "./toml_scan.ts";

const F = "/p/.codex/config.toml";
const OURS: TomlServer = {
  command: "/usr/local/bin/heimdall",
  args: ["mcp"],
  env: { HEIMDALL_HOME: "/h" },
};
const TABLE = '[mcp_servers.heimdall]\ncommand = "/usr/local/bin/heimdall"\nargs = ["mcp"]\n' +
  'env = { HEIMDALL_HOME = "/h" }\n';

/** How many times each table header occurs (a TOML file may declare a table once). */
function headerCounts(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of scanToml(text)) {
    if (s.kind === "header") out[s.key.join(".")] = (out[s.key.join(".")] ?? 0) + 1;
  }
  return out;
}

Deno.test("setServer() edits the one table when a comment or a string holds \"\"\" or '''", () => {
  const text = "# docstrings use \"\"\" quotes\nmodel = \"o3\"\nq = '''x'''\n\n" +
    '[mcp_servers.heimdall]\ncommand = "/usr/local/bin/heimdall"\nargs = ["mcp"]\n';
  const out = setServer(F, text, "heimdall", OURS);
  assert.equal(out, text + 'env = { HEIMDALL_HOME = "/h" }\n');
  assert.deepEqual(headerCounts(out), { "mcp_servers.heimdall": 1 });
  assert.equal(
    removeServer(F, out, "heimdall"),
    "# docstrings use \"\"\" quotes\nmodel = \"o3\"\nq = '''x'''\n",
  );
});

Deno.test("setServer() replaces only Heimdall's keys; the person's keys and the comments after the table stay", () => {
  const text = '[mcp_servers.heimdall]\ncommand = "/old/heimdall"\nargs = ["mcp"]\n' +
    "startup_timeout_sec = 30\n\n# my github server, keep\n[mcp_servers.github]\n" +
    'command = "gh-mcp"\n';
  const out = setServer(F, text, "heimdall", OURS);
  assert.equal(
    out,
    '[mcp_servers.heimdall]\ncommand = "/usr/local/bin/heimdall"\nargs = ["mcp"]\n' +
      'env = { HEIMDALL_HOME = "/h" }\nstartup_timeout_sec = 30\n\n# my github server, keep\n' +
      '[mcp_servers.github]\ncommand = "gh-mcp"\n',
  );
  assert.equal(setServer(F, out, "heimdall", OURS), out, "a second run changes nothing");
  // The uninstall takes the table (and the key that configured it), never what follows it.
  assert.equal(
    removeServer(F, out, "heimdall"),
    '# my github server, keep\n[mcp_servers.github]\ncommand = "gh-mcp"\n',
  );
});

Deno.test("setServer() keeps a value's comment and layout when it is already right, and the file's CRLF", () => {
  const text = 'model = "x"\r\n\r\n[mcp_servers.heimdall]\r\n' +
    'command = "/usr/local/bin/heimdall" # pinned\r\nargs = [\r\n  "mcp",\r\n]\r\n' +
    'env = { RUST_LOG = "warn", HEIMDALL_HOME = "/old" }\r\n';
  const out = setServer(F, text, "heimdall", OURS);
  assert.equal(out, text.replace('"/old"', '"/h"'));
  const plain = setServer(F, text, "heimdall", { ...OURS, env: {} });
  assert.equal(plain, text.replace(', HEIMDALL_HOME = "/old"', ""), "other variables stay");
  const added = setServer(
    F,
    'a = 1\r\n\r\n[mcp_servers.heimdall]\r\ncommand = "x/heimdall"',
    "heimdall",
    OURS,
  );
  assert.equal(added, "a = 1\r\n\r\n" + TABLE.replaceAll("\n", "\r\n"));
});

Deno.test("setServer() sets HEIMDALL_HOME where env already is: a sub-table or dotted keys", () => {
  const sub = '[mcp_servers.heimdall]\ncommand = "heimdall"\nargs = ["mcp"]\n\n' +
    '[mcp_servers.heimdall.env]\nFOO = "1"\n';
  assert.equal(
    setServer(F, sub, "heimdall", OURS),
    sub.replace('"heimdall"', '"/usr/local/bin/heimdall"') + 'HEIMDALL_HOME = "/h"\n',
  );
  const dotted = '[mcp_servers.heimdall]\ncommand = "/usr/local/bin/heimdall"\nargs = ["mcp"]\n' +
    'env.HEIMDALL_HOME = "/old"\nenv.FOO = "1"\n';
  assert.equal(setServer(F, dotted, "heimdall", OURS), dotted.replace("/old", "/h"));
  assert.equal(
    setServer(F, dotted, "heimdall", { ...OURS, env: {} }),
    dotted.replace('env.HEIMDALL_HOME = "/old"\n', ""),
  );
});

Deno.test("setServer() appends a table after a blank line, and removeServer() restores the file byte for byte", () => {
  for (const text of ["", 'model = "o3"\n', 'model = "o3"', "a = 1\n\n\n", "# only a comment\n"]) {
    const out = setServer(F, text, "heimdall", OURS);
    assert.ok(out.endsWith("\n\n" + TABLE) || out === TABLE, JSON.stringify(out));
    const back = removeServer(F, out, "heimdall");
    assert.equal(
      back,
      text.endsWith("\n") || text === "" ? text : text + "\n",
      JSON.stringify(text),
    );
  }
});

Deno.test("setServer() repairs a file with the table twice (an older heimdall wrote that)", () => {
  const text = 'x = """\n"""\n\n[mcp_servers.heimdall]\ncommand = "/a/heimdall"\nargs = ["mcp"]\n' +
    '\n[mcp_servers.heimdall]\ncommand = "/b/heimdall"\nargs = ["mcp"]\n';
  const out = setServer(F, text, "heimdall", OURS);
  assert.equal(out, 'x = """\n"""\n\n' + TABLE);
  assert.equal(removeServer(F, text, "heimdall"), 'x = """\n"""\n');
});

Deno.test("removeServer() takes sub-tables, keeps a comment above the table and other tables between", () => {
  const text = "[a]\nx = 1\n\n# heimdall's server\n" + TABLE + "\n[mcp_servers.other]\n" +
    'command = "o"\n\n[mcp_servers.heimdall.tools]\nsearch = true\n';
  assert.equal(
    removeServer(F, text, "heimdall"),
    '[a]\nx = 1\n\n# heimdall\'s server\n\n[mcp_servers.other]\ncommand = "o"\n',
  );
  assert.equal(removeServer(F, "[a]\n", "heimdall"), "[a]\n", "absent: unchanged");
  assert.equal(removeServer(F, null, "heimdall"), null);
});

Deno.test("readServer() reads the command and args, decoded", () => {
  const text = "[mcp_servers.heimdall]\ncommand = '/opt/my heimdall'\n" +
    'args = ["--x=\\"y\\"", \'mcp\']\n';
  assert.deepEqual(readServer(F, text, "heimdall"), {
    command: "/opt/my heimdall",
    args: ['--x="y"', "mcp"],
  });
  assert.equal(readServer(F, "[mcp_servers.other]\n", "heimdall"), null);
  assert.deepEqual(readServer(F, "[mcp_servers.heimdall]\nargs = [1]\n", "heimdall"), {
    command: null,
    args: null,
  });
});

Deno.test("setServer() and removeServer() refuse other forms and text that is not TOML", () => {
  const cases: [string, RegExp][] = [
    ['mcp_servers.heimdall.command = "heimdall"\n', /as dotted keys/],
    ['[mcp_servers]\nheimdall = { command = "heimdall" }\n', /as a key of \[mcp_servers\]/],
    ['mcp_servers = { heimdall = { command = "heimdall" } }\n', /as dotted keys/],
    ['[[mcp_servers.heimdall]]\ncommand = "heimdall"\n', /as an array of tables/],
    ['a = """never closed\n', /is not valid TOML \(line 1, column 5: unterminated/],
  ];
  for (const [text, message] of cases) {
    for (
      const edit of [
        () => setServer(F, text, "heimdall", OURS),
        () => removeServer(F, text, "heimdall"),
      ]
    ) {
      assert.throws(edit, (e) => e instanceof ConfigEditError && message.test(e.message), text);
    }
  }
});

Deno.test("setServer() refuses a file whose mcp_servers no table may extend, instead of making it one Codex cannot read", () => {
  const cases: [string, RegExp][] = [
    ['mcp_servers = { other = { command = "x" } }\n', /mcp_servers as an inline table/],
    ['mcp_servers = "x"\n', /mcp_servers as a value/],
    ['[[mcp_servers]]\nname = "x"\n', /mcp_servers as an array of tables/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => setServer(F, text, "heimdall", OURS),
      (e) => e instanceof ConfigEditError && message.test(e.message) && e.message.includes(F),
      text,
    );
    // Nothing of Heimdall's there: an uninstall has nothing to take out.
    assert.equal(removeServer(F, text, "heimdall"), text);
  }
  // Forms a table may extend are still edited: dotted keys and a [mcp_servers] table.
  for (
    const text of [
      'mcp_servers.other.command = "x"\n',
      '[mcp_servers]\nother = { command = "x" }\n',
    ]
  ) {
    const out = setServer(F, text, "heimdall", OURS);
    assert.deepEqual(headerCounts(out)["mcp_servers.heimdall"], 1, out);
  }
});
