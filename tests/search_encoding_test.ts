/**
 * Text the user owns in other encodings than UTF-8 is searchable and
 * verified like any other: a Windows tool's UTF-16 notes and a legacy
 * Latin-1 source file are indexed, found by their words, shown at their own
 * lines and judged STRONG. Real CLI subprocesses, a real journal.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, removeTree, tempDir } from "./helpers.ts";

function utf16le(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + 2 * i] = c & 0xff;
    out[3 + 2 * i] = c >> 8;
  }
  return out;
}

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => {
    const c = ch.charCodeAt(0);
    if (c > 0xff) throw new Error(`not Latin-1: ${ch}`);
    return c;
  });
}

interface Hit {
  path: string;
  line: number;
  end_line: number;
  verdict: string;
  symbol?: string;
}

async function search(home: string, query: string): Promise<Hit[]> {
  const r = await cli(home, ["search", query, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).hits;
}

Deno.test("a UTF-16 notes file and a Latin-1 source file are searchable, at their own lines, STRONG", async () => {
  const base = tempDir();
  const home = join(base, "home");
  const repo = join(base, "repo");
  Deno.mkdirSync(repo, { recursive: true });
  const notes = [
    "Release checklist",
    "",
    "Before tagging, rotate the staging certificates and flush the CDN edge cache.",
    "",
    "Après la publication, vérifier les journaux du répartiteur de charge.",
    "",
  ].join("\r\n");
  Deno.writeFileSync(join(repo, "checklist.txt"), utf16le(notes));
  const source = [
    "#include <string.h>",
    "",
    "/* Déchiffre la clé du coffre à partir de l'entrée. */",
    "int ouvre_coffre(const char *entree) {",
    "  return (int)strlen(entree);",
    "}",
    "",
  ].join("\n");
  Deno.writeFileSync(join(repo, "coffre.c"), latin1(source));
  assert.equal((await cli(home, ["index", repo])).code, 0);

  const [cdn] = await search(home, "rotate staging certificates flush CDN edge cache");
  assert.equal(cdn?.path, join(repo, "checklist.txt"));
  assert.ok(
    cdn!.line <= 3 && cdn!.end_line >= 3,
    `lines ${cdn!.line}-${cdn!.end_line} hold line 3`,
  );
  assert.equal(cdn?.verdict, "STRONG");
  const [fr] = await search(home, "vérifier les journaux du répartiteur de charge");
  assert.equal(fr?.path, join(repo, "checklist.txt"));
  assert.ok(fr!.line <= 5 && fr!.end_line >= 5, `lines ${fr!.line}-${fr!.end_line} hold line 5`);
  assert.equal(fr?.verdict, "STRONG");

  // Its doc comment's words as written, and as typed without their accents.
  for (const query of ["déchiffre la clé du coffre", "dechiffre la cle du coffre"]) {
    const [c] = await search(home, query);
    assert.equal(c?.path, join(repo, "coffre.c"), query);
    assert.equal(c?.symbol, "ouvre_coffre", query);
    assert.equal(c?.verdict, "STRONG", query);
  }
  const symbols = await cli(home, ["symbols", join(repo, "coffre.c")]);
  assert.match(symbols.stdout, /ouvre_coffre/);
  assert.equal((await cli(home, ["verify", "--deep"])).code, 0);
  removeTree(base);
});

Deno.test({
  name: "a hit whose file cannot be read now is WEAK, and says so, not STRONG on its name and doc",
  // Root reads whatever the permissions say.
  ignore: Deno.uid() === 0,
  async fn() {
    const base = tempDir();
    const home = join(base, "home");
    const repo = join(base, "repo");
    Deno.mkdirSync(repo, { recursive: true });
    const file = join(repo, "retry.ts");
    Deno.writeTextFileSync(
      file,
      "/** Retries a request with exponential backoff. */\nexport function retryWithBackoff() {}\n",
    );
    assert.equal((await cli(home, ["index", repo])).code, 0);
    Deno.chmodSync(file, 0o000);
    try {
      const [hit] = await search(home, "retry request exponential backoff");
      assert.equal(hit?.path, file);
      assert.equal(hit?.verdict, "WEAK");
    } finally {
      Deno.chmodSync(file, 0o644);
      removeTree(base);
    }
  },
});
