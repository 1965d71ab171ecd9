/**
 * Secrets are never read into the index nor stored in memory text: files are
 * refused by name before they are opened, contents are sniffed before they are
 * indexed, and memory text is redacted on write. Pure; no I/O.
 */

/**
 * Parts of a `.env.*` name that make it a template committed for others to copy
 * (`.env.example`, Symfony's `.env.dist`), read like any file: screened by content.
 */
const ENV_TEMPLATES = new Set([
  "example",
  "sample",
  "template",
  "dist",
  "default",
  "defaults",
  "tpl",
  "schema",
]);
const SECRET_NAMES = new Set([
  ".npmrc",
  ".pypirc",
  ".netrc",
  "_netrc",
  ".pgpass",
  ".htpasswd",
  ".git-credentials",
  // HashiCorp Vault's token helper file: a bare token, whose older `s.…` form has no marker.
  ".vault-token",
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
const SECRET_EXTENSIONS = new Set([".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk"]);

/**
 * Returns why `rel` (root-relative, `/`-separated) names a secret file, or
 * undefined: `.env*` (not a template: `.env.example`, `.sample`, `.template`,
 * `.dist`, `.default(s)`, `.tpl`, `.schema`), key stores,
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
  /**
   * The kind of secret (`github_token`, `private_key`, `password_assignment`…), as written into
   * `[REDACTED:<kind>]`.
   */
  kind: string;
  /** Where it starts in the text (UTF-16 index). */
  start: number;
  /** Where it ends (exclusive). */
  end: number;
}

/**
 * A newline, raw or escaped inside a string literal (`"…\n…"` in JSON or code),
 * or escaped twice: JSON inside a string (`"{\"private_key\": \"…\\n…\"}"`).
 */
const NL = String.raw`(?:\r?\n|\\{1,2}r\\{1,2}n|\\{1,2}n)`;
/**
 * One blank between a key's lines: a whitespace character or an escaped
 * `\r` or `\n`, each matched one way only (two ways, `\n` as a newline and
 * as a space, made a run of blank lines cost 2^n steps).
 */
const BLANK = String.raw`(?:\s|\\{1,2}[rn])`;

/**
 * An escape whose last character is a letter or digit glued to what follows:
 * `%3D` or `%20` in a URL, `\n` or `\u003d` inside a string literal.
 */
const ESCAPE = String.raw`%[0-9A-Fa-f]{2}|\\(?:[nrt]|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})`;
/**
 * Where a prefix that could end an ordinary word starts (`sk_live_` in
 * `network_live_`, `sk-admin-` in `task-admin-`, `npm_` in `pnpm_`): not
 * right after a letter, unless that letter ends an {@link ESCAPE}. A digit
 * or `_` before it is fine (`%20`, `test_auth_`).
 */
const NOT_IN_WORD = String.raw`(?:(?<![A-Za-z])|(?<=${ESCAPE}))`;
/**
 * Where a short or common prefix starts (`key-`, `SK`, `AKIA`): at the start
 * of a word, or right after an {@link ESCAPE}.
 */
const WORD_START = String.raw`(?:(?<![A-Za-z0-9_])|(?<=${ESCAPE}))`;
/** The end of a token whose body is letters and digits: a `_suffix` or `-suffix` may follow. */
const END = String.raw`(?![A-Za-z0-9])`;

// Each alternative starts with a fixed prefix so one pass stays linear; a
// group's name is the kind reported and written into `[REDACTED:<kind>]`.
// Formats as their issuers document them (and as gitleaks/trufflehog match them).
// Tokens are found glued to what surrounds them (`%20ghp_…`, `"a\nghp_…"`,
// `test_ghp_…_backup`): a prefix with a long mandatory body that no word ends
// in (`ghp_`, `xoxb-1…-`, `AIza`) needs no boundary at all; one an ordinary
// word could end in needs {@link NOT_IN_WORD}; a short or common one,
// {@link WORD_START}.
const KINDS = [
  [
    "private_key",
    String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----${BLANK}+` +
    String.raw`(?:[A-Za-z-]+:[^\n\\]*${NL}${BLANK}*)*[A-Za-z0-9+/=]{20,}` +
    String.raw`[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`,
  ],
  [
    "putty_private_key",
    String
      .raw`PuTTY-User-Key-File-\d: [\s\S]{0,2000}?Private-Lines: *\d+\r?\n[A-Za-z0-9+/=\r\n]{20,}`,
  ],
  // A PEM private key in base64 (`-----BEGIN` is `LS0tLS1CRUdJT`): a Kubernetes TLS secret's
  // `tls.key`, a kubeconfig's `client-key-data`.
  ["encoded_private_key", String.raw`LS0tLS1CRUdJT[A-Za-z0-9+/]{60,}={0,2}`],
  ["age_secret_key", String.raw`AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}`],
  ["aws_access_key_id", String.raw`${WORD_START}(?:AKIA|ASIA)[0-9A-Z]{16}${END}`],
  [
    "github_token",
    String.raw`gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255}`,
  ],
  ["gitlab_token", String.raw`${NOT_IN_WORD}gl(?:pat|dt|rt|ptt|soat|cbt|oas)-[0-9A-Za-z_-]{20,}`],
  [
    "slack_token",
    String.raw`xox[baprse]-\d+-[0-9A-Za-z-]{10,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{20,}`,
  ],
  [
    "slack_webhook",
    String
      .raw`hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,}/[A-Z0-9]{6,}/[A-Za-z0-9]{20,}`,
  ],
  ["discord_webhook", String.raw`discord(?:app)?\.com/api/webhooks/\d{15,}/[\w-]{60,}`],
  ["stripe_live_key", String.raw`${NOT_IN_WORD}[sr]k_live_[0-9A-Za-z]{20,}`],
  ["stripe_webhook_secret", String.raw`whsec_[A-Za-z0-9+/]{32,}`],
  ["google_api_key", String.raw`AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`],
  ["google_oauth_secret", String.raw`GOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])`],
  ["google_oauth_token", String.raw`${NOT_IN_WORD}ya29\.[0-9A-Za-z_-]{30,}`],
  ["anthropic_key", String.raw`${NOT_IN_WORD}sk-ant-[A-Za-z0-9_-]{20,}`],
  [
    "openai_key",
    String
      .raw`${NOT_IN_WORD}sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|${NOT_IN_WORD}sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}${END}`,
  ],
  ["npm_token", String.raw`${NOT_IN_WORD}npm_[A-Za-z0-9]{36}${END}`],
  ["pypi_token", String.raw`pypi-AgE[A-Za-z0-9_-]{50,}`],
  ["huggingface_token", String.raw`${NOT_IN_WORD}hf_[A-Za-z0-9]{34}${END}`],
  ["sendgrid_key", String.raw`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${END}`],
  ["twilio_api_key", String.raw`${WORD_START}SK[0-9a-f]{32}${END}`],
  ["digitalocean_token", String.raw`${NOT_IN_WORD}do[opr]_v1_[a-f0-9]{64}${END}`],
  ["shopify_token", String.raw`${NOT_IN_WORD}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${END}`],
  ["square_token", String.raw`sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}`],
  ["mailgun_key", String.raw`${WORD_START}key-[0-9a-f]{32}${END}`],
  ["databricks_token", String.raw`${WORD_START}dapi[0-9a-f]{32}(?:-\d)?${END}`],
  // A bot token's id is glued to the URL path before it (`/bot123456789:AA…`).
  ["telegram_bot_token", String.raw`(?<![0-9])\d{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])`],
  ["azure_storage_key", String.raw`AccountKey=[A-Za-z0-9+/]{86}==`],
  // An Entra ID (Azure AD) app's client secret: three characters, a digit, `Q~`, then 31-34.
  [
    "azure_ad_client_secret",
    String
      .raw`(?<=(?:(?<![A-Za-z0-9_~.-])|(?<=${ESCAPE}))(?<azure_ad_client_secret_head>[A-Za-z0-9_~.]{3}\d))` +
    String.raw`Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
  ],
  [
    "grafana_token",
    String
      .raw`${NOT_IN_WORD}glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${END}|${NOT_IN_WORD}glc_[A-Za-z0-9+/]{32,400}={0,3}(?![A-Za-z0-9+/=])`,
  ],
  ["linear_key", String.raw`${NOT_IN_WORD}lin_(?:api_[A-Za-z0-9]{40}|oauth_[a-f0-9]{64})${END}`],
  [
    "doppler_token",
    String
      .raw`${NOT_IN_WORD}dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,64}\.)?[A-Za-z0-9]{40,44}${END}`,
  ],
  [
    "vault_token",
    String
      .raw`${NOT_IN_WORD}hvs\.[\w-]{90,120}(?![\w-])|${NOT_IN_WORD}hvb\.[\w-]{138,300}(?![\w-])`,
  ],
  [
    "dockerhub_token",
    String.raw`${NOT_IN_WORD}dckr_(?:pat|oat)_[A-Za-z0-9_-]{27}(?![A-Za-z0-9_-])`,
  ],
  [
    "sentry_token",
    String
      .raw`${NOT_IN_WORD}sntrys_eyJpYXQiO[A-Za-z0-9+/=_-]{50,}|${NOT_IN_WORD}sntryu_[a-f0-9]{64}${END}`,
  ],
  ["atlassian_token", String.raw`ATATT3[A-Za-z0-9_=-]{150,}`],
  ["postman_key", String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}${END}`],
  ["newrelic_key", String.raw`${WORD_START}NRAK-[A-Z0-9]{27}${END}`],
  ["supabase_token", String.raw`${NOT_IN_WORD}sbp_[a-f0-9]{40}${END}`],
  [
    "tailscale_key",
    String
      .raw`${NOT_IN_WORD}tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}${END}`,
  ],
  ["groq_key", String.raw`${NOT_IN_WORD}gsk_[A-Za-z0-9]{52}${END}`],
  ["xai_key", String.raw`${NOT_IN_WORD}xai-[A-Za-z0-9]{80}${END}`],
  ["pulumi_token", String.raw`${NOT_IN_WORD}pul-[a-f0-9]{40}${END}`],
  [
    "terraform_token",
    String.raw`(?<=${WORD_START}(?<terraform_token_head>[A-Za-z0-9]{14}))` +
    String.raw`\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])`,
  ],
  ["rubygems_key", String.raw`${NOT_IN_WORD}rubygems_[a-f0-9]{48}${END}`],
  ["heroku_key", String.raw`HRKU-AA[0-9A-Za-z_-]{58}(?![0-9A-Za-z_-])`],
  [
    "planetscale_token",
    String.raw`${NOT_IN_WORD}pscale_(?:tkn|pw|oauth)_[A-Za-z0-9=._-]{32,64}(?![A-Za-z0-9=._-])`,
  ],
  ["replicate_token", String.raw`${WORD_START}r8_[A-Za-z0-9]{37}${END}`],
  ["notion_token", String.raw`${NOT_IN_WORD}ntn_[0-9]{11}[A-Za-z0-9]{35}${END}`],
  ["sourcegraph_token", String.raw`${NOT_IN_WORD}sgp_(?:[a-f0-9]{16}|local)_[a-f0-9]{40}${END}`],
  ["flyio_token", String.raw`${WORD_START}fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}`],
  ["mapbox_secret_token", String.raw`${WORD_START}sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`],
  ["openrouter_key", String.raw`${NOT_IN_WORD}sk-or-v1-[a-f0-9]{64}${END}`],
  ["onepassword_token", String.raw`${NOT_IN_WORD}ops_eyJ[A-Za-z0-9+/]{250,}={0,3}`],
  ["buildkite_token", String.raw`${NOT_IN_WORD}bkua_[a-f0-9]{40}${END}`],
  ["circleci_token", String.raw`CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}${END}`],
  ["contentful_token", String.raw`CFPAT-[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`],
  ["prefect_key", String.raw`${NOT_IN_WORD}pnu_[A-Za-z0-9]{36}${END}`],
  [
    "mailchimp_key",
    String.raw`(?<=${WORD_START}(?<mailchimp_key_head>[0-9a-f]{32}))-us\d{1,2}${END}`,
  ],
  ["jwt", String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}`],
] as const;
const SECRET_RE = new RegExp(KINDS.map(([k, src]) => `(?<${k}>${src})`).join("|"), "g");

