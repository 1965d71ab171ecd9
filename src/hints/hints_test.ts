import assert from "node:assert/strict";
import {
  HOOK_PATH_KEYS,
  pathsFromHookJson,
  readHintFiles,
  validateHintPath,
  writeHintFile,
} from "./hints.ts";
import { parsePatch } from "./patch.ts";
import { parseStdin } from "../cli/hint_cmd.ts";

Deno.test("validateHintPath() resolves good paths and names what is wrong with bad ones", () => {
  assert.deepEqual(validateHintPath("src/a.ts", "/repo"), "/repo/src/a.ts");
  assert.deepEqual(validateHintPath("/x/../y/b.py", "/repo"), "/y/b.py");
  const bad: unknown[] = [
    "",
    "   ",
    "a\u0000b",
    "a\nb",
    "\ufffd\ufffd",
    42,
    null,
    "x".repeat(5000),
  ];
  for (const v of bad) assert.deepEqual(typeof validateHintPath(v, "/repo"), "object", String(v));
});

Deno.test("pathsFromHookJson() finds paths in each harness's payload shape", () => {
  const cases: [string, unknown, string[]][] = [
    ["Claude Code PostToolUse Write", {
      hook_event_name: "PostToolUse",
      cwd: "/repo",
      tool_name: "Write",
      tool_input: { file_path: "/repo/src/a.ts", content: "x" },
    }, ["/repo/src/a.ts"]],
    ["Claude Code MultiEdit", { tool_input: { file_path: "b.py", edits: [{ old_string: "a" }] } }, [
      "b.py",
    ]],
    ["Codex apply_patch", {
      tool_input: {
        command: [
          "apply_patch",
          "*** Begin Patch\n*** Update File: src/x.rs\n@@\n*** Add File: src/y.rs\n*** End Patch",
        ],
      },
    }, ["src/x.rs", "src/y.rs"]],
    ["Windsurf post_write_code", {
      agent_action_name: "post_write_code",
      tool_info: { file_path: "/r/c.go" },
    }, [
      "/r/c.go",
    ]],
    ["Kiro fs_write", {
      tool_name: "fs_write",
      tool_input: { path: "/r/d.java", command: "create" },
    }, ["/r/d.java"]],
    ["Cursor afterFileEdit", { hook_event_name: "afterFileEdit", file_path: "/r/e.tsx" }, [
      "/r/e.tsx",
    ]],
    ["no paths at all", { prompt: "hello" }, []],
  ];
  for (const [name, payload, want] of cases) {
    assert.deepEqual(pathsFromHookJson(payload).paths, want, name);
  }
  assert.deepEqual(pathsFromHookJson({ cwd: "/w", file_path: "a" }).cwd, "/w");
});

Deno.test("readHintFiles() returns written hints and drops a foreign garbage file", () => {
  const dir = Deno.makeTempDirSync();
  writeHintFile(dir, ["/r/a.ts", "/r/b.ts"]);
  Deno.writeTextFileSync(`${dir}/999-garbage.hint`, "\u0000\u0001not json");
  Deno.writeTextFileSync(`${dir}/998-wrong.hint`, JSON.stringify({ paths: ["relative/x", "", 7] }));
  const files = readHintFiles(dir);
  const paths = files.flatMap((f) => f.paths);
  const dropped = files.flatMap((f) => f.dropped);
  assert.deepEqual(paths, ["/r/a.ts", "/r/b.ts"]);
  assert.deepEqual(dropped.length, 4);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("hint --stdin and the hook read a payload's paths the same way (one key list, one patch parser)", () => {
  // Gemini CLI names a file `absolute_path`: the hook knew it, hint --stdin did not.
  assert.deepEqual(
    pathsFromHookJson({ tool_input: { absolute_path: "/r/src/a.ts" } }).paths,
    ["/r/src/a.ts"],
  );
  const patch = [
    "*** Begin Patch",
    "*** Update File: src/old.ts",
    "*** Move to: src/new.ts",
    "@@",
    "-a",
    "+b",
    "*** Add File: src/added.ts",
    "+x",
    "*** End Patch",
  ].join("\n");
  const hinted = pathsFromHookJson({ cwd: "/r", tool_input: { command: patch } }).paths;
  const parsed = parsePatch(patch).flatMap((f) => [f.path, ...(f.moveTo ? [f.moveTo] : [])]);
  assert.deepEqual(hinted.sort(), parsed.sort());
  assert.deepEqual(hinted.sort(), ["src/added.ts", "src/new.ts", "src/old.ts"]);
  for (const key of ["absolute_path", "file_path", "filename", "new_path", "old_path"]) {
    assert.ok(HOOK_PATH_KEYS.includes(key), key);
  }
});

Deno.test("hint --stdin says when a payload is broken JSON, and reads a path list starting with [ as lines", () => {
  const broken = parseStdin('{"tool_input": {"file_path": "/r/a.ts"');
  assert.deepEqual(broken.paths, []);
  assert.match(broken.invalidJson ?? "", /JSON/);
  assert.deepEqual(parseStdin("[draft]/notes.md\r\n/r/b.md\n"), {
    paths: ["[draft]/notes.md", "/r/b.md"],
  });
  assert.deepEqual(parseStdin('{"tool_input": {"file_path": "/r/a.ts"}}').paths, ["/r/a.ts"]);
});

Deno.test("writeHintFile() keeps the hints folder bounded when no writer consumes it, losing no path within the limit", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const limits = { files: 20, paths: 1000 };
    // What a dead hint writer left behind, long ago and just now.
    Deno.writeTextFileSync(`${dir}/.1-1-old.hint.tmp`, "{");
    Deno.utimeSync(`${dir}/.1-1-old.hint.tmp`, new Date(0), new Date(0));
    Deno.writeTextFileSync(`${dir}/.2-2-new.hint.tmp`, "{");
    for (let i = 0; i < 100; i++) writeHintFile(dir, [`/r/f${i}.ts`, "/r/same.ts"], limits);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    const hints = names.filter((n) => n.endsWith(".hint"));
    assert.ok(hints.length <= limits.files + 1, `${hints.length} hint files`);
    const paths = readHintFiles(dir).flatMap((f) => f.paths);
    assert.deepEqual(
      new Set(paths),
      new Set([...Array.from({ length: 100 }, (_, i) => `/r/f${i}.ts`), "/r/same.ts"]),
    );
    assert.ok(paths.length < 200, "a path named by many hints is kept once when they merge");
    assert.deepEqual(names.filter((n) => n.endsWith(".tmp")), [".2-2-new.hint.tmp"]);
    // Past the path limit, the newest paths stay.
    for (let i = 100; i < 200; i++) writeHintFile(dir, [`/r/f${i}.ts`], { files: 20, paths: 30 });
    const kept = new Set(readHintFiles(dir).flatMap((f) => f.paths));
    assert.ok(kept.has("/r/f199.ts") && kept.has("/r/f180.ts"), [...kept].join(" "));
    assert.ok(kept.size <= 30 + 20, `${kept.size} paths`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
