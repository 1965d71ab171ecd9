/**
 * The documents of the extraction golden cases
 * (`tests/fixtures/extract/<language>/<case>/input.<ext>`), for unit tests
 * that check named parts of the same document: one copy of each sample, so
 * the unit test and the golden case cannot drift apart.
 */
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname!, "fixtures", "extract");

/** The text of golden case `<language>/<name>`'s one `input.*` file; throws when it has none. */
export function goldenInput(language: string, name: string): string {
  const dir = join(FIXTURES, language, name);
  const input = [...Deno.readDirSync(dir)].find((e) => e.name.startsWith("input."));
  if (!input) throw new Error(`No input.* file in "${dir}"; add the golden case's document`);
  return Deno.readTextFileSync(join(dir, input.name));
}
