/**
 * The README and `docs/` stay inside the repository: every relative link
 * names a file of this tree that exists (and, with `#anchor`, a heading in
 * it), so a clone is the whole documentation. Links to public pages
 * (`http://`, `https://`, `mailto:`) are not followed.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(new URL("..", import.meta.url).pathname);

/** The documentation files: the README and every Markdown file under `docs/`. */
function docFiles(): string[] {
  const files = [join(ROOT, "README.md")];
  for (const entry of Deno.readDirSync(join(ROOT, "docs"))) {
    if (entry.isFile && entry.name.endsWith(".md")) files.push(join(ROOT, "docs", entry.name));
  }
  return files.sort();
}

/** The lines of a Markdown text outside fenced code blocks. */
function proseLines(text: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const m = /^\s*(```+|~~~+)/.exec(line);
    if (m) {
      if (fence === null) fence = m[1]!;
      else if (m[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file's headings give, `-1`, `-2`… for repeats. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every inline link target of a Markdown text, outside code blocks and code spans. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const plain = line.replace(/`[^`]*`/g, "");
    for (const m of plain.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) targets.push(m[1]!);
  }
  return targets;
}

Deno.test("README and docs link only to files of this repository that exist, at headings that exist", () => {
  const problems: string[] = [];
  for (const file of docFiles()) {
    const name = relative(ROOT, file);
    for (const target of linkTargets(Deno.readTextFileSync(file))) {
      if (/^(https?:|mailto:)/.test(target)) continue;
      const [path = "", anchor] = target.split("#", 2);
      const dest = path === "" ? file : resolve(dirname(file), decodeURI(path));
      const inside = relative(ROOT, dest);
      if (inside.startsWith("..") || inside.startsWith("/")) {
        problems.push(`${name}: "${target}" leaves the repository`);
        continue;
      }
      let isFile = false;
      try {
        isFile = Deno.statSync(dest).isFile;
      } catch {
        problems.push(`${name}: "${target}" names "${inside}", which does not exist`);
        continue;
      }
      if (anchor !== undefined && isFile && dest.endsWith(".md")) {
        if (!anchors(Deno.readTextFileSync(dest)).has(anchor)) {
          problems.push(`${name}: "${target}" names no heading of "${inside}"`);
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("slug() gives GitHub's anchors for headings with code, punctuation and repeats", () => {
  assert.equal(slug("Invariants (each one has a test)"), "invariants-each-one-has-a-test");
  assert.equal(
    slug("Search experiments: a learned vocabulary"),
    "search-experiments-a-learned-vocabulary",
  );
  assert.equal(slug("A `heimdall` command from this clone"), "a-heimdall-command-from-this-clone");
  assert.deepEqual([...anchors("# A\n\n## A\n\n```sh\n# not a heading\n```\n")], ["a", "a-1"]);
});

Deno.test("the README and docs/models.md name the default model as the code does", async () => {
  const { DEFAULT_MODEL } = await import("../src/embed/default_model.ts");
  for (const file of ["README.md", "docs/models.md"]) {
    const text = Deno.readTextFileSync(join(ROOT, file));
    assert.ok(text.includes(`\`${DEFAULT_MODEL}\``) || text.includes(` ${DEFAULT_MODEL} `), file);
  }
});
