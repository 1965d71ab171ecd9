/**
 * The warm server's one read connection to the journal: mapped and kept
 * open across requests, so a request starts with the pages the last ones
 * read (on the search bench's journal, in process, 33 ms p50 through a
 * connection opened for each search, 27.5 ms through a held mapped one).
 * Lent to each request and opened again when the
 * journal's path names another file (a rebuild's salvage renamed into
 * place, the journal deleted and indexed again); the old connection is
 * closed once no request holds it.
 */
import { Journal, journalFile } from "../store/mod.ts";

/** A request's use of the connection: `release` once it is done reading (more calls do nothing). */
export interface ReaderLease {
  journal: Journal;
  release(): void;
}

interface Held {
  journal: Journal;
  /** The file it was opened on (`journalFile`), null when that could not be told. */
  file: string | null;
  leases: number;
}

/** One mapped read-only connection to the journal at `path`, lent to requests. */
export class HeldReader {
  readonly #path: string;
  #current: Held | undefined;
  readonly #retired: Held[] = [];
  #closed = false;

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * A lease on the connection to the file the path names now, opened when
   * there is none yet or the file was replaced. Throws as `Journal.open`
   * does (no journal yet, a damaged one), and once closed.
   */
  acquire(): ReaderLease {
    if (this.#closed) throw new Error("the journal reader is closed");
    // Read before the open: a replacement between the two is found by the next request.
    const file = journalFile(this.#path);
    if (this.#current !== undefined && this.#current.file !== file) {
      this.#retired.push(this.#current);
      this.#current = undefined;
      this.#sweep();
    }
    const held = this.#current ??= {
      journal: Journal.open(this.#path, { readOnly: true, mapped: true }),
      file,
      leases: 0,
    };
    held.leases++;
    let released = false;
    return {
      journal: held.journal,
      release: () => {
        if (released) return;
        released = true;
        held.leases--;
        this.#sweep();
      },
    };
  }

  /** Closes every connection, leased or not: the server is stopping and its requests are done. */
  close(): void {
    this.#closed = true;
    for (const h of [...this.#retired.splice(0), ...(this.#current ? [this.#current] : [])]) {
      h.journal.close();
    }
    this.#current = undefined;
  }

  /** Closes the replaced connections no request holds. */
  #sweep(): void {
    for (let i = this.#retired.length - 1; i >= 0; i--) {
      const h = this.#retired[i]!;
      if (h.leases > 0) continue;
      this.#retired.splice(i, 1);
      h.journal.close();
    }
  }
}
