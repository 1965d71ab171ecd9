import assert from "node:assert/strict";
import { dirname } from "node:path";
import { NOT_UTF8, type WalkEvent, type WalkOptions, walkRoot } from "./walk.ts";
import { classifyPath, IgnoreCache } from "./ignore.ts";

/** Creates `files` (root-relative) under a fresh temp folder, runs `fn`, then removes it. */
function withTree(files: Record<string, string>, fn: (root: string) => void): void {
  const root = Deno.makeTempDirSync({ prefix: "heimdall_walk_" });
  try {
    for (const [rel, text] of Object.entries(files)) {
      Deno.mkdirSync(dirname(`${root}/${rel}`), { recursive: true });
      Deno.writeTextFileSync(`${root}/${rel}`, text);
    }
    fn(root);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
}

/** One line per event: `file rel` or `skip reason rel (detail)`. */
function lines(opts: WalkOptions): string[] {
  return [...walkRoot(opts)].map(show);
}

function show(e: WalkEvent): string {
  if (e.type === "file") return `file ${e.rel}`;
  return `skip ${e.reason} ${e.rel}` + (e.detail === undefined ? "" : ` (${e.detail})`);
}

/**
 * Runs git in a folder as a user whose home is `home` (no system or user
 * config but a name, an email and local submodules); fails the test when
 * git fails, else its output.
 */
function gitIn(home: string): (cwd: string, ...args: string[]) => string {
  return (cwd, ...args) => {
    const out = new Deno.Command("git", {
      args: [
        ...["-c", "protocol.file.allow=always", "-c", "user.name=a", "-c", "user.email=a@b"],
        ...args,
      ],
      cwd,
      env: { GIT_CONFIG_NOSYSTEM: "1", HOME: home, XDG_CONFIG_HOME: home },
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  };
}

Deno.test("walkRoot() skips an ignored folder with one event and never enters it", () => {
  const files: Record<string, string> = { ".gitignore": "gen/\n*.log\n", "src/a.ts": "a" };
  for (let i = 0; i < 50; i++) files[`node_modules/pkg${i}/index.js`] = "";
  files["gen/out/x.ts"] = "";
  files["src/debug.log"] = "";
  withTree(files, (root) => {
    assert.deepEqual(lines({ root }), [
      "file .gitignore",
      "skip ignored gen (.gitignore:1 gen/)",
      "skip ignored node_modules (default: node_modules)",
      "file src/a.ts",
      "skip ignored src/debug.log (.gitignore:2 *.log)",
    ]);
  });
});

Deno.test("walkRoot() file events carry the absolute path, size and mtime", () => {
  withTree({ "dir/f.txt": "hello" }, (root) => {
    const [event] = [...walkRoot({ root })];
    assert.ok(event?.type === "file");
    assert.equal(event.path, `${root}/dir/f.txt`);
    assert.equal(event.rel, "dir/f.txt");
    assert.equal(event.size, 5);
    assert.equal(event.mtimeMs, Deno.statSync(`${root}/dir/f.txt`).mtime?.getTime());
  });
});

Deno.test("walkRoot() never yields a secret-named file as a file", () => {
  withTree({
    ".env": "TOKEN=1",
    ".env.example": "TOKEN=",
    "deploy/id_rsa": "k",
    "deploy/id_rsa.pub": "p",
    "home/.aws/credentials": "c",
    "src/keys.ts": "export {}",
  }, (root) => {
    assert.deepEqual(lines({ root }), [
      "skip secret .env (secret file name: .env)",
      "file .env.example",
      "skip secret deploy/id_rsa (secret file name: id_rsa)",
      "file deploy/id_rsa.pub",
      "skip secret home/.aws/credentials (secret file name: credentials)",
      "file src/keys.ts",
    ]);
  });
});

Deno.test("walkRoot() reports symlinks without following them, so a loop cannot hang", () => {
  withTree({ "a/f.ts": "", "b.ts": "" }, (root) => {
    Deno.symlinkSync(root, `${root}/a/loop`);
    Deno.symlinkSync("..", `${root}/a/up`);
    Deno.symlinkSync("b.ts", `${root}/link.ts`);
    assert.deepEqual(lines({ root }), [
      "file a/f.ts",
      "skip symlink a/loop",
      "skip symlink a/up",
      "file b.ts",
      "skip symlink link.ts",
    ]);
  });
});

Deno.test("walkRoot() yields the same sorted order on every walk", () => {
  withTree(
    { "z.ts": "", "b/y.ts": "", "B/x.ts": "", "a.ts": "", "b/a.ts": "", "a/z.ts": "" },
    (root) => {
      const expected = [
        "file B/x.ts",
        "file a/z.ts", // a folder sorts by its own name: "a" < "a.ts"
        "file a.ts",
        "file b/a.ts",
        "file b/y.ts",
        "file z.ts",
      ];
      assert.deepEqual(lines({ root }), expected);
      assert.deepEqual(lines({ root }), expected);
    },
  );
});

Deno.test("walkRoot() applies nested .gitignore, .ignore and the global ignore in git's order", () => {
  withTree({
    ".gitignore": "*.tmp\n",
    "keep.tmp": "",
    "notes.bak": "",
    "sub/.gitignore": "!*.tmp\n",
    "sub/.ignore": "private.tmp\n",
    "sub/a.tmp": "",
    "sub/private.tmp": "",
    "sub/old.bak": "",
  }, (root) => {
    assert.deepEqual(lines({ root, globalIgnore: "*.bak\n" }), [
      "file .gitignore",
      "skip ignored keep.tmp (.gitignore:1 *.tmp)",
      "skip ignored notes.bak (~/.heimdall/ignore:1 *.bak)",
      "file sub/.gitignore",
      "file sub/.ignore",
      "file sub/a.tmp",
      "skip ignored sub/old.bak (~/.heimdall/ignore:1 *.bak)",
      "skip ignored sub/private.tmp (sub/.ignore:1 private.tmp)",
    ]);
  });
});

Deno.test("walkRoot() walks only `under`, still honouring the ignore files above it", () => {
  withTree({
    ".gitignore": "*.gen\ncache/\n",
    "top.ts": "",
    "sub/a.ts": "",
    "sub/b.gen": "",
    "sub/deep/.gitignore": "c.ts\n",
    "sub/deep/c.ts": "",
    "sub/deep/d.ts": "",
    "cache/x/y.ts": "",
  }, (root) => {
    assert.deepEqual(lines({ root, under: "sub" }), [
      "file sub/a.ts",
      "skip ignored sub/b.gen (.gitignore:1 *.gen)",
      "file sub/deep/.gitignore",
      "skip ignored sub/deep/c.ts (sub/deep/.gitignore:1 c.ts)",
      "file sub/deep/d.ts",
    ]);
    assert.deepEqual(lines({ root, under: "sub/deep/" }), lines({ root, under: "sub/deep" }));
    assert.deepEqual(lines({ root, under: "./sub/deep/" }), lines({ root, under: "sub/deep" }));
    assert.deepEqual(lines({ root, under: "." }), lines({ root }));
    assert.deepEqual(lines({ root, under: "sub/deep/c.ts" }), [
      "skip ignored sub/deep/c.ts (sub/deep/.gitignore:1 c.ts)",
    ]);
    assert.deepEqual(lines({ root, under: "sub/a.ts" }), ["file sub/a.ts"]);
    assert.deepEqual(lines({ root, under: "cache/x/y.ts" }), [
      "skip ignored cache (.gitignore:2 cache/)",
    ]);
    assert.deepEqual(lines({ root, under: "missing/dir" }), []);
  });
});

Deno.test("walkRoot() reports a folder that vanished before it was listed and goes on", () => {
  withTree({ "a/f.ts": "", "b/g.ts": "", "c.ts": "" }, (root) => {
    const seen: string[] = [];
    for (const e of walkRoot({ root })) {
      seen.push(show(e).replace(/ \(.*\)$/, ""));
      if (e.type === "file" && e.rel === "a/f.ts") {
        Deno.removeSync(`${root}/b`, { recursive: true });
      }
    }
    assert.deepEqual(seen, ["file a/f.ts", "skip unreadable b", "file c.ts"]);
  });
});

Deno.test({
  name: "walkRoot() reports a folder it may not list and goes on",
  ignore: Deno.build.os === "windows" || Deno.uid() === 0, // root may list anything
  fn: () => {
    withTree({ "locked/f.ts": "", "open.ts": "" }, (root) => {
      Deno.chmodSync(`${root}/locked`, 0o000);
      try {
        assert.deepEqual(lines({ root }).map((l) => l.replace(/ \(.*\)$/, "")), [
          "skip unreadable locked",
          "file open.ts",
        ]);
      } finally {
        Deno.chmodSync(`${root}/locked`, 0o755);
      }
    });
  },
});

Deno.test("walkRoot() yields too-large for a file above maxFileBytes", () => {
  withTree({ "big.txt": "x".repeat(2048), "small.txt": "x" }, (root) => {
    assert.deepEqual(lines({ root, maxFileBytes: 1024 }), [
      "skip too-large big.txt (2048 bytes > 1024)",
      "file small.txt",
    ]);
  });
});

Deno.test("walkRoot() never enters an excluded folder, and skips everything when the root lies in one", () => {
  withTree({ "a.ts": "", "home/journal.db": "", "inner/b.ts": "", "src/c.ts": "" }, (root) => {
    const exclude = new Map([
      [`${root}/home`, "the home"],
      [`${root}/inner`, "a nested root"],
    ]);
    assert.deepEqual(lines({ root, exclude }), [
      "file a.ts",
      "skip excluded home (the home)",
      "skip excluded inner (a nested root)",
      "file src/c.ts",
    ]);
    assert.deepEqual(lines({ root, exclude, under: "inner/b.ts" }), [
      "skip excluded inner/b.ts (a nested root)",
    ]);
    assert.deepEqual(lines({ root: `${root}/home`, exclude }), ["skip excluded  (the home)"]);
  });
});

Deno.test("walkRoot() reports a name that is not UTF-8 as unreadable, with the remedy", () => {
  withTree({ "ok.ts": "" }, (root) => {
    // Deno cannot make such a name; the shell writes the raw byte.
    const made = new Deno.Command("sh", {
      args: ["-c", `cd '${root}' && : > "$(printf 'a\\377b.ts')" && mkdir "$(printf 'd\\376')"`],
    }).outputSync();
    assert.ok(made.success);
    for (const stat of [true, false]) {
      assert.deepEqual(lines({ root, stat }), [
        "skip unreadable a\uFFFDb.ts (" + NOT_UTF8 + ")",
        "skip unreadable d\uFFFD (" + NOT_UTF8 + ")",
        "file ok.ts",
      ]);
    }
  });
});

Deno.test("walkRoot() passes over a FIFO as special, never opening it", () => {
  withTree({ "a.ts": "" }, (root) => {
    const made = new Deno.Command("mkfifo", { args: [`${root}/pipe`] }).outputSync();
    assert.ok(made.success);
    assert.deepEqual(lines({ root }), ["file a.ts", "skip special pipe (not a regular file)"]);
    assert.deepEqual(lines({ root, stat: false }), [
      "file a.ts",
      "skip special pipe (not a regular file)",
    ]);
  });
});

Deno.test("walkRoot() of a folder inside a git repository applies the ignore files above it, as git does", () => {
  withTree({
    ".gitignore": "*.gen.ts\n/assets/\npkg/sub/stage/\n",
    "pkg/.ignore": "*.snap\n",
    "pkg/sub/a.ts": "a",
    "pkg/sub/x.gen.ts": "x",
    "pkg/sub/assets/d.ts": "d",
    "pkg/sub/stage/b.ts": "b",
    "pkg/sub/t.snap": "t",
  }, (top) => {
    const root = `${top}/pkg/sub`;
    // Not a repository yet: a folder's ignore files above the root are none of its business.
    assert.deepEqual(lines({ root }), [
      "file a.ts",
      "file assets/d.ts",
      "file stage/b.ts",
      "file t.snap",
      "file x.gen.ts",
    ]);
    Deno.mkdirSync(`${top}/.git`);
    assert.deepEqual(lines({ root }), [
      "file a.ts",
      // `/assets/` is the top's own assets folder, not this one's.
      "file assets/d.ts",
      // `pkg/sub/stage/` is read from the top: this folder's stage.
      `skip ignored stage (${top}/.gitignore:3 pkg/sub/stage/)`,
      `skip ignored t.snap (${top}/pkg/.ignore:1 *.snap)`,
      `skip ignored x.gen.ts (${top}/.gitignore:1 *.gen.ts)`,
    ]);
    // The repository's top reads the same files as its own, as before.
    assert.ok(
      lines({ root: top }).includes("skip ignored pkg/sub/x.gen.ts (.gitignore:1 *.gen.ts)"),
    );
  });
});

Deno.test("walkRoot() skips the .git file of a submodule or a worktree, as the .git folder", () => {
  withTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    "a.ts": "a",
    "sub/.git": "gitdir: ../.git/modules/sub\n",
    "sub/b.ts": "b",
  }, (root) => {
    assert.deepEqual(lines({ root }), [
      "skip ignored .git (default: .git)",
      "file a.ts",
      "skip ignored sub/.git (default: .git)",
      "file sub/b.ts",
    ]);
    assert.deepEqual(lines({ root, under: "sub/.git" }), [
      "skip ignored sub/.git (default: .git)",
    ]);
  });
});

Deno.test("walkRoot() reads a submodule with its own .gitignore files alone, as git does", () => {
  const top = Deno.makeTempDirSync({ prefix: "heimdall_walk_" });
  const git = gitIn(top);
  try {
    const lib = `${top}/lib`;
    Deno.mkdirSync(lib);
    Deno.writeTextFileSync(`${lib}/keep.py`, "def keep(): pass\n");
    Deno.writeTextFileSync(`${lib}/table.gen.py`, "def table(): pass\n");
    Deno.writeTextFileSync(`${lib}/.gitignore`, "*.tmp\n");
    git(lib, "init", "-q");
    git(lib, "add", "-A");
    git(lib, "commit", "-qm", "lib");
    const app = `${top}/app`;
    Deno.mkdirSync(app);
    Deno.writeTextFileSync(`${app}/.gitignore`, "*.gen.py\n");
    // Not git's: it applies inside the submodule too, as in ripgrep.
    Deno.writeTextFileSync(`${app}/.ignore`, "*.snap\n");
    Deno.writeTextFileSync(`${app}/main.py`, "def main(): pass\n");
    git(app, "init", "-q");
    git(app, "submodule", "add", "-q", lib, "deps/lib");
    Deno.writeTextFileSync(`${app}/deps/lib/scratch.tmp`, "");
    Deno.writeTextFileSync(`${app}/deps/lib/out.snap`, "");
    // git tracks the generated table in the submodule: the top's *.gen.py is not its rule.
    assert.deepEqual(git(`${app}/deps/lib`, "ls-files").trim().split("\n").sort(), [
      ".gitignore",
      "keep.py",
      "table.gen.py",
    ]);
    const expected = [
      "skip ignored deps/lib/.git (default: .git)",
      "file deps/lib/.gitignore",
      "file deps/lib/keep.py",
      "skip ignored deps/lib/out.snap (.ignore:1 *.snap)",
      "skip ignored deps/lib/scratch.tmp (deps/lib/.gitignore:1 *.tmp)",
      "file deps/lib/table.gen.py",
    ];
    assert.deepEqual(lines({ root: app }).filter((l) => l.includes("deps/lib/")), expected);
    assert.deepEqual(
      lines({ root: app, under: "deps/lib/table.gen.py" }),
      ["file deps/lib/table.gen.py"],
    );
    assert.deepEqual(lines({ root: app, under: "deps" }), expected);
    // The top's own files keep the top's rules.
    Deno.writeTextFileSync(`${app}/x.gen.py`, "");
    assert.ok(lines({ root: app }).includes("skip ignored x.gen.py (.gitignore:1 *.gen.py)"));
  } finally {
    Deno.removeSync(top, { recursive: true });
  }
});

Deno.test("walkRoot() and classifyPath() honour git's info/exclude, below every .gitignore, per repository", () => {
  const top = Deno.makeTempDirSync({ prefix: "heimdall_walk_" });
  const git = gitIn(top);
  const write = (path: string, text = "") => {
    Deno.mkdirSync(dirname(path), { recursive: true });
    Deno.writeTextFileSync(path, text);
  };
  try {
    const lib = `${top}/lib`;
    write(`${lib}/keep.py`, "def keep(): pass\n");
    git(lib, "init", "-q");
    git(lib, "add", "-A");
    git(lib, "commit", "-qm", "lib");
    const app = `${top}/app`;
    write(`${app}/main.py`, "def main(): pass\n");
    write(`${app}/.gitignore`, "!keep.local\n");
    git(app, "init", "-q");
    git(app, "submodule", "add", "-q", lib, "deps/lib");
    write(`${app}/.git/info/exclude`, "# mine\n*.local\n");
    write(`${app}/.git/modules/deps/lib/info/exclude`, "scratch.py\n");
    for (const rel of ["notes.local", "keep.local", "pkg/todo.local", "deps/lib/scratch.py"]) {
      write(`${app}/${rel}`);
    }
    write(`${app}/deps/lib/lib.local`);
    // git's own answer for every file made above: the oracle of this test.
    const untracked = git(app, "status", "--porcelain", "--untracked-files=all", "--ignored");
    assert.match(untracked, /^!! notes\.local$/m);
    assert.match(untracked, /^!! pkg\/todo\.local$/m);
    assert.match(untracked, /^\?\? keep\.local$/m);
    assert.match(git(`${app}/deps/lib`, "status", "--porcelain", "--ignored"), /^!! scratch\.py$/m);
    assert.match(
      git(`${app}/deps/lib`, "status", "--porcelain", "--ignored"),
      /^\?\? lib\.local$/m,
    );

    const walked = lines({ root: app }).filter((l) =>
      !/^(file|skip \w+) (deps\/lib\/)?\.git/.test(l)
    );
    assert.deepEqual(walked, [
      "file deps/lib/keep.py",
      "file deps/lib/lib.local",
      "skip ignored deps/lib/scratch.py (.git/modules/deps/lib/info/exclude:1 scratch.py)",
      "file keep.local",
      "file main.py",
      "skip ignored notes.local (.git/info/exclude:2 *.local)",
      "skip ignored pkg/todo.local (.git/info/exclude:2 *.local)",
    ]);
    assert.deepEqual(lines({ root: app, under: "deps/lib/scratch.py" }), [
      "skip ignored deps/lib/scratch.py (.git/modules/deps/lib/info/exclude:1 scratch.py)",
    ]);
    const cache = new IgnoreCache();
    assert.deepEqual(classifyPath(app, "pkg/todo.local", false, "", cache), {
      ignored: true,
      reason: ".git/info/exclude:2 *.local",
    });
    assert.deepEqual(classifyPath(app, "keep.local", false, "", cache), {
      ignored: false,
      reason: ".gitignore:1 !keep.local",
    });
    assert.equal(classifyPath(app, "deps/lib/lib.local", false, "", cache).ignored, false);
    assert.equal(classifyPath(app, "deps/lib/scratch.py", false, "", cache).ignored, true);
    // A root inside the repository (a package of a monorepo) takes its top's exclude too.
    assert.deepEqual(classifyPath(`${app}/pkg`, "todo.local", false, "", new IgnoreCache()), {
      ignored: true,
      reason: `${app}/.git/info/exclude:2 *.local`,
    });
    assert.deepEqual(lines({ root: `${app}/pkg` }), [
      `skip ignored todo.local (${app}/.git/info/exclude:2 *.local)`,
    ]);
    // A worktree's .git file names a folder whose common folder holds the exclude.
    git(app, "commit", "-qm", "app");
    git(app, "worktree", "add", "-q", `${top}/wt`);
    write(`${top}/wt/scratch.local`);
    assert.match(git(`${top}/wt`, "status", "--porcelain", "--ignored"), /^!! scratch\.local$/m);
    assert.ok(
      lines({ root: `${top}/wt` }).includes(
        `skip ignored scratch.local (${app}/.git/info/exclude:2 *.local)`,
      ),
    );
  } finally {
    Deno.removeSync(top, { recursive: true });
  }
});
