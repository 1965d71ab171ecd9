import assert from "node:assert/strict";
import { secretSamples } from "../../tests/secret_samples.ts";
import {
  findSecrets,
  isSecretName,
  redactDeep,
  redactSecrets,
  SECRET_SCREEN_VERSION,
  sniffSecret,
} from "./secrets.ts";

/** Long enough to have been past the old 256 KiB sniff limit. */
const FILLER_CHARS = 412 * 1024;

// Fake credentials are assembled at run time so this file itself holds none
// (and scanners, ours included, have nothing to find in it).
const x = (n: number, alphabet = "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8") =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join("");
const FAKE = {
  github: "ghp" + "_" + x(36),
  githubPat: "github" + "_pat_" + x(22) + "_" + x(59),
  slack: "xox" + "b-" + "123456789012-" + x(24),
  stripe: "sk" + "_live_" + x(24),
  google: "AI" + "za" + x(35),
  anthropic: "sk-" + "ant-api03-" + x(40),
  openai: "sk-" + "proj-" + x(48),
  awsId: "AK" + "IA" + "QWERTYUIOPASDFGH",
  awsSecret: x(20) + "/" + x(19, "Zx9Yw8Vu7"),
};
const PEM_BODY = x(64, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
const pem = (label: string) =>
  `-----BEGIN ${label}-----\n${PEM_BODY}\n${PEM_BODY}\n-----END ${label}-----\n`;

Deno.test("isSecretName() refuses secret files by name", () => {
  const secrets = [
    ".env",
    "app/.env.local",
    ".env.production",
    "certs/server.pem",
    "tls/private.KEY",
    "a.p12",
    "b.pfx",
    "release.jks",
    "debug.keystore",
    "home/.ssh/id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    ".npmrc",
    ".pypirc",
    ".netrc",
    ".pgpass",
    "home/.vault-token",
    "credentials",
    "config/credentials.json",
    "infra/terraform.tfstate",
    "terraform.tfstate.backup",
    "config/secrets.yml",
    "secrets.yaml",
    "secrets.json",
    "web/.htpasswd",
    "service-account-prod.json",
    ".git-credentials",
    "home/.aws/credentials",
    "home/.docker/config.json",
    "kubeconfig",
    "home/.kube/config",
  ]; // deno-fmt-ignore
  for (const rel of secrets) assert.ok(isSecretName(rel), `${rel} should be a secret`);
  assert.equal(isSecretName("a/b/.env"), "secret file name: .env");
  assert.equal(isSecretName("x/server.pem"), "secret file name: *.pem");
});

Deno.test("isSecretName() lets ordinary files through, including look-alikes", () => {
  const ordinary = [
    ".env.example",
    ".env.sample",
    ".env.template",
    "app/.env.local.example",
    "env.py",
    "src/env.ts",
    "keys.ts",
    "key.go",
    "src/keys/mod.rs",
    "id_rsa.pub",
    "id_ed25519.pub",
    "credentials.py",
    "secrets.ts",
    "docs/secrets.md",
    "config.json",
    "app/config",
    "service-account.ts",
    "pem.ts",
    "monkey.keyboard",
    ".environment",
    "tfstate.go",
    "README.md",
  ]; // deno-fmt-ignore
  for (const rel of ordinary) assert.equal(isSecretName(rel), undefined, rel);
});

Deno.test("sniffSecret() finds each kind of secret in content", () => {
  const cases: [string, string][] = [
    [`token = "${FAKE.github}"`, "content: github_token"],
    [`GH=${FAKE.githubPat}`, "content: github_token"],
    [`slack: ${FAKE.slack}`, "content: slack_token"],
    [`stripe.key = '${FAKE.stripe}'`, "content: stripe_live_key"],
    [`const k = "${FAKE.google}";`, "content: google_api_key"],
    [`ANTHROPIC_API_KEY=${FAKE.anthropic}`, "content: anthropic_key"],
    [`OPENAI_API_KEY=${FAKE.openai}`, "content: openai_key"],
    [pem("RSA PRIVATE KEY"), "content: private_key"],
    [pem("PRIVATE KEY"), "content: private_key"],
    [pem("OPENSSH PRIVATE KEY"), "content: private_key"],
    [
      `[default]\naws_access_key_id = ${FAKE.awsId}\naws_secret_access_key = ${FAKE.awsSecret}\n`,
      "content: aws_access_key_id",
    ],
  ];
  for (const [text, reason] of cases) assert.equal(sniffSecret(text), reason, text);
});

Deno.test("sniffSecret() does not flag code that only talks about secrets", () => {
  const innocent = [
    `const password = prompt("password:");\nif (password.length < 8) throw new Error("weak password");`,
    `# Set OPENAI_API_KEY=sk-... in your shell\nexport GITHUB_TOKEN=<your token>`,
    pem("PUBLIC KEY") + pem("CERTIFICATE") + pem("RSA PUBLIC KEY"),
    `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${x(43)} me@host`,
    `if (pem.startsWith("-----BEGIN RSA PRIVATE KEY-----")) parse(pem);`,
    `aws_access_key_id = ${FAKE.awsId}  # id alone, no secret nearby`,
    `AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
    `const sha = "${"0123456789abcdef".repeat(2)}01234567"; // ${FAKE.awsId}`,
    `xoxb-your-token-here sk_test_${x(24)} ghp_short`,
    `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${x(43)}`,
  ];
  for (const text of innocent) assert.equal(sniffSecret(text), undefined, text);
});

Deno.test("sniffSecret() does not flag its own source or tests", () => {
  for (const f of ["secrets.ts", "secrets_test.ts", "walk.ts", "ignore.ts"]) {
    assert.equal(sniffSecret(Deno.readTextFileSync(new URL(f, import.meta.url))), undefined, f);
  }
});

Deno.test("sniffSecret() reads the whole text: a token after 412 KiB of filler is found", () => {
  const padding = "// filler line of ordinary code\n".repeat(FILLER_CHARS / 32 + 1);
  assert.equal(sniffSecret(padding + FAKE.github), "content: github_token");
  assert.equal(sniffSecret(FAKE.github + padding), "content: github_token");
  assert.equal(sniffSecret(padding), undefined);
});

Deno.test("findSecrets() finds every planted kind, and redaction leaves none of them", () => {
  const samples = secretSamples();
  assert.ok(new Set(samples.map((s) => s.kind)).size >= 25, "at least 25 kinds");
  for (const s of samples) {
    const kinds = [...findSecrets(s.line)].map((f) => f.kind);
    assert.ok(kinds.includes(s.kind), `${s.kind} in ${s.line.slice(0, 80)}: found ${kinds}`);
    assert.ok(!redactSecrets(s.line).includes(s.secret), `${s.kind} redacted`);
    assert.equal(sniffSecret(redactSecrets(s.line)), undefined, `nothing left of ${s.kind}`);
  }
});

Deno.test("assignments and URLs count only with a literal, real-looking value", () => {
  const pw = "Zq8" + "rT2vW9x";
  const tok = x(32, "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0");
  const found: [string, string][] = [
    [`password = "${pw}"`, pw],
    [`DB_PASSWORD=${pw}`, pw],
    [`export PGPASSWORD=${pw}! before psql`, pw + "!"],
    [`SMTPPASSWD="${pw}"`, pw],
    [`  passwd: ${pw}`, pw],
    [`{"secret": "${pw}!"}`, pw + "!"],
    [`$cfg['db_pass'] = '${pw}';`, pw],
    [`apiKey := "${tok}"`, tok],
    [`client_secret => '${pw}'`, pw],
    [`const authToken = "${tok}";`, tok],
    [`mysql://root:${pw}@db:3306/app`, pw],
  ];
  for (const [text, value] of found) {
    const f = [...findSecrets(text)];
    assert.equal(f.length, 1, text);
    assert.equal(text.slice(f[0]!.start, f[0]!.end), value, text);
  }
  const innocent = [
    `password = getPassword()`,
    `password = args.password`,
    `password: string;`,
    `secret: Uint8Array,`,
    `password = "changeme"`,
    `password: "\${DB_PASSWORD}"`,
    `password = os.environ["DB_PASSWORD"]`,
    `PASSWORD_FIELD = "password"`,
    `"password": "Mot de passe"`,
    `token = "Bearer"`,
    `password = "test1234"`,
    `api_key = "YOUR_API_KEY_HERE"`,
    `tokenizer = "${tok}"`,
    `monkey = "${tok}"`,
    `password_label = "${pw}"`,
    `cache_key = "${tok}"`,
    `if (password == "${pw}")`,
    `postgres://user:password@localhost/db`,
    `postgres://postgres:postgres@localhost/db`,
    `https://\${USER}:\${PASS}@host/x`,
    `http://foo:bar@example.com`,
    `https://ghuser:x-oauth-basic@github.com/a/b`,
    `UncheckPassword = 0x1000000,`,
    `BYPASS = "${pw}"`,
    `COMPASS="${pw}"`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("redactDeep() redacts every string of a record and keeps the rest", () => {
  const state = {
    task: { title: `deploy with ${FAKE.github}`, id: null },
    n: 3,
    list: ["a", FAKE.slack],
  };
  const clean = redactDeep(state);
  assert.deepEqual(clean, {
    task: { title: "deploy with [REDACTED:github_token]", id: null },
    n: 3,
    list: ["a", "[REDACTED:slack_token]"],
  });
  const plain = { a: ["b"], c: 1 };
  assert.equal(redactDeep(plain), plain, "nothing to redact: the same object");
});

Deno.test("redactSecrets() replaces every secret by its kind and keeps the rest", () => {
  const text = [
    `gh ${FAKE.github} and stripe ${FAKE.stripe}.`,
    `aws_access_key_id=${FAKE.awsId}`,
    `aws_secret_access_key=${FAKE.awsSecret}`,
    pem("EC PRIVATE KEY") + "after the key",
  ].join("\n");
  assert.equal(
    redactSecrets(text),
    [
      "gh [REDACTED:github_token] and stripe [REDACTED:stripe_live_key].",
      "aws_access_key_id=[REDACTED:aws_access_key_id]",
      "aws_secret_access_key=[REDACTED:aws_secret_access_key]",
      "[REDACTED:private_key]\nafter the key",
    ].join("\n"),
  );
  assert.equal(sniffSecret(redactSecrets(text)), undefined);
  const clean = "nothing to see: password = hunter2 is a joke";
  assert.equal(redactSecrets(clean), clean);
});

Deno.test("redactSecrets() scans the whole text and findSecrets() reports positions", () => {
  const text = "x ".repeat(FILLER_CHARS) + FAKE.slack;
  assert.equal(redactSecrets(text).endsWith("[REDACTED:slack_token]"), true);
  const [found] = [...findSecrets(`a ${FAKE.google} b`)];
  assert.deepEqual(found, { kind: "google_api_key", start: 2, end: 2 + FAKE.google.length });
});

Deno.test("sniffSecret() finds a PGP private key block, armor headers and all", () => {
  const block = [
    "-----BEGIN PGP PRIVATE" + " KEY BLOCK-----",
    "Version: GnuPG v2",
    "Comment: backup of the release key",
    "",
    PEM_BODY,
    PEM_BODY,
    "=Xq3d",
    "-----END PGP PRIVATE" + " KEY BLOCK-----",
  ];
  assert.equal(sniffSecret(block.join("\n")), "content: private_key");
  assert.equal(sniffSecret(`{"key": "${block.join("\\n")}"}`), "content: private_key");
  assert.equal(
    redactSecrets(`before\n${block.join("\n")}\nafter`),
    "before\n[REDACTED:private_key]\nafter",
  );
  const publicKey = block.join("\n").replaceAll("PRIVATE", "PUBLIC");
  assert.equal(sniffSecret(publicKey), undefined, "a public key block is no secret");
});

Deno.test("fixed-prefix tokens are found glued to the characters around them", () => {
  const github = "gh" + "p_Zx9Kq2Lm8Np4Rs6Tv1Wy3Ab5Cd7Ef0GhIjKl";
  const slack = "xo" + "xb-2384756102-9182736450-QwErTyUiOpAsDfGhJkLzXcVb";
  const npm = "np" + "m_" + x(36);
  const hf = "h" + "f_" + x(34);
  const glued: [string, string, string][] = [
    [`curl "https://api.x.com/?h=Authorization%3A%20token%20${github}"`, github, "github_token"],
    [`{"note":"first\\n${github}"}`, github, "github_token"],
    [`cp ${github}_backup /tmp`, github, "github_token"],
    [`pytest -k test_auth_${github}`, github, "github_token"],
    [`tok${github}`, github, "github_token"],
    [`?token%3D${slack}&x=1`, slack, "slack_token"],
    [`?key%3D${FAKE.stripe}`, FAKE.stripe, "stripe_live_key"],
    [`"a\\u003d${FAKE.stripe}"`, FAKE.stripe, "stripe_live_key"],
    [`NPM_${npm}_old`, npm, "npm_token"],
    [`%20${hf}`, hf, "huggingface_token"],
    [`x%3D${FAKE.google}`, FAKE.google, "google_api_key"],
    [
      `https://api.telegram.org/bot123456789:AA${x(33)}/getMe`,
      `123456789:AA${x(33)}`,
      "telegram_bot_token",
    ],
  ];
  for (const [text, secret, kind] of glued) {
    const found = [...findSecrets(text)];
    assert.deepEqual(found.map((f) => f.kind), [kind], text);
    assert.equal(text.slice(found[0]!.start, found[0]!.end), secret, text);
    assert.ok(!redactSecrets(text).includes(secret), text);
  }
});

Deno.test("a prefix inside an ordinary identifier or word is not a token", () => {
  const innocent = [
    "ghp_helper",
    "def test_ghp_parsing(): pass",
    "npm_config_cache=/tmp/npm",
    `pnpm_${x(36)} = 1`, // pnpm's own prefix, not npm's
    `network_live_${x(24)}`, // "rk_live_" ends a word here
    `task-admin-${x(24)}`, // "sk-admin-" too
    `cachekey-${"0123456789abcdef".repeat(2)}`, // "key-" glued to a word
    `vendor_v1_${"0123456789abcdef".repeat(4)}`, // "dor_v1_" ends a word
    `shelf_${x(34)}`,
    `TASK${"0123456789abcdef".repeat(2)}`,
    `12345678901:AA${x(33)}`, // eleven digits: no bot id
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a stand-in token of one character repeated (ghp_xxxx…) is no secret; a real one beside it is", () => {
  const stand = [
    "export GITHUB_TOKEN=ghp_" + "x".repeat(36),
    "token: glpat-" + "x".repeat(20),
    "STRIPE_KEY=sk_live_" + "x".repeat(24),
    "SLACK_BOT_TOKEN=xoxb-" + "0".repeat(12) + "-" + "0".repeat(13) + "-" + "x".repeat(24),
    "https://hooks.slack.com/services/T00000000/B00000000/" + "X".repeat(24),
    "maps: AIza" + "X".repeat(35),
  ];
  for (const text of stand) assert.deepEqual([...findSecrets(text)], [], text);
  // An id before the random part is no stand-in, whatever digits it repeats.
  const team = "xox" + "b-" + "1000000000-" + "2000000000007-" + x(24);
  assert.equal(sniffSecret(`slack ${team}`), "content: slack_token");
  const both = `${stand[0]}\nGH=${FAKE.github}`;
  assert.deepEqual(
    [...findSecrets(both)].map((f) => both.slice(f.start, f.end)),
    [FAKE.github],
  );
});

Deno.test("tokens of Grafana, Linear, Doppler, Vault, Docker Hub and other services are found, glued too; their prefixes in ordinary code are not", () => {
  const hex = "0123456789abcdef";
  const tokens: [string, string][] = [
    ["gl" + "sa_" + x(32) + "_" + x(8, hex), "grafana_token"],
    ["lin" + "_api_" + x(40), "linear_key"],
    ["lin" + "_oauth_" + x(64, hex), "linear_key"],
    ["dp" + ".pt." + x(43), "doppler_token"],
    ["dck" + "r_pat_" + x(27), "dockerhub_token"],
    ["NR" + "AK-" + x(27, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"), "newrelic_key"],
    ["gs" + "k_" + x(52), "groq_key"],
    ["r" + "8_" + x(37), "replicate_token"],
    ["pn" + "u_" + x(36), "prefect_key"],
    ["ab" + "c8Q~" + x(34), "azure_ad_client_secret"],
    [x(32, hex) + "-us" + "21", "mailchimp_key"],
  ];
  for (const [token, kind] of tokens) {
    for (const text of [`login ${token}`, `%20${token}`, `"a\\n${token}"`]) {
      const found = [...findSecrets(text)];
      assert.deepEqual(found.map((f) => f.kind), [kind], text);
      assert.equal(text.slice(found[0]!.start, found[0]!.end), token, text);
      assert.ok(!redactSecrets(text).includes(token), text);
    }
  }
  const innocent = [
    `glc_context_create(${x(8)})`,
    `const lin_api_version = "${x(40)}";`,
    `berlin_api_${x(40)}`, // "lin_api_" ends a word here
    `pulsar.dp.st.${"config"}.load()`,
    `self.hvs.compute(${x(20)})`,
    `docker_pat_${x(27)}`,
    `bisk_${x(52)}`, // "sk_" ends a word
    `mygsk_${x(52)}`,
    `vr8_${x(37)}`,
    `pnu_${"x".repeat(36)}`, // a stand-in
    "lin_api_" + "0".repeat(40),
    `${x(32, hex)}-usage`,
    `spnu_${x(36)}`,
    `release-${x(3)}8Q~`,
  ];
  for (const text of innocent) {
    assert.deepEqual([...findSecrets(text)].map((f) => f.kind), [], text);
  }
});

Deno.test("a snake_case name that starts with github_pat_ is no token", () => {
  for (
    const text of [
      `github_pat_environment_variable_name = "GITHUB_PAT"`,
      "def read_github_pat_from_the_keyring():",
    ]
  ) assert.deepEqual([...findSecrets(text)], [], text);
  assert.equal(sniffSecret(`GH=${FAKE.githubPat}`), "content: github_token");
});

Deno.test("an Authorization header's token (GitHub's older scheme, Django REST framework's) is found", () => {
  const hex = "3f9a1c7e5b2d8046af13" + "c9e7b5d2a8f04c6e1b9d";
  for (
    const text of [
      `curl -H "Authorization: token ${hex}" https://api.github.com/user`,
      `headers = {"Authorization": "token ${hex}"}`,
      `self.client.credentials(HTTP_AUTHORIZATION="Token ${hex}")`,
      `req.headers[:authorization] = 'x'; opts = { :authorization => "token ${hex}" }`,
      `AUTHORIZATION: token ${hex}`,
    ]
  ) {
    const found = [...findSecrets(text)];
    assert.deepEqual(found.map((f) => [f.kind, text.slice(f.start, f.end)]), [
      ["authorization_token", hex],
    ], text);
    assert.ok(!redactSecrets(text).includes(hex), text);
  }
  const innocent = [
    `Authorization: token $GITHUB_TOKEN`,
    "Authorization: token ${GITHUB_TOKEN}",
    `Authorization: token <your-token>`,
    `Authorization: token YOUR_PERSONAL_ACCESS_TOKEN`,
    `headers["Authorization"] = "token " + token`,
    `authorization: tokenize(header)`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a BEGIN line followed by blank lines, raw or escaped, is screened in milliseconds", () => {
  for (const blank of ["\n", "\r\n", "\\n", "\\\\n", "\n ", " "]) {
    const text = "-----BEGIN PRIVATE" + " KEY-----" + blank.repeat(5000) + "-----END PRIVATE" +
      " KEY-----";
    const t0 = performance.now();
    assert.deepEqual([...findSecrets(text)], [], JSON.stringify(blank));
    assert.ok(
      performance.now() - t0 < 1000,
      `${JSON.stringify(blank)}: ${performance.now() - t0} ms`,
    );
  }
  // A real key after blank lines is still found.
  const text = "-----BEGIN PRIVATE" + " KEY-----\n\n\n" + PEM_BODY + "\n-----END PRIVATE" +
    " KEY-----";
  assert.deepEqual([...findSecrets(text)].map((f) => f.kind), ["private_key"]);
});

Deno.test("a password handed to sshpass -p is found, glued or not; ssh's -p port and mysql's -p database are not", () => {
  const pw = "Tq7" + "vR2xLp9!";
  for (
    const text of [
      `sshpass -p '${pw}' ssh deploy@10.0.0.5 uptime`,
      `sshpass -p ${pw} scp build.tgz deploy@10.0.0.5:/srv`,
      `sshpass -p"${pw}" rsync -a dist/ deploy@h:/srv`,
      `sshpass -v -p ${pw} ssh u@h`,
    ]
  ) {
    assert.deepEqual([...findSecrets(text)].map((f) => text.slice(f.start, f.end)), [pw], text);
  }
  const innocent = [
    `sshpass -p "$SSH_PASS" ssh u@h`,
    `sshpass -f ~/.ssh/pw ssh -p 2222 u@h`,
    `sshpass -e ssh -p 2222 u@h`,
    `mysql -u root -p shop_db2024`,
    `mkdir -p build/out2024`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a password given as a call's quoted name and value is found: define('DB_PASSWORD', '…')", () => {
  const pw = "Xk2" + "9vLmq77Pz";
  for (
    const text of [
      `define( 'DB_PASSWORD', '${pw}' );`,
      `config.set("password", "${pw}")`,
      `os.environ.setdefault("DB_PASS", '${pw}')`,
    ]
  ) {
    assert.deepEqual([...findSecrets(text)].map((f) => text.slice(f.start, f.end)), [pw], text);
  }
  const innocent = [
    `define( 'DB_PASSWORD', 'password_here' );`,
    `t("password", "Mot de passe")`,
    `("http", "user/name", "password", "localhost:22")`,
    `("User:Pass", "www.python.org:080")`,
    `names = ['PKPaymentPass', 'PKPaymentRequest']`,
    `check(password, "${pw}")`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a long key with punctuation beside a key's name is found: Django's SECRET_KEY, WordPress's salts", () => {
  const django = "k#9x2!vq8@z7^m4&w1*b6" + "%h3(j)p-_=+q0r5t8y2u4i6o";
  const salt = "f8#Kp2)v!Lq9@Zr4^Wm7&Xt1*" + "Bn6%Hc3$Jd8+Ys5=Ge0?Ua2";
  for (
    const [text, value] of [
      [`SECRET_KEY = '${django}'`, django],
      [`define('AUTH_KEY',         '${salt}');`, salt],
    ]
  ) {
    assert.deepEqual([...findSecrets(text!)].map((f) => text!.slice(f.start, f.end)), [value]);
  }
  const innocent = [
    `SECRET_KEY = 'django-insecure-${django}'`, // every new project's development key
    `api_key_pattern = '^(?=.*[A-Z])(?=.*\\d).{8,}$'`,
    `api_key = '^(?=.*[A-Z])(?=.*\\d)(?=.*[#?!@$%^&*-]).{32,}$'`,
    `define('AUTH_KEY', 'put your unique phrase here');`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a credential handed to a request or a command is found: a Bearer or Basic header, -u user:pass, --password P", () => {
  const tok = x(40, "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0");
  const pw = "Zq8" + "rT2vW9x!";
  const basic = btoa(`ci-bot:${pw}`);
  const found: [string, string, string][] = [
    [`curl -H "Authorization: Bearer ${tok}" https://api.example.org`, tok, "bearer_token"],
    [`authorization: bearer ${tok}.`, tok, "bearer_token"],
    [`curl -H 'Authorization: Basic ${basic}' https://api`, basic, "basic_auth"],
    [`curl -u admin:${pw} https://api`, pw, "password_assignment"],
    [`curl --user="deploy:${pw}" https://api`, pw, "password_assignment"],
    [`docker login -u ci --password ${pw} registry.example.org`, pw, "password_assignment"],
    [`tool --db-password "${pw}" run`, pw, "password_assignment"],
    [`deploy --api-key ${tok} now`, tok, "secret_assignment"],
    [`mysql -uroot -p${pw} -e "select 1"`, pw, "password_assignment"],
    [`mysqldump -h db -u admin -p'${pw}' app > dump.sql`, pw, "password_assignment"],
  ];
  for (const [text, value, kind] of found) {
    const f = [...findSecrets(text)];
    assert.deepEqual(f.map((s) => [s.kind, text.slice(s.start, s.end)]), [[kind, value]], text);
  }
  const innocent = [
    `headers: { Authorization: \`Bearer \${token}\` }`,
    `"Authorization": "Bearer " + accessToken`,
    `Authorization: Bearer YOUR_ACCESS_TOKEN_HERE`,
    `Authorization: Basic ${btoa("user:password")}`,
    `Basic authentication is described in RFC 7617.`,
    `The Bearer authentication scheme (RFC6750) and OAuth2_framework_docs.`,
    `curl -u "$USER:$API_TOKEN" https://api`,
    `docker run -u 1000:1000 -u node:node -u jenkins:docker image`,
    `git push -u origin main && set -euo pipefail`,
    `mysql -u root -p app && ssh -p 2222 host && tar -czpf backup.tar.gz .`,
    `docker login --password-stdin < pw.txt; tool --password $DB_PASSWORD --token-file /etc/t`,
    `  --password PASSWORD   the password to use (default: none)`,
    `tool --key server.key --cert server.crt; sqlite3 --no-password database_2024_backup.db`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a password in XML configuration is found: Maven's <password>, Spring's and .NET's name and value", () => {
  const tok = x(32, "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0");
  const pw = "Zq8" + "rT2vW9x!";
  const found: [string, string][] = [
    [`<server><id>nexus</id><username>ci</username><password>${pw}</password></server>`, pw],
    [`  <keystorePassword> ${pw} </keystorePassword>`, pw],
    [`<property name="password" value="${pw}"/>`, pw],
    [`<add key="StripeApiKey" value="${tok}" />`, tok],
  ];
  for (const [text, value] of found) {
    const f = [...findSecrets(text)];
    assert.deepEqual(f.map((s) => text.slice(s.start, s.end)), [value], text);
  }
  const innocent = [
    `<password>{COQLCE6DU6GtcS5P=}</password>`, // encrypted by mvn --encrypt-password
    `<password>\${env.NEXUS_PASSWORD}</password>`,
    `<key>NSAppTransportSecurity</key><key>CFBundleIdentifier</key>`,
    `<monkey>${tok}</monkey>`,
    `<passwordPolicy>At least 12 characters</passwordPolicy>`,
    `<input type="hidden" name="authenticity_token" value="${tok}" />`,
    `<input type="password" name="password" value="">`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("an Ethereum address beside a token's name is no secret; a private key of 64 hex digits is", () => {
  const address = "0x" + x(40, "0123456789abcdefABCDEF");
  const key = "0x" + x(64, "0123456789abcdef");
  for (
    const text of [
      `const USDC_TOKEN = "${address}";`,
      `  token: '${address}',`,
      `{"token": "${address}", "decimals": 6}`,
    ]
  ) assert.deepEqual([...findSecrets(text)], [], text);
  const text = `DEPLOYER_PRIVATE_KEY="${key}"`;
  assert.deepEqual([...findSecrets(text)].map((f) => text.slice(f.start, f.end)), [key]);
});

Deno.test("a password in a string with escapes, a Python prefix or escaped quotes is found", () => {
  const pw = "Zq8" + "rT2vW9x!";
  const bs = "\\";
  const tok = x(32, "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0");
  const found: [string, string][] = [
    // A Jupyter notebook's cell, as the .ipynb file holds it.
    [`    "db_password = \\"${pw}\\"\\n",`, pw],
    [`"{\\"password\\": \\"${pw}\\", \\"user\\": \\"app\\"}"`, pw],
    [`{"password": "Zq8${bs}${bs}rT2vW9x"}`, `Zq8${bs}${bs}rT2vW9x`],
    [`DB_PASSWORD="Zq8${bs}"rT2vW9x"`, `Zq8${bs}"rT2vW9x`],
    [`app.secret_key = b'${tok}'`, tok],
    [`pwd = r"${pw}"`, pw],
  ];
  for (const [text, value] of found) {
    const f = [...findSecrets(text)];
    assert.deepEqual(f.map((s) => text.slice(s.start, s.end)), [value], text);
  }
  const innocent = [
    `password = "${"\\u2022".repeat(6)}"`, // a masked field's bullets
    `password = "line one\\nline two is long"`,
    `    "password = getpass.getpass()\\n",`,
    `    "password = \\"\\"\\n",`,
    `    "password = \\"\${PASSWORD}\\"\\n",`,
    `secret = f"{prefix}${pw}"`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("isSecretName() reads a .env template committed for others to copy: .env.dist, .env.defaults", () => {
  for (const rel of [".env.dist", "app/.env.defaults", ".env.default", ".env.tpl", ".env.schema"]) {
    assert.equal(isSecretName(rel), undefined, rel);
  }
  for (const rel of [".env.production", ".env.local", ".env.distant"]) {
    assert.equal(isSecretName(rel), "secret file name: .env.*", rel);
  }
});

Deno.test("a private key in base64 is found: a Kubernetes TLS secret, a kubeconfig; a certificate is not", () => {
  const key = btoa(pem("RSA PRIVATE KEY"));
  const cert = btoa(pem("CERTIFICATE"));
  for (const text of [`  tls.key: ${key}`, `    client-key-data: ${key}\n`]) {
    const f = [...findSecrets(text)];
    assert.deepEqual(f.map((s) => [s.kind, text.slice(s.start, s.end)]), [[
      "encoded_private_key",
      key,
    ]]);
  }
  for (
    const text of [
      `  tls.crt: ${cert}`,
      `    client-certificate-data: ${cert}`,
      `header alone: ${btoa("-----BEGIN PRIVATE" + " KEY-----\n")}`,
    ]
  ) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test('a literal handed to a setter named like a secret is found: setPassword("…"), withPassword, set_api_key', () => {
  const pw = "Zq8" + "rT2vW9x!";
  const tok = x(32, "aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0");
  const found: [string, string][] = [
    [`dataSource.setPassword("${pw}");`, pw],
    [`new PostgreSQLContainer("postgres").withPassword("${pw}")`, pw],
    [`cfg.set_password('${pw}')`, pw],
    [`client.setApiKey("${tok}");`, tok],
  ];
  for (const [text, value] of found) {
    const f = [...findSecrets(text)];
    assert.deepEqual(f.map((s) => text.slice(s.start, s.end)), [value], text);
  }
  const innocent = [
    `assertTrue(isValidPassword("${pw}"));`,
    `hashPassword("${pw}"); resetPassword("${pw}"); offset_password("${pw}")`,
    `container.withPassword("test"); setPassword(password)`,
    `settings.setMonkey("${tok}"); setCacheKey("${tok}")`,
  ];
  for (const text of innocent) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("the OAuth 2.0 RFC's example credentials, in every OAuth library's docs, are no secrets", () => {
  for (
    const text of [
      "Authorization: Basic " + btoa("s6BhdRkqt3:" + "gX1fBat3bV"),
      "Location: http://example.com/cb#access_token=" + "2YotnFZFEjr1zCsicMWpAA&state=xyz",
      '"access_token":"2YotnFZF' + 'Ejr1zCsicMWpAA", "refresh_token":"tGzv3JOk' + 'F0XG5Qx2TlKWIA"',
    ]
  ) assert.deepEqual([...findSecrets(text)], [], text);
});

Deno.test("a CVS root after a scheme, as GNU copyright files quote it, holds no password", () => {
  for (
    const text of [
      "  cvs://:pserver:anoncvs@sources.redhat.com:/cvs/src",
      "cvs -d :pserver:anonymous@cvs.savannah.gnu.org:/sources/emacs co emacs",
    ]
  ) assert.deepEqual([...findSecrets(text)], [], text);
  const pw = "Zq8" + "rT2vW9x";
  const text = `redis://:${pw}@cache:6379/0`;
  assert.deepEqual([...findSecrets(text)].map((f) => text.slice(f.start, f.end)), [pw]);
});

/**
 * The fingerprint of the screen's rules (the source of `secrets.ts` up to
 * `redactSecrets`) that each {@link SECRET_SCREEN_VERSION} was released with.
 */
const RULES_FINGERPRINTS: Record<number, string> = {
  1: "09250345f54b9eaf",
  2: "afcd00cf91e654ee",
  3: "e6a261021c175f51",
  4: "85ae3c0a787a8cb0",
  5: "deeb8332faa39482",
  6: "bfa1bd4b9c9ffbb3",
};

Deno.test("the screen's rules do not change without a decision on SECRET_SCREEN_VERSION", async () => {
  const source = await Deno.readTextFile(new URL("./secrets.ts", import.meta.url));
  const rules = source.slice(0, source.indexOf("export function redactSecrets"));
  const { createHash } = await import("node:crypto");
  const fingerprint = createHash("sha256").update(rules).digest("hex").slice(0, 16);
  assert.equal(
    fingerprint,
    RULES_FINGERPRINTS[SECRET_SCREEN_VERSION],
    "the secret screen's rules changed. If they now find what they did not before (a new kind, " +
      "a wider pattern), bump SECRET_SCREEN_VERSION in src/files/secrets.ts, so that a writer " +
      "redacts once what older builds stored, and record this fingerprint under the new version " +
      "here; if they find the same (a comment, a refactor), record it under the current version.",
  );
});
