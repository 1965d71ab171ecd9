/**
 * Secrets are never read into the index nor stored in memory text: files are
 * refused by name before they are opened, contents are sniffed before they are
 * indexed, and memory text is redacted on write. Pure; no I/O.
 */

/** How much of a file {@link sniffSecret} looks at: secrets sit near the top of real files. */
export const SNIFF_LIMIT = 256 * 1024;

const ENV_TEMPLATES = new Set(["example", "sample", "template"]);
const SECRET_NAMES = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".pgpass",
  ".htpasswd",
  ".git-credentials",
  "credentials",
  "credentials.json",
  "secrets.yml",
  "secrets.yaml",
  "secrets.json",
  "kubeconfig",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  "id_ecdsa_sk",
  "id_ed25519_sk",
]);
const SECRET_EXTENSIONS = new Set([".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"]);

/**
 * Returns why `rel` (root-relative, `/`-separated) names a secret file, or
 * undefined: `.env*` (not `.env.example`/`.sample`/`.template`), key stores,
 * SSH private keys, credential dotfiles, Terraform state, service-account JSON.
 * Looks at the last two path segments only; cost: one lower-casing and a few lookups.
 */
export function isSecretName(rel: string): string | undefined {
  const slash = rel.lastIndexOf("/");
  const name = rel.slice(slash + 1).toLowerCase();
  if (name === ".env") return "secret file name: .env";
  if (name.startsWith(".env.")) {
    const parts = name.split(".").slice(2);
    return parts.some((p) => ENV_TEMPLATES.has(p)) ? undefined : "secret file name: .env.*";
  }
  if (SECRET_NAMES.has(name)) return `secret file name: ${name}`;
  const dot = name.lastIndexOf(".");
  if (dot > 0 && SECRET_EXTENSIONS.has(name.slice(dot))) {
    return `secret file name: *${name.slice(dot)}`;
  }
  if (name.endsWith(".tfstate") || name.endsWith(".tfstate.backup")) {
    return "secret file name: *.tfstate";
  }
  if (name.startsWith("service-account") && name.endsWith(".json")) {
    return "secret file name: service-account*.json";
  }
  const parent = rel.slice(rel.lastIndexOf("/", slash - 1) + 1, Math.max(slash, 0)).toLowerCase();
  if (parent === ".docker" && name === "config.json") {
    return "secret file name: .docker/config.json";
  }
  if (parent === ".kube" && name === "config") return "secret file name: .kube/config";
  return undefined;
}

/** One secret found in a text: its kind and where it sits (`text.slice(start, end)`). */
export interface SecretFinding {
  kind: string;
  start: number;
  end: number;
}

// Each alternative starts with a fixed prefix so one pass stays linear; a
// group's name is the kind reported and written into `[REDACTED:<kind>]`.
const KINDS = [
  [
    "private_key",
    String
      .raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----\r?\n(?:[A-Za-z-]+:[^\n]*\n)*\s*[A-Za-z0-9+/=]{20,}[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  ],
  ["aws_access_key_id", String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`],
  [
    "github_token",
    String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})\b`,
  ],
  ["slack_token", String.raw`\bxox[baprs]-\d+-[0-9A-Za-z-]{10,}`],
  ["stripe_live_key", String.raw`\b[sr]k_live_[0-9A-Za-z]{20,}`],
  ["google_api_key", String.raw`\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`],
  ["anthropic_key", String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}`],
  [
    "openai_key",
    String
      .raw`\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b`,
  ],
] as const;
const SECRET_RE = new RegExp(KINDS.map(([k, src]) => `(?<${k}>${src})`).join("|"), "g");
const AWS_SECRET_RE = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** How far from an AWS access key id its secret may sit (a credentials block, an env file). */
const AWS_WINDOW = 512;

/**
 * Yields each secret in `text` in order of position: token formats with a
 * fixed prefix, PEM/OpenSSH private key blocks (header plus key material; a
 * public key or certificate is not one), and an AWS access key id only when a
 * 40-character secret key sits within 512 characters (the id alone, or the
 * documented `...EXAMPLE` id, is not). One regex pass over `text`.
 */
export function* findSecrets(text: string): Generator<SecretFinding> {
  let awsSecrets: number[] | undefined; // starts of AWS-secret-looking words, found on first need
  let next = 0;
  for (let pos = 0;;) {
    // The shared regex's lastIndex is restored on every step: callers may interleave generators.
    SECRET_RE.lastIndex = pos;
    const m = SECRET_RE.exec(text);
    if (!m) return;
    pos = SECRET_RE.lastIndex;
    const start = m.index, end = start + m[0].length;
    const kind = KINDS.find(([k]) => m.groups?.[k] !== undefined)?.[0] ?? "secret";
    if (kind !== "aws_access_key_id") {
      yield { kind, start, end };
      continue;
    }
    if (m[0].endsWith("EXAMPLE")) continue;
    awsSecrets ??= awsSecretStarts(text);
    // Ids come in increasing order, so a candidate too far left for this one is for all later ones.
    while (next < awsSecrets.length && awsSecrets[next]! + 40 < start - AWS_WINDOW) next++;
    const near = awsSecrets[next];
    if (near === undefined || near > end + AWS_WINDOW) continue;
    yield { kind, start, end };
    yield { kind: "aws_secret_access_key", start: near, end: near + 40 };
  }
}

function awsSecretStarts(text: string): number[] {
  const starts: number[] = [];
  AWS_SECRET_RE.lastIndex = 0;
  for (let m = AWS_SECRET_RE.exec(text); m; m = AWS_SECRET_RE.exec(text)) {
    const s = m[0];
    if (/[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9/+]/.test(s) && !s.endsWith("EXAMPLEKEY")) {
      starts.push(m.index);
    }
  }
  return starts;
}

/**
 * Returns why `text` holds a secret (`"content: github_token"`), or undefined
 * when it does not; looks at the first {@link SNIFF_LIMIT} characters only, in
 * one pass. Mentions of "password", public keys and certificates do not count.
 */
export function sniffSecret(text: string): string | undefined {
  const head = text.length > SNIFF_LIMIT ? text.slice(0, SNIFF_LIMIT) : text;
  if (!mayHoldSecret(head)) return undefined;
  for (const f of findSecrets(head)) return `content: ${f.kind}`;
  return undefined;
}

/**
 * Literal text that every secret pattern contains. Plain substring searches
 * are far cheaper than the combined regex, and almost every file has none of
 * them, so the regex runs only on the few that do.
 */
const MARKERS = /PRIVATE KEY|A[KS]IA|gh[pousr]_|github_pat_|xox|k_live_|AIza|sk-/;

function mayHoldSecret(text: string): boolean {
  return MARKERS.test(text);
}

/**
 * Returns `text` with every secret {@link findSecrets} reports replaced by
 * `[REDACTED:<kind>]`; text without secrets comes back unchanged (same string).
 * Scans the whole text, not just the first {@link SNIFF_LIMIT} characters.
 */
export function redactSecrets(text: string): string {
  const found = [...findSecrets(text)].sort((a, b) => a.start - b.start);
  if (found.length === 0) return text;
  let out = "";
  let at = 0;
  for (const f of found) {
    if (f.start < at) continue; // overlaps one already redacted
    out += text.slice(at, f.start) + `[REDACTED:${f.kind}]`;
    at = f.end;
  }
  return out + text.slice(at);
}
