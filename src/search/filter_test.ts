import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../tests/helpers.ts";
import { Journal } from "../store/mod.ts";
import { resolveFilter, SearchFilterError } from "./filter.ts";

function journalWith(languages: string[]): Journal {
  const j = Journal.open(join(tempDir(), "journal.db"));
  j.run("INSERT INTO roots (id, path) VALUES (1, '/r')");
  languages.forEach((lang, i) => {
    j.run(
      `INSERT INTO paths (id, root_id, path, rel, state, size, mtime_ms, language, requested_depth,
         target_depth, effective_depth, generation) VALUES (?, 1, ?, ?, 'indexed', 1, 1, ?, 3, 3, 3, 1)`,
      i + 1,
      `/r/f${i}`,
      `f${i}`,
      lang,
    );
  });
  return j;
}

Deno.test("resolveFilter() takes a language in any case, as the CLI does, and names the indexed ones for an unknown one", () => {
  const j = journalWith(["python", "typescript"]);
  for (const lang of ["python", "Python", "PYTHON"]) {
    assert.equal(resolveFilter(j, { query: "q", lang }).language, "python", lang);
  }
  assert.throws(
    () => resolveFilter(j, { query: "q", lang: "Cobol" }),
    (e: unknown) =>
      e instanceof SearchFilterError && e.message.includes('"Cobol"') &&
      e.message.includes("python, typescript"),
  );
  j.close();
});
