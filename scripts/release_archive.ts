/**
 * Release archives and their checksums, in memory: `heimdall-<version>-<target>.tar.gz`
 * (`.zip` for Windows) holding the one binary, and the `SHA256SUMS` that lists
 * them. Written here rather than by `tar`/`zip` so every runner (Windows too)
 * makes byte-identical archives from the same binary and time.
 */

/** A target `deno compile --target` accepts, and how its release is packed. */
export interface ReleaseTarget {
  /** The binary's name inside the archive. */
  exe: string;
  ext: "tar.gz" | "zip";
}

/** The targets a release is built for. */
export const TARGETS: Readonly<Record<string, ReleaseTarget>> = {
  "x86_64-unknown-linux-gnu": { exe: "heimdall", ext: "tar.gz" },
  "aarch64-unknown-linux-gnu": { exe: "heimdall", ext: "tar.gz" },
  "x86_64-apple-darwin": { exe: "heimdall", ext: "tar.gz" },
  "aarch64-apple-darwin": { exe: "heimdall", ext: "tar.gz" },
  "x86_64-pc-windows-msvc": { exe: "heimdall.exe", ext: "zip" },
};

/** A named file's bytes. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** The archive's file name for a version and target. Throws on an unknown target. */
export function archiveName(version: string, target: string): string {
  return `heimdall-${version}-${target}.${releaseTarget(target).ext}`;
}

/** The packing of a target; throws naming the known targets for any other. */
export function releaseTarget(target: string): ReleaseTarget {
  const t = TARGETS[target];
  if (!t) {
    throw new Error(
      `Unknown target "${target}"; releases are built for ${Object.keys(TARGETS).join(", ")}`,
    );
  }
  return t;
}

/**
 * Packs one binary into its release archive (mode 0755, the given time).
 * Costs one gzip or deflate pass over the binary.
 */
export async function packArchive(
  version: string,
  target: string,
  binary: Uint8Array,
  mtime: Date,
): Promise<NamedBytes> {
  const t = releaseTarget(target);
  const name = archiveName(version, target);
  const entry = { name: t.exe, bytes: binary, mode: 0o755, mtime };
  return { name, bytes: t.ext === "zip" ? await zip([entry]) : await tarGz([entry]) };
}

/** `SHA256SUMS`: one `<hex>  <name>` line per file, sorted by name (sha256sum's format). */
export async function sha256sums(files: readonly NamedBytes[]): Promise<string> {
  const lines = await Promise.all(
    [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(async (f) =>
      `${await sha256Hex(f.bytes)}  ${f.name}`
    ),
  );
  return lines.map((l) => l + "\n").join("");
}

/** The SHA-256 of bytes, in lower-case hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

interface Entry {
  name: string;
  bytes: Uint8Array;
  mode: number;
  mtime: Date;
}

async function compress(bytes: Uint8Array, format: CompressionFormat): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream(format),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A gzip-compressed POSIX ustar archive of regular files. */
export async function tarGz(entries: readonly Entry[]): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const h = new Uint8Array(512);
    const put = (at: number, s: string) => h.set(enc.encode(s), at);
    const octal = (at: number, width: number, n: number) =>
      put(at, n.toString(8).padStart(width - 1, "0") + "\0");
    if (enc.encode(e.name).length > 100) throw new Error(`Name too long for tar: "${e.name}"`);
    put(0, e.name);
    octal(100, 8, e.mode);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, e.bytes.length);
    octal(136, 12, Math.floor(e.mtime.getTime() / 1000));
    put(148, "        ");
    put(156, "0");
    put(257, "ustar\0");
    put(263, "00");
    put(265, "root");
    put(297, "root");
    const sum = h.reduce((n, b) => n + b, 0);
    put(148, sum.toString(8).padStart(6, "0") + "\0 ");
    parts.push(h, e.bytes, new Uint8Array((512 - (e.bytes.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return await compress(concat(parts), "gzip");
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of regular files, deflated, with Unix modes. */
export async function zip(entries: readonly Entry[]): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const data = await compress(e.bytes, "deflate-raw");
    const crc = crc32(e.bytes);
    const d = e.mtime;
    const dosTime = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) |
      (d.getUTCSeconds() >> 1);
    const dosDate = ((Math.max(d.getUTCFullYear(), 1980) - 1980) << 9) |
      ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true); // names are UTF-8
    local.setUint16(8, 8, true); // deflate
    local.setUint16(10, dosTime, true);
    local.setUint16(12, dosDate, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, e.bytes.length, true);
    local.setUint16(26, name.length, true);
    local.setUint16(28, 0, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, (3 << 8) | 20, true); // made on Unix: the mode below counts
    central.setUint16(6, 20, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(10, 8, true);
    central.setUint16(12, dosTime, true);
    central.setUint16(14, dosDate, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, e.bytes.length, true);
    central.setUint16(28, name.length, true);
    central.setUint32(38, ((0o100000 | e.mode) << 16) >>> 0, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + data.length;
  }
  const dir = concat(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, offset, true);
  return concat([...locals, dir, new Uint8Array(end.buffer)]);
}
