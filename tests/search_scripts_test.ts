/**
 * Text in any script is searchable by its words: Chinese, Japanese, Korean
 * and Thai by any word inside a sentence (those scripts put no space
 * between words, so each run is indexed as overlapping pairs of
 * characters, at index time and at query time alike), and Hindi by whole
 * words (its vowel signs are combining marks, which cut every word into
 * single letters). Real CLI subprocesses, a real journal; the upgrade case reads
 * a journal whose notes and memories an older build indexed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { cli, removeTree, tempDir, writeTree } from "./helpers.ts";

interface Hit {
  source: string;
  path: string | null;
  line: number | null;
  verdict: string;
}

async function search(home: string, query: string): Promise<Hit[]> {
  const r = await cli(home, ["search", query, "--json"]);
  assert.ok(r.code <= 1, r.stderr);
  return JSON.parse(r.stdout).hits;
}

/** Where each hit points: `path:line` for a file, its source for a note or memory. */
const places = (hits: Hit[], root: string) =>
  hits.map((h) =>
    h.source === "notes" || h.source === "memory"
      ? h.source
      : `${h.path!.slice(root.length + 1)}:${h.line}`
  );

/** Indexes `repo`, then records a Japanese note and a Japanese decision about its file `about`. */
async function indexWithNotes(home: string, repo: string, about: string): Promise<void> {
  for (
    const args of [
      ["index", repo],
      ["insert", "--title", "障害の振り返り", "--body", "接続プールの枯渇が原因でした。"],
      [
        "remember",
        "--kind",
        "decision",
        "--about",
        join(repo, about),
        "署名の検証は定数時間の比較で行う。",
      ],
    ]
  ) {
    const r = await cli(home, args);
    assert.equal(r.code, 0, `${args[0]}: ${r.stderr}`);
  }
}

Deno.test("a word in Japanese, Chinese, Korean, Hindi or Thai finds its file, note and memory, STRONG", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  try {
    writeTree(repo, {
      "docs/auth.md": [
        "# 認証の設計",
        "",
        "ユーザー認証はトークンで行います。セッションの有効期限は三十分です。",
        "",
        "## キャッシュ",
        "",
        "キャッシュは再起動で消えます。",
        "",
      ].join("\n"),
      "docs/cache.md": "# 缓存设计\n\n服务重启后缓存会被清空。会话令牌保存在数据库中。\n",
      "docs/guide.txt":
        "인증 설계\n\n사용자 인증은 토큰으로 합니다. 세션 만료 시간은 삼십 분입니다.\n",
      "docs/library.md": [
        "# पुस्तकालय",
        "",
        "उपयोगकर्ता लॉगिन के बाद किताब उधार ले सकते हैं।",
        "",
        "## भुगतान",
        "",
        "भुगतान विफल होने पर लेनदेन वापस लिया जाता है।",
        "",
      ].join("\n"),
      "docs/thai.md": [
        "# ระบบห้องสมุด",
        "",
        "ผู้ใช้สามารถยืมหนังสือได้หลังจากเข้าสู่ระบบ",
        "",
        "## การชำระเงิน",
        "",
        "เมื่อการชำระเงินล้มเหลว ธุรกรรมจะถูกยกเลิก",
        "",
      ].join("\n"),
      "src/token.ts": [
        "// 署名付きトークンを検証する",
        "export function verifySigned(t: string): boolean {",
        "  return t.length > 0;",
        "}",
        "",
      ].join("\n"),
    });
    await indexWithNotes(home, repo, "src/token.ts");

    // Each asked word stands inside a longer run of its script, never alone.
    const cases: [string, string][] = [
      ["有効期限", "docs/auth.md:1"],
      ["再起動", "docs/auth.md:5"],
      ["会话令牌", "docs/cache.md:1"],
      ["만료 시간", "docs/guide.txt:1"],
      ["किताब उधार", "docs/library.md:1"],
      ["लेनदेन", "docs/library.md:5"],
      ["หนังสือ", "docs/thai.md:1"],
      ["ล้มเหลว", "docs/thai.md:5"],
      ["枯渇", "notes"],
      ["定数時間", "memory"],
    ];
    for (const [query, want] of cases) {
      const hits = await search(home, query);
      assert.equal(places(hits, repo)[0], want, `${query}: ${JSON.stringify(places(hits, repo))}`);
      assert.equal(hits[0]!.verdict, "STRONG", query);
    }
    // A question written in Japanese: its grammar (particles, endings) is not asked for.
    const asked = await search(home, "ユーザー認証のトークンの有効期限はどこで決めていますか？");
    assert.equal(places(asked, repo)[0], "docs/auth.md:1", JSON.stringify(places(asked, repo)));
    assert.equal(asked[0]!.verdict, "STRONG");
    // A comment's words find the function below it.
    const code = await search(home, "トークンを検証");
    assert.equal(places(code, repo)[0], "src/token.ts:2", JSON.stringify(places(code, repo)));
  } finally {
    removeTree(base);
  }
});

Deno.test("notes and memories an older build indexed whole are made searchable by the next writer, once", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  try {
    writeTree(repo, { "a.ts": "export const a = 1;\n" });
    await indexWithNotes(home, repo, "a.ts");
    assert.equal((await search(home, "枯渇")).length, 1);

    // As an older build left them: each run of the script one token, and no version in meta.
    const db = new DatabaseSync(join(home, "journal.db"));
    const loose = db.prepare(
      "SELECT id, title, coalesce(text, '') AS text FROM chunks WHERE source IN ('notes', 'memory')",
    ).all() as { id: number; title: string; text: string }[];
    assert.equal(loose.length, 2);
    for (const c of loose) {
      db.prepare("DELETE FROM chunks_fts WHERE rowid = ?").run(c.id);
      db.prepare("INSERT INTO chunks_fts (rowid, name, body) VALUES (?, ?, ?)").run(
        c.id,
        c.title.toLowerCase(),
        c.text.toLowerCase(),
      );
    }
    db.prepare("DELETE FROM meta WHERE key = 'loose_text_version'").run();
    db.close();
    assert.deepEqual(
      await search(home, "枯渇"),
      [],
      "an older build's note: a word inside is not found",
    );
    assert.deepEqual(await search(home, "定数時間"), []);

    // Any writer brings them to this build's words.
    const r = await cli(home, ["reconcile"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(places(await search(home, "枯渇"), repo), ["notes"]);
    assert.deepEqual(places(await search(home, "定数時間"), repo), ["memory"]);
    const check = new DatabaseSync(join(home, "journal.db"), { readOnly: true });
    const version = check.prepare("SELECT value FROM meta WHERE key = 'loose_text_version'").get();
    check.close();
    assert.ok(
      version !== undefined,
      "the version is recorded: the next writer does not do it again",
    );
  } finally {
    removeTree(base);
  }
});