/**
 * Literal text that every fixed-format pattern contains. Almost every file
 * has none, so the combined regex runs only on the few that do. Each marker
 * regex stops only at a few characters and looks around them: irregexp
 * scans for one character class far faster than for 30 alternatives, and
 * lower-case letters (`eyJ`, `dapi`) as first characters would stop it
 * everywhere. Databricks' `dapi…` has no marker of its own: it is found
 * when another marker is present, or as a `token = …` assignment.
 */
const MARKERS = [
  /[-_](?:(?<=KEY-|KEY BLOCK-|PuTTY-|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|soat|cbt|oas)-|xox[baprse]-|xapp-|k_live_|whsec_|GOCSPX-|sk-|npm_|pypi-|hf_|_v1_|shp(?:at|ca|pa|ss)_|sq0(?:atp|csp)-|key-|gl(?:sa|c)_|lin_(?=api_|oauth_)|dckr_|sntry[su]_|PMAK-|NRAK-|sbp_|tskey-|gsk_|xai-|pul-|rubygems_|HRKU-|pscale_|r8_|ntn_|sgp_|fm[12][ar]?_|ops_(?=eyJ)|bkua_|CCIPAT_|CFPAT-|pnu_)|(?<=[0-9a-f]-)(?=us\d))/,
  /A(?:[KS]IA|Iza|ccountKey=|TATT3)|S(?:K[0-9a-f]|G\.)|LS0tLS1CRUdJT|Q~(?<=\dQ~)/,
  /[.:/](?:(?<=ya29\.|slack\.com\/|webhooks\/|dp\.(?:pt|st|sa|ct|scim|audit)\.|hv[sb]\.|\.atlasv1\.)|(?<=\d:)(?=AA)|(?<=\.)(?=eyJ))/,
];

