/**
 * The harness payload fixtures (`tests/fixtures/harness/<name>/*.json`), as
 * the harness tests read them: the payload, where it came from, and the
 * event it must normalise to.
 */
import { join } from "node:path";

/** The fixtures' folder (also holds a sample repo and test-runner output). */
export const FIXTURES = new URL("./fixtures/harness/", import.meta.url).pathname;

export interface Fixture {
  description: string;
  /**
   * Where the payload came from: `documented: URL (version)` for a payload
   * written from the harness's documented schema, `captured from HARNESS
   * VERSION` for one a real harness sent.
   */
  source: string;
  payload: Record<string, unknown>;
  expect: {
    kind: string;
    source?: string;
    final?: boolean;
    tool?: { kind: string; paths?: string[]; command?: string };
    outcome?: { ok?: boolean; exitCode?: number };
    test?: { runner: string; outcome: string; failed: string[] };
  };
}

export function fixture(harness: string, name: string): Fixture {
  return JSON.parse(Deno.readTextFileSync(join(FIXTURES, harness, `${name}.json`)));
}

export function fixtureNames(harness: string): string[] {
  return [...Deno.readDirSync(join(FIXTURES, harness))].map((e) => e.name.replace(/\.json$/, ""))
    .sort();
}

/** The payload with `{{repo}}` replaced (as JSON text, so nested strings are covered). */
export function payloadText(f: Fixture, repo: string): string {
  return JSON.stringify(f.payload).replaceAll("{{repo}}", repo);
}
