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
    s("azure_ad_client_secret", pick(3) + "8" + "Q~" + pick(34), (x) => `AZURE_CLIENT_SECRET=${x}`),
    s(
      "grafana_token",
      "gl" + "sa_" + pick(32) + "_" + pick(8, HEX),
      (x) => `curl -H "Authorization: Bearer ${x}" grafana.internal/api/dashboards`,
    ),
    s("grafana_token", "gl" + "c_" + pick(120, B64), (x) => `grafana_cloud_key: ${x}`),
    s("linear_key", "lin" + "_api_" + pick(40), (x) => `LINEAR ${x}`),
    s("doppler_token", "dp" + ".st." + "prd." + pick(43), (x) => `doppler run --token ${x}`),
    s("vault_token", "hv" + "s.CAES" + pick(90, ALNUM + "_-"), (x) => `vault login ${x}`),
    s("dockerhub_token", "dck" + "r_pat_" + pick(27), (x) => `docker login -u ci -p ${x}`),
    s("sentry_token", "sntr" + "yu_" + pick(64, HEX), (x) => `sentry-cli with ${x}`),
    s("atlassian_token", "ATA" + "TT3" + pick(180, ALNUM + "_-"), (x) => `jira api ${x}`),
    s("postman_key", "PM" + "AK-" + pick(24, HEX) + "-" + pick(34, HEX), (x) => `postman ${x}`),
    s(
      "newrelic_key",
      "NR" + "AK-" + pick(27, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
      (x) => `nr ${x}`,
    ),
    s("supabase_token", "sb" + "p_" + pick(40, HEX), (x) => `supabase login --token ${x}`),
    s("tailscale_key", "tsk" + "ey-auth-" + pick(12) + "-" + pick(33), (x) => `tailscale up ${x}`),
    s("groq_key", "gs" + "k_" + pick(52), (x) => `GROQ ${x}`),
    s("xai_key", "xa" + "i-" + pick(80), (x) => `XAI ${x}`),
    s("pulumi_token", "pu" + "l-" + pick(40, HEX), (x) => `pulumi login with ${x}`),
    s("terraform_token", pick(14) + ".atl" + "asv1." + pick(67), (x) => `tfc ${x}`),
    s("rubygems_key", "rubyg" + "ems_" + pick(48, HEX), (x) => `gem push with ${x}`),
    s("heroku_key", "HR" + "KU-AA" + pick(58), (x) => `heroku ${x}`),
    s("planetscale_token", "psca" + "le_tkn_" + pick(43), (x) => `pscale ${x}`),
    s("replicate_token", "r" + "8_" + pick(37), (x) => `replicate ${x}`),
    s("notion_token", "nt" + "n_" + pick(11, "0123456789") + pick(35), (x) => `notion ${x}`),
    s("sourcegraph_token", "sg" + "p_" + pick(16, HEX) + "_" + pick(40, HEX), (x) => `src ${x}`),
    s("flyio_token", "fm" + "2_" + pick(120, B64), (x) => `fly deploy -t "FlyV1 ${x}"`),
    s(
      "mapbox_secret_token",
      "s" + "k.eyJ" + pick(60, ALNUM + "_-") + "." + pick(22, ALNUM + "_-"),
      (x) => `mapbox ${x}`,
    ),
    s("openrouter_key", "sk-" + "or-v1-" + pick(64, HEX), (x) => `OPENROUTER ${x}`),
    s("onepassword_token", "op" + "s_eyJ" + pick(300, B64), (x) => `op ${x}`),
    s("buildkite_token", "bk" + "ua_" + pick(40, HEX), (x) => `buildkite ${x}`),
    s("circleci_token", "CCI" + "PAT_" + pick(22) + "_" + pick(40, HEX), (x) => `circleci ${x}`),
    s("contentful_token", "CF" + "PAT-" + pick(43), (x) => `contentful ${x}`),
    s("prefect_key", "pn" + "u_" + pick(36), (x) => `prefect ${x}`),
    s("mailchimp_key", pick(32, HEX) + "-" + "us14", (x) => `mailchimp ${x}`),
    // A service account's JSON inside a string (a Terraform variable): its newlines escaped twice.
    ((body) => ({
      kind: "private_key",
      secret: body[1]!,
      line:
        `credentials = "{\\"type\\": \\"service_account\\", \\"private_key\\": \\"-----BEGIN PRIVATE` +
        ` KEY-----\\\\n${body.join("\\\\n")}\\\\n-----END PRIVATE` + ` KEY-----\\\\n\\"}"`,
    }))(Array.from({ length: 4 }, () => pick(64, B64))),
    s("password_assignment", pick(12) + "!", (x) => `sshpass -p '${x}' ssh deploy@10.0.0.5 uptime`),
    s(
      "authorization_token",
      pick(40, HEX),
      (x) => `curl -H "Authorization: token ${x}" https://api.github.com/user/repos`,
    ),
  ];
}