/** Kinds whose match needs a second look before it counts. */
const CHECKS: Record<string, (s: string) => boolean> = {
  // A fine-grained token's 82 random characters hold a digit and a capital; a snake_case name
  // (`github_pat_environment_variable`) holds neither.
  github_token: (s) => !s.startsWith("github_pat_") || (/[0-9]/.test(s) && /[A-Z]/.test(s)),
  huggingface_token: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s.slice(3)),
  twilio_api_key: (s) => /[a-f]/.test(s) && /[0-9]/.test(s.slice(2)),
  mailgun_key: (s) => /[a-f]/.test(s.slice(4)) && /[0-9]/.test(s.slice(4)),
  databricks_token: (s) => /[a-f]/.test(s.slice(4)) && /[0-9]/.test(s.slice(4)),
  jwt: isRealJwt,
  azure_ad_client_secret: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s.slice(6)),
  grafana_token: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s.slice(4)) && /[0-9]/.test(s),
  replicate_token: (s) => /[A-Z]/.test(s) && /[a-z]/.test(s.slice(3)) && /[0-9]/.test(s.slice(3)),
  prefect_key: (s) => /[A-Z]/.test(s) && /[0-9]/.test(s),
  groq_key: (s) => /[A-Z]/.test(s) && /[0-9]/.test(s),
  mailchimp_key: (s) => /[a-f]/.test(s.slice(0, 32)) && /[0-9]/.test(s.slice(0, 32)),
  encoded_private_key: (s) => {
    try {
      // Its first 300 bytes: the header and the start of the key, whole base64 quads.
      const head = atob(s.slice(0, Math.min(s.length, 400) & ~3));
      return /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----\s+[A-Za-z0-9+/=]{20,}/.test(
        head,
      );
    } catch {
      return false;
    }
  },
};

/**
 * A JWT counts when its header and payload decode to JSON objects, the header
 * names an `alg`, and the payload is not the jwt.io documentation example
 * (`"sub": "1234567890"`), which fills READMEs and test fixtures.
 */
