/**
 * Fake credentials of every kind the secret screen knows, for tests and the
 * fault suite. Each is assembled at run time from a seeded generator, so this
 * file holds none (and scanners, ours included, have nothing to find in it),
 * and each run plants the same ones.
 */

/** One planted secret: the line that carries it, and the part that must never be stored. */
export interface SecretSample {
  /** The kind {@link findSecrets} reports for it. */
  kind: string;
  /** A line as a person or a file would hold it. */
  line: string;
  /** The secret itself: grepping stored bytes for it must find nothing. */
  secret: string;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B64 = ALNUM + "+/";

/** Fake secrets from seed `seed` (each call with the same seed returns the same ones). */
export function secretSamples(seed = 12): SecretSample[] {
  let state = seed >>> 0;
  const rnd = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (n: number, alphabet = ALNUM) => {
    for (;;) {
      let s = "";
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
      // Mixed classes, as real tokens have; never a word a placeholder check knows.
      const mixed = [/[A-Z]/, /[a-z]/, /[0-9]/].every((c) => !c.test(alphabet) || c.test(s));
      if (mixed && !/test|fake|mock|your|todo|xxxx|pass|secret|token|example|dummy/i.test(s)) {
        return s;
      }
    }
  };
  const b64url = (o: unknown) =>
    btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const s = (kind: string, secret: string, line: (x: string) => string) => ({
    kind,
    secret,
    line: line(secret),
  });
  const pemBody = Array.from({ length: 6 }, () => pick(64, B64));
  const gcpBody = Array.from({ length: 4 }, () => pick(64, B64));
  const sshBody = Array.from({ length: 4 }, () => pick(70, B64));
  const awsId = "AK" + "IA" + pick(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
  const awsSecret = pick(40, B64);
  const awsAlone = pick(40, B64);
  const jwt = [
    b64url({ alg: "HS256", typ: "JWT" }),
    b64url({ sub: "user-" + pick(6), exp: 1893456000, scope: "admin" }),
    pick(43, ALNUM + "-_"),
  ].join(".");
  return [
    s("github_token", "gh" + "p_" + pick(36), (x) => `export GITHUB_TOKEN=${x}`),
    s("github_token", "github" + "_pat_" + pick(22) + "_" + pick(59), (x) => `gh auth with ${x}`),
    s("gitlab_token", "gl" + "pat-" + pick(20), (x) => `CI token: ${x}`),
    s("slack_token", "xo" + "xb-" + "1234567890-" + "9876543210-" + pick(24), (x) => `slack ${x}`),
    s(
      "slack_webhook",
      "https://hooks.slack" + ".com/services/T" + pick(8, "ABCDEFGHJK0123456789") + "/B" +
        pick(8, "ABCDEFGHJK0123456789") + "/" + pick(24),
      (x) => `curl -X POST ${x}`,
    ),
    s(
      "discord_webhook",
      "https://discord" + ".com/api/webhooks/" + "1234567890123456789/" + pick(68, ALNUM + "-_"),
      (x) => `notify ${x}`,
    ),
    s("stripe_live_key", "sk" + "_live_" + pick(24), (x) => `stripe.api_key = '${x}'`),
    s("stripe_webhook_secret", "wh" + "sec_" + pick(32), (x) => `webhook signing ${x}`),
    s("google_api_key", "AI" + "za" + pick(35), (x) => `maps key ${x}`),
    s("google_oauth_secret", "GOC" + "SPX-" + pick(28), (x) => `client_secret ${x}`),
    s("google_oauth_token", "ya" + "29." + pick(60, ALNUM + "-_"), (x) => `Bearer ${x}`),
    s("anthropic_key", "sk-" + "ant-api03-" + pick(80), (x) => `ANTHROPIC_API_KEY=${x}`),
    s("openai_key", "sk-" + "proj-" + pick(48), (x) => `OPENAI_API_KEY=${x}`),
    s("npm_token", "np" + "m_" + pick(36), (x) => `//registry.npmjs.org/:_authToken=${x}`),
    s("pypi_token", "py" + "pi-" + "AgEIcHlwaS5vcmc" + pick(70), (x) => `twine upload -p ${x}`),
    s("huggingface_token", "h" + "f_" + pick(34, ALNUM.slice(0, 52)) + "", (x) => `HF ${x}`),
    s("sendgrid_key", "S" + "G." + pick(22) + "." + pick(43), (x) => `SENDGRID ${x}`),
    s("twilio_api_key", "S" + "K" + pick(32, HEX), (x) => `twilio key ${x}`),
    s("digitalocean_token", "do" + "p_v1_" + pick(64, HEX), (x) => `doctl ${x}`),
    s("shopify_token", "shp" + "at_" + pick(32, HEX), (x) => `shopify ${x}`),
    s("square_token", "sq0" + "atp-" + pick(22), (x) => `square ${x}`),
    s("mailgun_key", "ke" + "y-" + pick(32, HEX), (x) => `mailgun ${x}`),
    // Databricks tokens have no marker of their own (see MARKERS): found by their name.
    s("secret_assignment", "da" + "pi" + pick(32, HEX), (x) => `DATABRICKS_TOKEN=${x}`),
    s("telegram_bot_token", "123456789" + ":A" + "A" + pick(33), (x) => `bot ${x}`),
    s(
      "azure_storage_key",
      pick(86, B64) + "==",
      (x) =>
        `DefaultEndpointsProtocol=https;AccountName=acme;Account` + `Key=${x};EndpointSuffix=core`,
    ),
    s("jwt", jwt, (x) => `Authorization: Bearer ${x}`),
    {
      kind: "private_key",
      secret: pemBody[2]!,
      line: `-----BEGIN RSA PRIVATE` + ` KEY-----\n${pemBody.join("\n")}\n-----END RSA PRIVATE` +
        ` KEY-----`,
    },
    {
      kind: "private_key",
      secret: sshBody[1]!,
      line: `-----BEGIN OPENSSH PRIVATE` + ` KEY-----\n${sshBody.join("\n")}\n-----END OPENSSH ` +
        `PRIVATE KEY-----`,
    },
    {
      kind: "private_key",
      secret: gcpBody[1]!,
      line: `{"type": "service_account", "private_key": "-----BEGIN PRIVATE` +
        ` KEY-----\\n${gcpBody.join("\\n")}\\n-----END PRIVATE` +
        ` KEY-----\\n", "client_email": "bot@acme.iam.gserviceaccount.com"}`,
    },
    {
      kind: "aws_access_key_id",
      secret: awsSecret,
      line: `[default]\naws_access_key_id = ${awsId}\naws_secret_access_key = ${awsSecret}`,
    },
    s("aws_secret_access_key", awsAlone, (x) => `AWS_SECRET_ACCESS_KEY=${x}`),
    s("url_password", pick(14), (x) => `DATABASE_URL=postgres://app:${x}@db.internal:5432/prod`),
    s("password_assignment", pick(12) + "#!", (x) => `DB_PASSWORD = "${x}"`),
    s("password_assignment", pick(11) + "%", (x) => `  passwd: ${x}`),
    s("password_assignment", pick(13) + "@", (x) => `{"client_secret": "${x}"}`),
    s("secret_assignment", pick(32), (x) => `apiKey := "${x}"`),
    s("secret_assignment", pick(40, ALNUM + "-_"), (x) => `const authToken = '${x}';`),
    s(
      "github_token",
      "gh" + "p_" + pick(36),
      (x) => `curl "https://api.example.org/?h=Authorization%3A%20token%20${x}"`,
    ),
    s("bearer_token", pick(40, ALNUM + "-_"), (x) => `curl -H "Authorization: Bearer ${x}" api`),
    s("basic_auth", btoa("ci-bot:" + pick(16)), (x) => `curl -H 'Authorization: Basic ${x}' host`),
    s("password_assignment", pick(12) + "!", (x) => `curl -u admin:${x} https://api.internal`),
    s("password_assignment", pick(12) + "%", (x) => `mysql -uroot -p${x} -e "select 1"`),
    s("password_assignment", pick(12) + "~", (x) => `    dataSource.setPassword("${x}");`),
    s("password_assignment", pick(12) + "*", (x) => `docker login -u ci --password ${x} reg.io`),
    s(
      "password_assignment",
      pick(12) + "#",
      (x) => `<server><id>nexus</id><username>ci</username><password>${x}</password></server>`,
    ),
    s("secret_assignment", pick(32), (x) => `<add key="StripeApiKey" value="${x}" />`),
    // A notebook's cell is code inside a JSON string: its quotes are escaped.
    s("password_assignment", pick(12) + "$", (x) => `    "db_password = \\"${x}\\"\\n",`),
    s("secret_assignment", pick(32), (x) => `app.secret_key = b'${x}'`),
    ((b64) => ({
      kind: "encoded_private_key",
      secret: b64.slice(80, 160),
      line: `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.key: ${b64}`,
    }))(
      btoa(
        `-----BEGIN RSA PRIVATE` + ` KEY-----\n${pemBody.join("\n")}\n-----END RSA PRIVATE` +
          ` KEY-----\n`,
      ),
    ),
    ((body) => ({
      kind: "private_key",
      secret: body[1]!,
      line: `-----BEGIN PGP PRIVATE` +
        ` KEY BLOCK-----\nVersion: GnuPG v2\n\n${body.join("\n")}\n=${
          pick(4)
        }\n-----END PGP PRIVATE` + ` KEY BLOCK-----`,
    }))(Array.from({ length: 4 }, () => pick(64, B64))),
  ];
}
