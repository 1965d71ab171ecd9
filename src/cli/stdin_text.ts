/** Text a command reads from stdin (`remember -`, `insert --body -`). */
import { UsageError } from "../errors/mod.ts";
import { utf16Bom } from "../files/mod.ts";

/**
 * All of stdin as text: UTF-8, or UTF-16 with its byte order mark. Throws
 * UsageError naming `what` when the bytes are neither (a Latin-1 file, a
 * binary piped by mistake): decoded anyway, each byte it could not read
 * would be kept as U+FFFD in place of what was written.
 */
export async function stdinText(what: string): Promise<string> {
  const bytes = new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
  try {
    return new TextDecoder(utf16Bom(bytes) ?? "utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `${what} read from stdin is not UTF-8 text (a file in another encoding, or binary): each byte that cannot be read would be stored as U+FFFD; convert it first (iconv -f latin1 -t utf-8 FILE)`,
    );
  }
}