function isRealJwt(s: string): boolean {
  const [h, p] = s.split(".");
  const header = decodeJson(h!), payload = decodeJson(p!);
  if (!header || !payload || typeof header.alg !== "string") return false;
  return payload.sub !== "1234567890";
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const b64 = part.replace(/-/g, "+").replace(/_/g, "/");
    const v = JSON.parse(atob(b64 + "===".slice((b64.length + 3) % 4)));
    return typeof v === "object" && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

const AWS_SECRET_RE = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** How far from an AWS access key id its secret may sit (a credentials block, an env file). */
const AWS_WINDOW = 512;

/**
 * Yields each secret in `text` in order of position:
 * - token formats with a fixed prefix (GitHub, GitLab, Slack, Stripe, Google,
 *   OpenAI, Anthropic, npm, PyPI, Hugging Face, SendGrid, Twilio,
 *   DigitalOcean, Shopify, Square, Mailgun, Databricks, Telegram, Azure
 *   storage and Entra ID client secrets, Slack and Discord webhooks,
 *   Grafana, Linear, Doppler, HashiCorp Vault, Docker Hub, Sentry,
 *   Atlassian, Postman, New Relic, Supabase, Tailscale, Groq, xAI, Pulumi,
 *   Terraform Cloud, RubyGems, Heroku, PlanetScale, Replicate, Notion,
 *   Sourcegraph, Fly.io, Mapbox, OpenRouter, 1Password, Buildkite, CircleCI,
 *   Contentful, Prefect, Mailchimp), signed JWTs (not the jwt.io example),
 *   also glued to what surrounds them (`%20ghp_…` in a URL, `\nghp_…` in a
 *   string literal, `test_ghp_…_old`); a prefix that ends an ordinary word
 *   (`network_live_…`, `pnpm_…`) is none, nor is a stand-in with one letter
 *   or digit eight times in a row (`ghp_xxxx…`, `sk_live_0000…`);
 * - PEM/OpenSSH/PGP/PuTTY private key blocks, raw or with `\n` escapes inside
 *   a string (a GCP service-account `"private_key"`), or a PEM key in base64
 *   (a Kubernetes secret's `tls.key`, a kubeconfig's `client-key-data`); a
 *   public key or certificate is not one;
 * - an AWS access key id only when a 40-character secret key sits within 512
 *   characters (the id alone, or the documented `...EXAMPLE` id, is not);
 * - a password in a URL (`scheme://user:pass@host`), only the password;
 * - a literal assigned to a secret-like name (see {@link findAssigned}),
 *   given one in XML (see {@link findMarkup}) or handed to a setter named
 *   so (see {@link findSetters}), only the value;
 * - a credential handed to a request or a command: an `Authorization`
 *   header's token (`Bearer …`, GitHub's older `token …`) or `Basic` user
 *   and password, curl's `-u user:pass`, `--password P`, `mysql -pP`, `sshpass -p P` (see
 *   {@link findGiven}), only the credential.
 * A few regex passes over `text`; cost grows linearly with its length.
 */
export function* findSecrets(text: string): Generator<SecretFinding> {
  const found: (SecretFinding & { rank: number })[] = [];
  if (MARKERS.some((m) => m.test(text))) {
    for (const f of findFixed(text)) found.push({ ...f, rank: 0 });
  }
  for (const f of findAssigned(text)) found.push({ ...f, rank: f.kind === "url_password" ? 1 : 2 });
  for (const f of findGiven(text)) found.push({ ...f, rank: 2 });
  for (const f of findMarkup(text)) found.push({ ...f, rank: 2 });
  for (const f of findSetters(text)) found.push({ ...f, rank: 2 });
  found.sort((a, b) => a.start - b.start || a.rank - b.rank || b.end - a.end);
  for (const { kind, start, end } of found) yield { kind, start, end };
}

/**
 * One letter or digit eight times in a row in a token's last part (after its
 * last `-`, `_`, `.`, `/` or `:`): a stand-in written in docs and examples
 * (`ghp_xxxx…`, `glpat-xxxx…`, `xoxb-…-xxxx…`), never a random token (below
 * one chance in a million for a base-62 one). Only the last part: a number
 * before it (a Slack team id, `xoxb-1000000000-…`) is an id, not a stand-in.
 */
const PLACEHOLDER_RUN = /([A-Za-z0-9])\1{7}[A-Za-z0-9]*$/;
/** Kinds whose body is encoded key material, where a run of one character is real (`AAAA…`). */
const KEY_MATERIAL = new Set(["private_key", "encoded_private_key", "putty_private_key", "jwt"]);

function* findFixed(text: string): Generator<SecretFinding> {
  let awsSecrets: number[] | undefined; // starts of AWS-secret-looking words, found on first need
  let next = 0;
  for (let pos = 0;;) {
    // The shared regex's lastIndex is restored on every step: callers may interleave generators.
    SECRET_RE.lastIndex = pos;
    const m = SECRET_RE.exec(text);
    if (!m) return;
    pos = SECRET_RE.lastIndex;
    const kind = KINDS.find(([k]) => m.groups?.[k] !== undefined)?.[0] ?? "secret";
    // A token whose literal sits in its middle is matched from there: its head is looked behind.
    const start = m.index - (m.groups?.[kind + "_head"]?.length ?? 0);
    const end = m.index + m[0].length;
    const token = text.slice(start, end);
    if (!KEY_MATERIAL.has(kind) && PLACEHOLDER_RUN.test(token)) {
      pos = m.index + 1; // a stand-in (`ghp_xxxx…`) may hide a real token inside it
      continue;
    }
    if (kind !== "aws_access_key_id") {
      if (CHECKS[kind]?.(token) === false) {
        pos = m.index + 1; // a rejected match may hide a real one inside it
        continue;
      }
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

// scheme://user:password@host — the password ends at the last "@" before the host.
const URL_RE = /:\/\/([^\s:@/?#'"`<>()[\]{}\\]{0,128}):([^\s/?#'"`<>()[\]{}\\]{1,256})@(?=[\w[])/y;

/**
 * Passwords in URLs (`postgres://app:PASSWORD@db/x` with a real one): the span is the password
 * alone. Not counted: a placeholder (`password`, `pass`, `secret`, `changeme`,
 * `xxx`, `***`, anything containing `pass`, `example`, `your`, `test` or
 * `placeholder`, GitHub's `x-oauth-basic`), a reference (`$PASS`, `${PASS}`,
 * `{{pass}}`, `<pass>`, `%s`), an environment-variable name (`API_KEY`), a
 * password equal to the user name (`postgres:postgres@localhost`, a local
 * default), one shorter than 6 characters once percent-decoded (`foo:bar@`,
 * the usual example), a port-like number (`host:8080@`), and a CVS root's
 * method and user (`cvs://:pserver:anoncvs@host`, in GNU copyright files).
 */
function urlPasswordAt(text: string, at: number): SecretFinding | undefined {
  URL_RE.lastIndex = at;
  const m = URL_RE.exec(text);
  if (!m) return undefined;
  const user = m[1]!, pass = m[2]!;
  // "user:p@ss@host": the host follows the last "@"; the match ends there.
  let plain = pass;
  try {
    plain = decodeURIComponent(pass);
  } catch { /* not percent-encoded */ }
  if (plain.length < 6 || /^\d{1,5}$/.test(plain) || /^[A-Z][A-Z0-9_]*$/.test(plain)) return;
  if (isPlaceholder(plain) || /pass|pwd|oauth-basic/i.test(plain) || plain === user) return;
  // A CVS root written after a scheme (`cvs://:pserver:anoncvs@host:/cvs`): a method and a user.
  if (user === "" && /^(?:pserver|gserver|kserver|ext|extssh|server|ssh|fork):[^:]+$/.test(plain)) {
    return;
  }
  const start = at + 3 + user.length + 1;
  return { kind: "url_password", start, end: start + pass.length };
}

/** Words that make a value a stand-in, not a secret (compared lower-case, letters and digits only). */
const PLACEHOLDER_WORDS =
  /password|passwd|changeme|example|placeholder|your|redacted|dummy|sample|fake|mock|test|secret|token|insert|replace|xxxx|todo|\.\.\.|foobar|hunter2$/;

/**
 * Credentials the OAuth 2.0 RFCs (6749, 6750) print as examples, which fill
 * every OAuth library's docstrings and tests: the client `s6BhdRkqt3` and
 * its secret `gX1fBat3bV` (`Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW`), the access
 * token, refresh token and code, and RFC 6750's bearer token.
 */
const DOCUMENTED_EXAMPLES = new Set([
  "s6BhdRkqt3",
  "gX1fBat3bV",
  "2YotnFZFEjr1zCsicMWpAA",
  "tGzv3JOkF0XG5Qx2TlKWIA",
  "SplxlOBeZQQYbYS6WxSbIA",
  "mF_9.B5f-4.1JqM",
]);

/** True for a stand-in value: a reference, a template, a placeholder or a masked value. */
function isPlaceholder(v: string): boolean {
  // As a URL's query holds one: `#access_token=2Yot…&state=xyz`.
  if (DOCUMENTED_EXAMPLES.has(v.split("&", 1)[0]!)) return true;
  if (
    /^[$%{<[@!&*]|\$\{|\{\{|%\(|\$\(|#\{|process\.env|environ|getenv|ENV\[|^ENC\[|^vault:/i.test(v)
  ) {
    return true;
  }
  if (/^(.)\1*$/.test(v) || /^(?:pass|pwd|pw|none|null|nil|true|false|undefined|empty)$/i.test(v)) {
    return true;
  }
  return PLACEHOLDER_WORDS.test(v.toLowerCase());
}

// One pass for both contextual rules, stopping only at `=` and `:` and
// looking around them (a third of the cost of scanning for the words): a
// URL's `://` (its password is read by URL_RE from there), or an assignment
// (`=`, `:`, `:=`, `=>`) right after a secret-like word and maybe a closing
// quote or bracket, or a `,` between a quoted name and a quoted value (a
// call's arguments: PHP's `define('DB_PASSWORD', '…')`).
const ASSIGN_RE =
  /:(?=\/\/)|(?<=(pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?|auth)(\\?["'`]?\]?)([ \t]*))(?::=|=>|=(?!=)|:(?![:=])|,(?=[ \t]*["'`]))/gi;
// The value after the operator: quoted (escapes kept as written, a Python prefix allowed:
// `b'…'`, `r"…"`), quoted with escaped quotes (`\"…\"`, code inside a JSON string: a
// notebook's cell, a log line), or bare up to a space or separator.
const VALUE_RE =
  /[ \t]*(?:[bBrRuUfF]{0,2}(?:"((?:[^"\n\\]|\\[^\n]){1,512})"|'((?:[^'\n\\]|\\[^\n]){1,512})')|`([^`\n\\]{1,512})`|\\"([^"\n\\]{1,512})\\"|([^\s"'`,;)}\]]{1,512}))/y;

/** Last words of a name that hold a password: a literal of 8+ characters counts. */
const PASSWORD_WORDS = new Set(["password", "passwd", "pwd", "passphrase", "pass", "secret"]);
/** Last words that hold a token or key: only a high-entropy literal counts. */
const TOKEN_WORDS = new Set(["token", "credential", "credentials", "auth"]);
/** A word before `key` that makes it a secret's name (`api_key`, `secretKey`, `AccountKey`). */
const KEY_QUALIFIERS = new Set([
  "api",
  "secret",
  "access",
  "private",
  "auth",
  "signing",
  "master",
  "encryption",
  "client",
  "app",
  "account",
  "license",
  "service",
  "admin",
  "session",
  "hmac",
]);

/**
 * Literals assigned to secret-like names, in any language or config format
 * (`password = "…"`, `passwd: …`, `"secret": "…"`, `api_key := "…"`,
 * `AWS_SECRET_ACCESS_KEY=…`, `:token => '…'`, a call's quoted name and value:
 * `define('DB_PASSWORD', '…')`), its string with escapes in it, a Python
 * prefix (`b'…'`, `r"…"`) or escaped quotes (`\"…\"`: code inside a JSON
 * string, as a notebook's cell is); the span is the value alone.
 * The name's last word decides (`db_password`, `clientSecret`, `apiKey`; not
 * `password_label`, `tokenizer`, `monkey`):
 * - password, passwd, pwd, passphrase, pass, secret: a literal of at least 8
 *   characters with no space, holding a letter and a digit or symbol (16+
 *   characters need neither);
 * - token, credential(s), auth, and key after a qualifier (api, secret,
 *   access, private, client, …): a literal of at least 20 characters from a
 *   token alphabet, with letters and digits and at least 3.5 bits of entropy
 *   per character (hashes of 32+ hex digits: 3.0), or a key of 32+
 *   characters with punctuation too (Django's `SECRET_KEY`, WordPress's
 *   salts) at 4.5; never an Ethereum address (`0x` and 40 hex digits, a
 *   token contract's, public), though a 64-digit private key counts.
 * Never counted: references and templates (`$X`, `${X}`, `{{x}}`,
 * `process.env.X`, `%(x)s`), calls and dotted names (`getPass()`,
 * `args.password`), environment-variable names (`DB_PASSWORD`), paths and
 * URLs, and placeholders (`changeme`, `your-…`, `example`, `xxxx`, `***`, and
 * any value containing `test`, `fake`, `dummy`, `secret` or `password`).
 */
function* findAssigned(text: string): Generator<SecretFinding> {
  ASSIGN_RE.lastIndex = 0;
  for (let m = ASSIGN_RE.exec(text); m; m = ASSIGN_RE.exec(text)) {
    if (m[1] === undefined) {
      const url = urlPasswordAt(text, m.index);
      if (url) yield url;
      continue;
    }
    const word = m[1];
    // `define('DB_PASSWORD', '…')`, `setdefault("SECRET_KEY", "…")`: a quoted name, then its value.
    const pair = m[0] === ",";
    if (pair && !/^["'`]$/.test(m[2]!)) continue;
    const wordAt = m.index - m[3]!.length - m[2]!.length - word.length;
    if (pair && !opensCall(text, wordAt, m[2]!)) continue;
    const tier = nameTier(text, wordAt, word);
    if (tier === undefined) continue;
    VALUE_RE.lastIndex = m.index + m[0].length;
    const v = VALUE_RE.exec(text);
    if (!v) continue;
    const quoted = v[1] ?? v[2] ?? v[3] ?? v[4];
    const value = quoted ?? v[5]!;
    // Bare values in code are usually names: `password = password2` is not a literal.
    if (quoted === undefined && (pair || !bareLiteral(value, m[0]))) continue;
    const plain = value.includes("\\") ? unescaped(value) : value;
    if (!(tier === "password" ? passwordLike(plain) : tokenLike(plain))) continue;
    const kind = tier === "password"
      ? "password_assignment"
      : awsName(text, wordAt, word)
      ? "aws_secret_access_key"
      : "secret_assignment";
    const end = VALUE_RE.lastIndex - (quoted === undefined ? 0 : v[4] === undefined ? 1 : 2);
    yield { kind, start: end - value.length, end };
  }
}

/** A string literal's text as it reads once its escapes are applied (`\u2022` → `•`, `\n` → a newline). */
function unescaped(v: string): string {
  return v.replace(
    /\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))/g,
    (_, u: string | undefined, x: string | undefined, c: string) =>
      u !== undefined || x !== undefined
        ? String.fromCharCode(parseInt(u ?? x!, 16))
        : ({ n: "\n", r: "\r", t: "\t" } as Record<string, string>)[c] ?? c,
  );
}

/**
 * Credentials handed over in a command or a request, found by the word
 * before them: an `Authorization` header's `Bearer` token (a JWT is a
 * `jwt` of its own) and `Basic` user and password (base64 of `user:pass`),
 * and an `Authorization` header's `token` (GitHub's older scheme, `token`
 * and 40 hex digits; Django REST framework's `Token`),
 * and curl's `-u user:pass` (`--user`); a command's option named like a
 * secret and its value (`--password P`, `--api-key K`, not `--password-stdin`)
 * and MySQL's `-pPASSWORD`, sshpass's `-p PASSWORD`. A token counts as one assigned to a
 * token's name does, a password as a URL's (see {@link urlPasswordAt}):
 * placeholders (`Bearer YOUR_TOKEN`, `Basic dXNlcjpwYXNzd29yZA==`, `-u
 * "$USER:$TOKEN"`) and a user and group (`docker run -u 1000:1000`, `-u
 * node:node`) never do. The span is the credential alone.
 */
function* findGiven(text: string): Generator<SecretFinding> {
  if (!/[Bb]earer|Basic|-[-pu]|[Aa]uthorization|AUTHORIZATION/.test(text)) return;
  GIVEN_RE.lastIndex = 0;
  for (let m = GIVEN_RE.exec(text); m; m = GIVEN_RE.exec(text)) {
    if (m[6] !== undefined) {
      // `Authorization: token …`, GitHub's older scheme (and Django REST framework's `Token`).
      const start = m.index + m[0].length;
      TOKEN_RE.lastIndex = start;
      const t = TOKEN_RE.exec(text)?.[0];
      if (t === undefined) continue;
      const value = t.replace(/\.+$/, "");
      if (tokenLike(value)) yield { kind: "authorization_token", start, end: start + value.length };
      continue;
    }
    if (m.index > 0 && /[\w-]/.test(text[m.index - 1]!)) continue;
    if (m[5] !== undefined) {
      // MySQL's `-p` is glued to the password (`-p NAME` names a database); sshpass's may not be.
      const before = text.slice(Math.max(0, m.index - 220), m.index);
      if (!SSHPASS_BEFORE.test(before) && (m[0].length > 2 || !MYSQL_BEFORE.test(before))) continue;
    }
    const start = m.index + m[0].length;
    if (m[1] !== undefined) {
      TOKEN_RE.lastIndex = start;
      const t = TOKEN_RE.exec(text)?.[0];
      if (t === undefined || t.startsWith("eyJ")) continue;
      const value = t.replace(/\.+$/, "");
      if (tokenLike(value)) yield { kind: "bearer_token", start, end: start + value.length };
    } else if (m[2] !== undefined) {
      BASIC_RE.lastIndex = start;
      const b = BASIC_RE.exec(text)?.[0];
      if (b === undefined) continue;
      let plain: string;
      try {
        plain = new TextDecoder("utf-8", { fatal: true }).decode(
          Uint8Array.from(atob(b), (c) => c.charCodeAt(0)),
        );
      } catch {
        continue;
      }
      const colon = plain.indexOf(":");
      if (colon < 1 || /\p{Cc}/u.test(plain)) continue;
      if (!givenPassword(plain.slice(0, colon), plain.slice(colon + 1))) continue;
      yield { kind: "basic_auth", start, end: start + b.length };
    } else if (m[3] !== undefined || m[5] !== undefined) {
      // `--password VALUE`, `--api-key VALUE`; `mysql -pVALUE`, `sshpass -p VALUE`.
      const tier = m[5] !== undefined
        ? "password"
        : nameTier(text, m.index + m[3]!.length - m[4]!.length, m[4]!);
      if (tier === undefined || /^--no-/i.test(m[0])) continue;
      ARG_RE.lastIndex = start;
      const a = ARG_RE.exec(text);
      const value = a?.[1] ?? a?.[2] ?? a?.[3];
      if (a === null || value === undefined || value.startsWith("-")) continue;
      if (!(tier === "password" ? passwordLike(value) : tokenLike(value))) continue;
      const at = start + (a[3] === undefined ? 1 : 0);
      const kind = tier === "password" ? "password_assignment" : "secret_assignment";
      yield { kind, start: at, end: at + value.length };
    } else {
      USER_RE.lastIndex = start;
      const u = USER_RE.exec(text);
      if (!u || !givenPassword(u[2]!, u[3]!)) continue;
      const at = start + u[1]!.length + u[2]!.length + 1;
      yield { kind: "password_assignment", start: at, end: at + u[3]!.length };
    }
  }
}

/** A command's argument: quoted, or bare up to a space or a shell operator. */
const ARG_RE = /"([^"\n\\$`]{1,512})"|'([^'\n]{1,512})'|([^\s"'`;|&<>()]{1,512})/y;

/**
 * A setter named like a secret called with a quoted literal, as Java and C#
 * configure a client (`dataSource.setPassword("…")`, Testcontainers'
 * `.withPassword("…")`, `set_api_key('…')`): its name ends in a secret's
 * word, in camelCase or snake_case, right before `(`.
 */
const SETTER_RE =
  /\b(?:set|with)(?:_?[A-Za-z0-9]{0,32}?)?(?:_|(?<=[a-z0-9]))(Pass(?:word|wd|phrase)?|pass(?:word|wd|phrase)?|Pwd|pwd|Secret|secret|Token|token|Key|key|Credentials?|credentials?|Auth|auth)\([ \t]*(["'`])([^"'`\n\\]{1,512})\2[ \t]*\)/g;

/**
 * Literals handed to a setter named like a secret (see {@link SETTER_RE}),
 * counted as {@link findAssigned} counts a literal assigned to that name
 * (`withPassword("test")` never). The span is the value alone.
 */
function* findSetters(text: string): Generator<SecretFinding> {
  if (
    !/(?:[Pp]ass(?:word|wd|phrase)?|[Pp]wd|[Ss]ecret|[Tt]oken|[Kk]ey|[Cc]redentials?|[Aa]uth)\([ \t]*["'`]/
      .test(text)
  ) return;
  SETTER_RE.lastIndex = 0;
  for (let m = SETTER_RE.exec(text); m; m = SETTER_RE.exec(text)) {
    const word = m[1]!;
    const wordAt = m.index + m[0].indexOf(word + "(");
    const tier = nameTier(text, wordAt, word);
    const value = m[3]!;
    if (tier === undefined) continue;
    if (!(tier === "password" ? passwordLike(value) : tokenLike(value))) continue;
    const start = m.index + m[0].lastIndexOf(m[2]! + value) + 1;
    yield {
      kind: tier === "password" ? "password_assignment" : "secret_assignment",
      start,
      end: start + value.length,
    };
  }
}

/** A secret-like name: its last word is one {@link nameTier} may count. */
const SECRET_WORD = String.raw`pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?|auth`;
/** `<password>…</password>`: an element named like a secret holding one line of text. */
const ELEMENT_RE = new RegExp(
  String.raw`<([\w.:-]{0,63}?(${SECRET_WORD}))(?:[ \t][^<>\n]*)?>([^<>\n]{1,512})</\1>`,
  "gi",
);
/** A closing tag named like a secret (`</password>`, `</apiKey>`), which {@link ELEMENT_RE} needs. */
const CLOSING_SECRET = new RegExp(String.raw`</[\w.:-]*(?:${SECRET_WORD})>`, "i");
/** A `value` attribute, which {@link PAIR_RE} needs. */
const VALUE_ATTR = /\bvalue[ \t]*=[ \t]*["']/;
/** `name="password" value="…"` (Spring), `key="ApiKey" value="…"` (.NET's appSettings). */
const PAIR_RE = new RegExp(
  String.raw`(?<![\w-])(?:name|key)[ \t]*=[ \t]*(["'])([\w.:-]{0,63}?(${SECRET_WORD}))\1` +
    String.raw`[ \t]+value[ \t]*=[ \t]*(["'])([^"'\n]{1,512})\4`,
  "gi",
);

/**
 * Literals that XML configuration gives a secret-like name: an element's
 * text (Maven's `settings.xml`, `<password>…</password>`) and a
 * `name`/`key` attribute's `value` (Spring's `<property name="password"
 * value="…"/>`, .NET's `<add key="ApiKey" value="…"/>`), counted as
 * {@link findAssigned} counts a literal assigned to that name (an encrypted
 * `{…}` or a `${…}` reference never, nor an HTML form's `<input>`, whose
 * `authenticity_token` is a page's CSRF token). The span is the value alone.
 */
function* findMarkup(text: string): Generator<SecretFinding> {
  for (const [re, nameAt, valueAt] of [[ELEMENT_RE, 1, 3], [PAIR_RE, 2, 5]] as const) {
    // Most files have no element closed by a secret's name, nor any `value=`: one scan says so.
    if (!(re === ELEMENT_RE ? CLOSING_SECRET : VALUE_ATTR).test(text)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const name = m[nameAt]!, word = m[nameAt + 1]!;
      const nameStart = m.index + m[0].indexOf(name);
      const tier = nameTier(text, nameStart + name.length - word.length, word);
      const raw = m[valueAt]!;
      const value = raw.trim();
      if (tier === undefined || value === "") continue;
      if (!(tier === "password" ? passwordLike(value) : tokenLike(value))) continue;
      // A form's field (`<input name="authenticity_token" value="…">`) holds a page's CSRF token.
      if (
        re === PAIR_RE && /<input\b[^<>]*$/i.test(text.slice(Math.max(0, m.index - 256), m.index))
      ) {
        continue;
      }
      const start = m.index + m[0].length - (nameAt === 1 ? name.length + 3 : 1) - raw.length +
        raw.indexOf(value);
      yield {
        kind: tier === "password" ? "password_assignment" : "secret_assignment",
        start,
        end: start + value.length,
      };
    }
  }
}

/** The word before a credential: a header's scheme, curl's `-u` or `--user`. */
// Literal first characters, no lookbehind before them, so irregexp skips ahead between
// candidates; the word boundary before one and MySQL's command are checked in code.
const GIVEN_RE = new RegExp(
  String.raw`([Bb]earer)[ \t]+|(Basic)[ \t]+|(--(?=[a-z])[\w-]{0,48}?(${SECRET_WORD}))[ \t]+` +
    String.raw`|(-p)(?:[ \t]+)?(?=[^\s-])|(?:-u|--user)(?:[ \t]+|=)` +
    String.raw`|([Aa]uthorization|AUTHORIZATION)["']?[ \t]*(?:=>|[:=])[ \t]*["']?[Tt]oken[ \t]+`,
  "g",
);
/** MySQL's clients, whose `-p` is glued to the password. */
const MYSQL_BEFORE = /\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,200}$/;
/** sshpass, whose `-p` (before the command it runs) takes the password, glued or not. */
const SSHPASS_BEFORE = /\bsshpass[ \t]+(?:-[ve][ \t]+)*$/;
/** A bearer token: the characters RFC 6750 allows. */
const TOKEN_RE = /[A-Za-z0-9._~+/-]{20,512}=*(?![A-Za-z0-9._~+/=-])/y;
const BASIC_RE = /[A-Za-z0-9+/]{8,512}={0,2}(?![A-Za-z0-9+/=])/y;
/** `user:pass`, maybe quoted: no reference (`$TOKEN`) in either. */
const USER_RE = /(["']?)([^\s:'"$`{}<>()]{1,128}):([^\s'"$`{}<>()]{1,256})(?=\1(?:\s|$))/y;

/** True when `pass`, given with `user`, reads as a real password, not a stand-in or a group. */
function givenPassword(user: string, pass: string): boolean {
  if (pass === user || /^\d{1,5}$/.test(pass) || /pass|pwd/i.test(pass)) return false;
  return passwordLike(pass);
}

/**
 * True when the name whose last word starts at `at`, quoted by `quote`, is
 * a call's first argument (`define('DB_PASSWORD'`, `setdefault("SECRET_KEY"`),
 * not an item of a list or tuple (`'PKPaymentPass', 'PKPaymentRequest'`).
 */
function opensCall(text: string, at: number, quote: string): boolean {
  let s = at;
  while (s > 0 && at - s < 64 && isNameChar(text.charCodeAt(s - 1))) s--;
  if (text[s - 1] !== quote) return false;
  return /[A-Za-z0-9_$][ \t]*\([ \t]*$/.test(text.slice(Math.max(0, s - 64), s - 1));
}

/** A known qualifier ending a name's text before `key` (`api`, `secret`, `access`, …). */
const QUALIFIER_END = new RegExp(`(?:${[...KEY_QUALIFIERS].join("|")})$`);

const isNameChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;

/**
 * The tier of the name whose last word is `word`, which starts at `at`;
 * undefined when it is not a secret's name. Most candidates (`key:` in an
 * object, `token =` in prose) are settled by the character before the word.
 */
function nameTier(text: string, at: number, word: string): "password" | "token" | undefined {
  const lower = word.toLowerCase();
  const prev = at > 0 ? text.charCodeAt(at - 1) : -1;
  if (isNameChar(prev) && prev !== 95 && prev !== 45) {
    // The word must start a word of the name: after `_`, `-`, a camelCase hump or nothing;
    // or be `key` glued to a known qualifier (`apikey`, `secretkey`).
    const first = word.charCodeAt(0);
    const hump = !(prev >= 65 && prev <= 90) && first >= 65 && first <= 90;
    if (
      !hump && (lower !== "key" || !QUALIFIER_END.test(glued(text, at))) &&
      !envPasswordName(text, at, word)
    ) return undefined;
  }
  if (PASSWORD_WORDS.has(lower)) return "password";
  if (TOKEN_WORDS.has(lower)) return "token";
  if (lower !== "key" || !isNameChar(prev)) return undefined;
  // `api_key`, `secretKey`, `AccountKey`: the word before `key` must be a qualifier.
  let s = at;
  while (s > 0 && at - s < 64 && isNameChar(text.charCodeAt(s - 1))) s--;
  const words = text.slice(s, at).replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()
    .split(/[_-]+/).filter((w) => w !== "");
  const q = words.at(-1);
  return q !== undefined && QUALIFIER_END.test(q) ? "token" : undefined;
}

/**
 * True for an environment variable's name with a password word glued on,
 * all in capitals as such names are (`PGPASSWORD`, PostgreSQL's;
 * `SMTPPASSWORD`, `MY_DBPASSWD`): `word` starts at `at`. Not `PASS` or `PWD`,
 * which end other words (`BYPASS`, `COMPASS`).
 */
function envPasswordName(text: string, at: number, word: string): boolean {
  if (!/^(?:PASSWORD|PASSWD|PASSPHRASE)$/.test(word)) return false;
  let s = at;
  while (s > 0 && at - s < 32 && isNameChar(text.charCodeAt(s - 1))) s--;
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(text.slice(s, at));
}

/** The letters of the name just before `at`, lower-cased (at most 16). */
function glued(text: string, at: number): string {
  let s = at;
  while (s > 0 && at - s < 16 && isNameChar(text.charCodeAt(s - 1))) s--;
  return text.slice(s, at).toLowerCase().replace(/[^a-z]/g, "");
}

function awsName(text: string, at: number, word: string): boolean {
  const name = text.slice(Math.max(0, at - 40), at + word.length).toLowerCase().replace(
    /[^a-z]/g,
    "",
  );
  return name.endsWith("secretaccesskey");
}

/** A bare (unquoted) value that reads as a literal, not a name, call, path, type or number. */
function bareLiteral(v: string, op: string): boolean {
  if (/[()[\]<>|]|->|::/.test(v) || v.startsWith("/") || v.startsWith("./")) return false;
  if (v.includes("://") || /^(?:0x[0-9a-f]+|[0-9][0-9_.]*)$/i.test(v)) return false;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) return false; // args.password
  if (/^[A-Z][A-Z0-9_]*$/.test(v)) return false; // DB_PASSWORD
  if (/^[A-Za-z_]\w*$/.test(v)) {
    // `password: Uint8Array` is a type; in YAML a name-like value with digits is a literal.
    if (op === ":" && /^[A-Z][a-z]*\d*(?:[A-Z][a-z]+\d*)*$/.test(v)) return false;
    return /[0-9]/.test(v) && /[A-Za-z]/.test(v) && v.length >= 8;
  }
  return true;
}

function passwordLike(v: string): boolean {
  if (v.length < 8 || /\s/.test(v) || isPlaceholder(v)) return false;
  if (/^[./~]/.test(v) || v.includes("://") || /^['"`.+]|['"`.+]$/.test(v)) return false; // paths, concatenation
  if (/^[A-Z][A-Z0-9_]*$/.test(v) || /^[a-z]+(?:[_.-][a-z]+)+$/.test(v)) return false; // names
  if (/^[A-Za-z][a-z]+(?:[A-Z][a-z]+)+$/.test(v)) return false; // camelCase or PascalCase
  if (/^(?:0x[0-9a-f]+|[0-9][0-9_.,]*)$/i.test(v)) return false; // numbers
  if (v.length >= 16) return true;
  return /[A-Za-z]/.test(v) && /[0-9!#$%^&*+=?~|<>@]/.test(v);
}

function tokenLike(v: string): boolean {
  if (v.length < 20 || isPlaceholder(v)) return false;
  if (!/^[A-Za-z0-9+/=_.~-]+$/.test(v)) return punctuatedKey(v);
  if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (/^[A-Za-z_]+(?:\.[A-Za-z_]+)+$/.test(v)) return false; // a dotted name
  // An Ethereum address (`USDC_TOKEN = "0xA0b8…"`) is public; a 64-digit private key is not.
  if (/^0x[0-9a-fA-F]{40}$/.test(v)) return false;
  const hex = /^[0-9a-fA-F]+$/.test(v);
  return entropy(v) >= (hex ? (v.length >= 32 ? 3.0 : 9) : 3.5);
}

/**
 * A long key drawn from letters, digits and punctuation, as Django's
 * `SECRET_KEY` and WordPress's salts are (`k#9x2!vq8@…`): 32 characters or
 * more, no space, and at least 4.5 bits of entropy per character, which a
 * pattern or a sentence never reaches. A `django-insecure-` key, made for
 * development by every new project, is no secret.
 */
function punctuatedKey(v: string): boolean {
  if (v.length < 32 || /\s/.test(v) || v.startsWith("django-insecure-")) return false;
  return /[0-9]/.test(v) && /[A-Za-z]/.test(v) && entropy(v) >= 4.5;
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/**
 * Returns why `text` holds a secret (`"content: github_token"`), or undefined
 * when it does not; reads the whole text, so a secret after megabytes of
 * filler is found too. Mentions of "password", public keys and certificates
 * do not count.
 */
export function sniffSecret(text: string): string | undefined {
  for (const f of findSecrets(text)) return `content: ${f.kind}`;
  return undefined;
}

/**
 * Returns `text` with every secret {@link findSecrets} reports replaced by
 * `[REDACTED:<kind>]`; text without secrets comes back unchanged (same string).
 */
export function redactSecrets(text: string): string {
  const found = [...findSecrets(text)];
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

/**
 * {@link redactSecrets} applied to every string inside `value` (object
 * values, array items; keys kept): for records written whole, such as a
 * session's state or the parameters of a query. Returns `value` itself when
 * nothing was redacted.
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactDeep(v);
      if (r !== v) changed = true;
      return r;
    });
    return (changed ? out : value) as T;
  }
  if (
    typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype
  ) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = redactDeep(v);
      if (r !== v) changed = true;
      out[k] = r;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/**
 * The version of the screen's rules. Bump it whenever {@link findSecrets}
 * finds what it did not before (a new kind, a wider pattern): a writer then
 * redacts, once, what an older build stored in the journal before the rule
 * existed (the CLI's `redactStoredSecrets`, also `heimdall redact`).
 * 1: the rules of the first build that redacted what it had stored.
 * 2: tokens of Grafana, Linear, Doppler, Vault, Docker Hub and 26 other
 *    services (see {@link findSecrets}).
 * 3: an `Authorization` header's `token …` (GitHub's older scheme).
 * 4: a private key whose newlines are escaped twice (JSON inside a string).
 * 5: a password handed to `sshpass -p`.
 * 6: Vault's `.vault-token` file, refused by name.
 */
export const SECRET_SCREEN_VERSION = 6;

/**
 * Where a stored record holds secret-shaped values: its table, id, the
 * fields that hold one and their kinds. Never the value itself, so that a
 * report of it can be printed and logged.
 */
export interface StoredSecret {
  /** The table holding the record (`memories`, `notes`, `personal_candidates`…). */
  table: string;
  /** The record's id in that table. */
  id: string;
  /** The fields holding one (`text`, `author`…; `search row` for its search chunk). */
  fields: string[];
  /** The kinds found (`github_token`, `url_password`…), each once, in the order met. */
  kinds: string[];
}

/**
 * Screens the text fields of one stored record: undefined when none holds a
 * secret; otherwise where (see {@link StoredSecret}) and each field's value
 * as it is stored now, {@link redactSecrets} applied, so only the
 * secret-shaped spans change (fields without one are left out). A field
 * given as a string array (a JSON list, as `tests` is kept) is screened
 * item by item. Pure; one {@link findSecrets} per field.
 */
export function screenRecord(
  table: string,
  id: string | number,
  fields: Readonly<Record<string, string | readonly string[] | null>>,
): { found: StoredSecret; redacted: Record<string, string | string[]> } | undefined {
  const found: StoredSecret = { table, id: String(id), fields: [], kinds: [] };
  const redacted: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === null) continue;
    const items = typeof value === "string" ? [value] : value;
    let hit = false;
    for (const item of items) {
      for (const f of findSecrets(item)) {
        hit = true;
        if (!found.kinds.includes(f.kind)) found.kinds.push(f.kind);
      }
    }
    if (!hit) continue;
    found.fields.push(name);
    redacted[name] = typeof value === "string" ? redactSecrets(value) : value.map(redactSecrets);
  }
  return found.fields.length === 0 ? undefined : { found, redacted };
}
