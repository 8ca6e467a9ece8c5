/**
 * Every sign-in flow through the one `SignInFlow` contract, driven by one table: a row per flow
 * (OAuth 2.0 / OpenID Connect against the real dev IdP, email, credentials, OAuth 1.0a against
 * the simulated provider, WebAuthn with the software authenticator, password accounts), each with its providers
 * built the way an app builds them, and the same assertions for every row: a broken
 * configuration is refused naming the option, the adapter the flow needs is checked at start,
 * the provider is listed and drawn, a sign-in over HTTP through `Auth()` ends in a session, and a
 * tampered callback ends on an error page; each sends its one audit event, and no audit event of
 * the whole table carries a secret value the table used.
 */
import { MemoryAdapter } from "@portcullis/adapter-memory"
import { simulateOAuth1Provider, type SimulatedOAuth1Provider } from "@portcullis/providers/testing-oauth1.js"
import { parseForms } from "@portcullis/test-kit/browser"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterMethod } from "../src/adapters.js"
import { resolveConfig } from "../src/config/config.js"
import type { AuthErrorCode } from "../src/errors/errors.js"
import { oauth1 } from "../src/oauth1/index.js"
import { credentials } from "../src/credentials/index.js"
import { emailProvider } from "../src/email/index.js"
import { oauthProvider as oauthFactory } from "../src/oauth/index.js"
import { FLOW, lazyFlow, type ProviderConfig, type SendVerificationRequestParams, type SignInFlow } from "../src/providers/index.js"
import type { AuditEvent, AuditReason, AuthConfig, SessionStrategy } from "../src/types.js"
import { webauthnFlow } from "../src/webauthn/index.js"
import { APP, CLIENT, Harness, SECRET as E2E_SECRET, e2eConfig, idpProvider, oauthProvider, useIdp } from "./e2e/harness.js"
import { Jar, ORIGIN, PASSWORD, SECRET, call, csrfToken, location, passwordProvider } from "./helpers.js"
import { FLAGS, SoftAuthenticator, b64url, cbor, fromB64url } from "./webauthn/authenticator.js"
import { sealFactorSecret } from "../src/factors/sealed-secret.js"
import { newTotpSecret, totpCode, totpStep } from "../src/factors/totp.js"
import { options, post } from "./webauthn/harness.js"
import { hashPassword } from "../src/password/hash.js"
import { passwordProviderConfig } from "./password/harness.js"

// The password row's hashes at a fraction of scrypt's cost: the flow is what this table drives.
vi.mock("../src/password/scrypt.js", async (original) => (await import("./password/cheap-scrypt.js")).cheapScrypt(original))

/** The request that completes a sign-in, as a driver is about to send it: a test may tamper with it. */
interface CallbackRequest {
  url: string
  form?: URLSearchParams
}

type Tamper = (callback: CallbackRequest) => CallbackRequest

/** A provider of the row's flow, built the way an app builds it. */
interface Variant {
  label: string
  build: () => ProviderConfig
  /** Written by hand, carrying no flow: core's registry finds its flow by `type`. */
  viaRegistry?: true
  /** The flow's code, and so the provider's configuration check, is fetched on the first sign-in. */
  configuredOnFirstUse?: true
}

interface FlowRow {
  flow: string
  variants: Variant[]
  /** A broken configuration (one option set to `value`), and the message it is refused with. */
  broken: { option: string; value: unknown; message: RegExp }
  adapter: {
    /** Whether `Auth()` refuses the flow without an adapter (the flow's `needsAdapter`). */
    needed: boolean
    /** The session strategy under which the flow calls `methods`. */
    strategy: SessionStrategy
    /** The adapter methods whose absence `Auth()` must refuse at start. */
    methods: readonly AdapterMethod[]
  }
  /**
   * What the built-in sign-in page draws (a button, an email field, the provider's fields, or the
   * passkey control), and the route the flow's `postsTo` names for its form.
   */
  page: { kind: "button" | "email" | "fields" | "passkey"; fields?: string[]; postsTo: "signin" | "callback" }
  /** What must exist before the sign-in (a passkey registered): not counted as the sign-in. */
  prepare?: (config: AuthConfig) => Promise<void>
  /** Completes a sign-in over HTTP through `Auth()`, and answers the callback's response. */
  signIn: (config: AuthConfig, jar: Jar, tamper?: Tamper) => Promise<Response>
  /** The email of the user the sign-in ends with. */
  email: string
  /** The session's assurance after the sign-in: its level and the way in's methods (issue 37). */
  assurance: { level: 1 | 2; methods: string[] }
  /** A change to the callback request, the error it must end on, and the audit reason of that failure. */
  tamper: { change: Tamper; error: AuthErrorCode; reason: AuditReason }
  /** The audit events a sign-in sends before its `signIn` (the email flow's link request). */
  before?: AuditEvent["type"][]
}

/** Every audit event any configuration of the table sent, for the scan for secrets at the end. */
const audited: AuditEvent[] = []
/**
 * Every value the table sent or was sent that an audit event must never carry: the secrets it
 * configured, each callback URL's query values and form fields, and every cookie value the
 * browser held. Collected as the requests are sent.
 */
const used = new Set<string>([SECRET, CLIENT.secret, PASSWORD])

/** Keeps the values of a request and of the cookies the browser holds, for the scan. */
function keepUsed(jar: Jar, callback: CallbackRequest): void {
  for (const value of new URL(callback.url, ORIGIN).searchParams.values()) used.add(value)
  used.add(new URL(callback.url, ORIGIN).search)
  for (const value of callback.form?.values() ?? []) used.add(value)
  for (const value of jar.cookies.values()) used.add(value)
}

/** The adapter methods database sessions call, whatever the flow. */
const SESSION_METHODS: AdapterMethod[] = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"]
/** The adapter methods a sign-in with a provider's account calls (OAuth 2.0, OAuth 1.0a). */
const ACCOUNT_METHODS: AdapterMethod[] = ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "deleteUser", "linkAccount"]

/** The one provider of a table configuration. */
function providerOf(config: AuthConfig): { id: string; name: string; type: string } {
  return config.providers[0] as { id: string; name: string; type: string }
}

/** Sends the callback request, changed by `tamper` when given. */
function send(config: AuthConfig, jar: Jar, callback: CallbackRequest, tamper?: Tamper): Promise<Response> {
  const sent = tamper === undefined ? callback : tamper(callback)
  keepUsed(jar, sent)
  return call(config, jar, sent.url, sent.form === undefined ? {} : { form: sent.form })
}

/** Posts a provider's sign-in form (`POST /signin/:id`) with a valid CSRF token. */
async function startSignIn(config: AuthConfig, jar: Jar): Promise<Response> {
  return call(config, jar, `/api/auth/signin/${providerOf(config).id}`, { form: { csrfToken: await csrfToken(config, jar), callbackUrl: "/after" } })
}

/** The built-in sign-in page's form (the configuration's one provider), filled in with `values`, as the browser would post it. */
async function pageForm(config: AuthConfig, jar: Jar, values: Record<string, string> = {}): Promise<CallbackRequest> {
  const [form] = parseForms(await (await call(config, jar, "/api/auth/signin?callbackUrl=%2Fafter")).text())
  if (form?.action === undefined) throw new Error("the sign-in page has no form that posts")
  const posted = new URLSearchParams()
  for (const control of form.controls) if (control.type === "hidden") posted.set(control.name, control.values[0] ?? "")
  for (const [name, value] of Object.entries(values)) posted.set(name, value)
  return { url: form.action, form: posted }
}

/** The same URL with one query parameter changed. */
function withParam(url: string, name: string, value: string): string {
  const changed = new URL(url, ORIGIN)
  changed.searchParams.set(name, value)
  return changed.href
}

/** The same form with one field changed. */
function withField(form: URLSearchParams | undefined, name: string, value: string): URLSearchParams {
  const changed = new URLSearchParams(form)
  changed.set(name, value)
  return changed
}

// --- OAuth 2.0 / OpenID Connect: the real dev IdP on 127.0.0.1 ---------------------------------

const idp = useIdp()

const oauthRow: FlowRow = {
  flow: "OAuth 2.0 / OIDC",
  variants: [
    { label: "hand-written", viaRegistry: true, build: () => idpProvider(idp()) },
    // As a provider factory builds it (GitHub, Google): its defaults and the app's options merged, carrying the flow.
    { label: "from a factory", build: () => oauthFactory(oauthProvider(idp()), { clientId: CLIENT.id, clientSecret: CLIENT.secret }) },
  ],
  broken: { option: "checks", value: ["pkce", "magic"], message: /^Configuration: `providers\["[\w-]+"\]\.checks` has "magic"/ },
  adapter: { needed: false, strategy: "jwt", methods: ACCOUNT_METHODS },
  page: { kind: "button", postsTo: "signin" },
  async signIn(config, jar, tamper) {
    // The person signs in at the IdP in a browser; the callback it is sent back with is replayed through `jar`.
    const harness = new Harness(config)
    const callback = await harness.holdCallback(providerOf(config).id)
    for (const cookie of harness.browser.cookies(APP)) jar.cookies.set(cookie.name, cookie.value)
    return send(config, jar, { url: callback.href }, tamper)
  },
  email: "alice@example.com",
  assurance: { level: 1, methods: ["fed"] },
  tamper: { change: ({ url }) => ({ url: withParam(url, "state", "forged-state") }), error: "InvalidCheck", reason: "invalidRequest" },
}

// --- Email: the link captured from sendVerificationRequest ---------------------------------------

/** Every sign-in link the email providers were asked to send. */
const outbox: SendVerificationRequestParams[] = []
const emailOptions = {
  from: "Sign-in <no-reply@app.example>",
  sendVerificationRequest: (params: SendVerificationRequestParams) => {
    outbox.push(params)
  },
}

const emailRow: FlowRow = {
  flow: "email",
  variants: [
    { label: "hand-written", viaRegistry: true, build: () => ({ id: "email", name: "Email", type: "email", ...emailOptions }) },
    // As Email() builds it.
    { label: "from a factory", build: () => emailProvider({ id: "email", name: "Email" }, emailOptions) },
  ],
  broken: { option: "sendVerificationRequest", value: "smtp://localhost", message: /^Configuration: `providers\["email"\]\.sendVerificationRequest` must be a function/ },
  adapter: { needed: true, strategy: "jwt", methods: ["createVerificationToken", "useVerificationToken", "createUser", "getUserByEmail", "updateUser"] },
  page: { kind: "email", postsTo: "signin" },
  async signIn(config, jar, tamper) {
    outbox.length = 0
    await send(config, jar, await pageForm(config, jar, { email: "ada@example.com" }))
    const [sent] = outbox
    if (sent === undefined) throw new Error("no sign-in link was sent")
    used.add(sent.token)
    keepUsed(jar, { url: sent.url })
    // The link opens a confirmation page, whose button (a POST) signs in.
    const [confirm] = parseForms(await (await call(config, jar, sent.url)).text())
    if (confirm?.action === undefined) throw new Error("the link opened no confirmation form")
    const form = new URLSearchParams()
    for (const control of confirm.controls) if (control.type === "hidden") form.set(control.name, control.values[0] ?? "")
    return send(config, jar, { url: confirm.action, form }, tamper)
  },
  email: "ada@example.com",
  assurance: { level: 1, methods: ["email"] },
  tamper: { change: ({ url, form }) => ({ url, form: withField(form, "token", "forged-token-forged-token-forged-token-for") }), error: "Verification", reason: "invalidCode" },
  before: ["emailLinkRequest"],
}

// --- Credentials ---------------------------------------------------------------------------------

const credentialsRow: FlowRow = {
  flow: "credentials",
  variants: [
    { label: "hand-written", viaRegistry: true, build: () => passwordProvider() },
    // As Credentials() builds it.
    { label: "from a factory", build: () => ({ ...passwordProvider(), [FLOW]: credentials }) },
  ],
  broken: { option: "authorize", value: "users.check", message: /^Configuration: `providers\["credentials"\]\.authorize` must be a function/ },
  // With database sessions the session must point at a user the adapter has.
  adapter: { needed: false, strategy: "database", methods: ["getUser"] },
  page: { kind: "fields", fields: ["username", "password"], postsTo: "callback" },
  // The page's form is the sign-in.
  signIn: async (config, jar, tamper) => send(config, jar, await pageForm(config, jar, { username: "ada", password: PASSWORD }), tamper),
  email: "ada@example.com",
  assurance: { level: 1, methods: ["pwd"] },
  tamper: { change: ({ url, form }) => ({ url, form: withField(form, "password", `${PASSWORD}!`) }), error: "CredentialsSignin", reason: "invalidCredentials" },
}

// --- OAuth 1.0a: the simulated provider, reached through a stubbed fetch --------------------------

const x = {
  endpoints: {
    requestTokenUrl: "https://api.x.example/oauth/request_token",
    authorization: "https://api.x.example/oauth/authenticate",
    accessTokenUrl: "https://api.x.example/oauth/access_token",
    profileUrl: "https://api.x.example/1.1/account/verify_credentials.json",
  },
  client: { consumerKey: "x-api-key", consumerSecret: "x-consumer-secret-3c7d1f" },
  profile: { id: 1532781650112634880, id_str: "1532781650112634880", name: "Marta Ribeiro", screen_name: "marta", email: "marta@example.dev" },
}
let simulator: SimulatedOAuth1Provider | undefined

beforeAll(async () => {
  simulator = await simulateOAuth1Provider(x.endpoints, x.client, x.profile)
  // The simulator answers X's https URLs; loopback requests (the dev IdP) go out as they are.
  vi.stubGlobal("fetch", simulator.fetch)
})

afterAll(async () => {
  vi.unstubAllGlobals()
  await simulator?.close()
})

function xProvider(flow: SignInFlow): ProviderConfig {
  return { id: "twitter", name: "X", type: "oauth", clientId: x.client.consumerKey, clientSecret: x.client.consumerSecret, ...x.endpoints, [FLOW]: flow }
}

const oauth1Row: FlowRow = {
  flow: "OAuth 1.0a",
  variants: [
    { label: "carrying the flow", build: () => xProvider(oauth1 as SignInFlow) },
    {
      // As Twitter({ version: "1.0A" }) builds it.
      label: "flow fetched on first use",
      build: () => xProvider(lazyFlow({ name: "OAuth 1.0a", load: () => import("../src/oauth1/index.js").then((module) => module.oauth1 as unknown as SignInFlow<never>), adapterMethods: ACCOUNT_METHODS }) as SignInFlow),
      configuredOnFirstUse: true,
    },
  ],
  broken: {
    option: "requestTokenUrl",
    value: "http://api.x.example/oauth/request_token",
    message: /^Configuration: `providers\["twitter"\]\.requestTokenUrl` must use https/,
  },
  adapter: { needed: false, strategy: "jwt", methods: ACCOUNT_METHODS },
  page: { kind: "button", postsTo: "signin" },
  async signIn(config, jar, tamper) {
    const started = await send(config, jar, await pageForm(config, jar))
    // The person approves at X, which sends the browser back with the verifier.
    const callback = (simulator as SimulatedOAuth1Provider).authorize(location(started))
    return send(config, jar, { url: callback }, tamper)
  },
  email: x.profile.email,
  assurance: { level: 1, methods: ["fed"] },
  tamper: { change: ({ url }) => ({ url: withParam(url, "oauth_token", "forged-request-token") }), error: "InvalidCheck", reason: "invalidRequest" },
}

// --- WebAuthn: the software authenticator --------------------------------------------------------

const device = new SoftAuthenticator(ORIGIN)
const PASSKEY_EMAIL = "grace@example.com"

const webauthnRow: FlowRow = {
  flow: "WebAuthn",
  variants: [
    {
      // As Passkey() builds it.
      label: "carrying the flow",
      build: () => ({
        formFields: { email: { label: "Email", required: true, autocomplete: "username webauthn" } },
        userVerification: "required",
        enableConditionalUI: true,
        id: "passkey",
        name: "Passkey",
        type: "webauthn",
        ...webauthnFlow,
      }),
    },
  ],
  broken: { option: "userVerification", value: "always", message: /^Configuration: `providers\["passkey"\]\.userVerification` must be/ },
  adapter: {
    needed: true,
    strategy: "jwt",
    methods: [
      "getUser",
      "getUserByEmail",
      "getUserByAccount",
      "createUser",
      "deleteUser",
      "linkAccount",
      "createVerificationToken",
      "useVerificationToken",
      "createAuthenticator",
      "getAuthenticator",
      "listAuthenticatorsByUserId",
      "updateAuthenticatorCounter",
    ],
  },
  // A passkey starts in the browser: a form posted to `/signin/:id` gets the sign-in page.
  page: { kind: "passkey", postsTo: "signin" },
  async prepare(config) {
    // A sign-up with a new passkey, in another browser.
    const jar = new Jar()
    const { options: creation } = await options(config, jar, `?action=register&email=${encodeURIComponent(PASSKEY_EMAIL)}`)
    const registered = await post(config, jar, "register", await device.create(creation))
    expect(registered.status).toBe(302)
  },
  async signIn(config, jar, tamper) {
    const { options: request } = await options(config, jar, "?action=authenticate")
    const data = JSON.stringify(await device.get(request))
    const form = new URLSearchParams({ action: "authenticate", data, csrfToken: await csrfToken(config, jar), callbackUrl: `${ORIGIN}/after` })
    return send(config, jar, { url: `/api/auth/callback/${providerOf(config).id}`, form }, tamper)
  },
  email: PASSKEY_EMAIL,
  // userVerification "required": the authenticator verified the user (WebAuthn §6.2.3), so one passkey is two factors.
  assurance: { level: 2, methods: ["hwk", "user"] },
  tamper: {
    // One bit of the assertion's signature flipped.
    change: ({ url, form }) => {
      const data = JSON.parse(form?.get("data") ?? "{}") as { response: { signature: string } }
      const signature = fromB64url(data.response.signature)
      signature[signature.length - 1] = (signature.at(-1) ?? 0) ^ 1
      data.response.signature = b64url(signature)
      return { url, form: withField(form, "data", JSON.stringify(data)) }
    },
    error: "WebAuthnVerificationError",
    reason: "invalidCredentials",
  },
}

// --- Password accounts: a confirmed user with a stored hash, the page's form ------------------------

const passwordRow: FlowRow = {
  flow: "password",
  // `Password()` carries its flow: its `type` is "credentials", whose built-in flow is another.
  variants: [{ label: "from a factory", build: () => passwordProviderConfig() }],
  broken: { option: "requireEmailVerification", value: "yes", message: /^Configuration: `providers\["password"\]\.requireEmailVerification` must be a boolean/ },
  adapter: {
    needed: true,
    strategy: "jwt",
    methods: ["getUser", "getUserByEmail", "createUser", "updateUser", "deleteUser", "createVerificationToken", "useVerificationToken", "createSessionRecord", "getSessionRecord", "listSessionRecords", "updateSessionRecord", "useOnce", "getPasswordHash", "setPasswordHash"],
  },
  page: { kind: "fields", fields: ["email", "password"], postsTo: "callback" },
  async prepare(config) {
    const adapter = config.adapter as Required<Adapter>
    const user = await adapter.createUser({ id: crypto.randomUUID(), name: "Pat Okafor", email: "pat@example.com", emailVerified: new Date() })
    await adapter.setPasswordHash(user.id, await hashPassword(PASSWORD))
  },
  signIn: async (config, jar, tamper) => send(config, jar, await pageForm(config, jar, { email: "pat@example.com", password: PASSWORD }), tamper),
  email: "pat@example.com",
  assurance: { level: 1, methods: ["pwd"] },
  tamper: { change: ({ url, form }) => ({ url, form: withField(form, "password", `${PASSWORD}!`) }), error: "CredentialsSignin", reason: "invalidCredentials" },
}

const rows: FlowRow[] = [oauthRow, emailRow, credentialsRow, oauth1Row, webauthnRow, passwordRow]

// --- The same assertions for every row -----------------------------------------------------------

interface TableConfig extends AuthConfig {
  /** What the logger was handed, as `code: message`. */
  errors: string[]
  /** Every `signIn` event. */
  signIns: { user: { email?: string | null } }[]
  /** Every audit event. */
  audits: AuditEvent[]
}

function tableConfig(row: FlowRow, provider: ProviderConfig, overrides: Partial<AuthConfig> = {}): TableConfig {
  const signIns: TableConfig["signIns"] = []
  const audits: AuditEvent[] = []
  const config = e2eConfig([provider], {
    ...(row.adapter.needed ? { adapter: MemoryAdapter() } : {}),
    events: {
      signIn: (message) => {
        signIns.push(message)
      },
      audit: (event) => {
        audits.push(event)
        audited.push(event)
      },
    },
    ...overrides,
  })
  return { ...config, signIns, audits }
}

/** An adapter with only `methods`. */
function adapterWith(methods: Iterable<AdapterMethod>): Adapter {
  const memory = MemoryAdapter()
  return Object.fromEntries([...methods].map((method) => [method, memory[method]]))
}

const cases = rows.flatMap((row) => row.variants.map((variant) => ({ name: `${row.flow}, ${variant.label}`, row, variant })))

describe.each(cases)("$name", ({ row, variant }) => {
  it("refuses the broken configuration with a message naming the option", async () => {
    const { option, value, message } = row.broken
    const config = tableConfig(row, { ...variant.build(), [option]: value })
    const listed = await call(config, new Jar(), "/api/auth/providers")
    if (variant.configuredOnFirstUse === true) {
      // The flow's code, and its check, arrive with the first sign-in: that sign-in is refused.
      expect(listed.status).toBe(200)
      const started = await startSignIn(config, new Jar())
      expect(started.status).toBe(302)
      expect(location(started).searchParams.get("error")).toBe("Configuration")
    } else {
      expect(listed.status).toBe(503)
      expect(await listed.json()).toMatchObject({ error: "Configuration" })
    }
    const refusal = config.errors.find((error) => error.startsWith("Configuration: "))
    expect(refusal).toMatch(message)
    expect(refusal).toContain(`.${option}\``)
  })

  it("checks at start the adapter methods the flow calls, naming a missing one", async () => {
    const session = { strategy: row.adapter.strategy }
    const all = new Set([...row.adapter.methods, ...(row.adapter.strategy === "database" ? SESSION_METHODS : [])])
    const accepted = tableConfig(row, variant.build(), { adapter: adapterWith(all), session })
    expect((await call(accepted, new Jar(), "/api/auth/providers")).status).toBe(200)
    for (const method of row.adapter.methods) {
      const config = tableConfig(row, variant.build(), { adapter: adapterWith([...all].filter((kept) => kept !== method)), session })
      expect((await call(config, new Jar(), "/api/auth/providers")).status, `without ${method}`).toBe(503)
      expect(config.errors).toEqual([`Configuration: The \`adapter\` is missing methods this configuration calls: ${method}.`])
    }
    const { id } = providerOf(accepted)
    const withoutAdapter = tableConfig(row, variant.build(), { adapter: undefined, session: { strategy: "jwt" } })
    const answered = await call(withoutAdapter, new Jar(), "/api/auth/providers")
    if (row.adapter.needed) {
      expect(answered.status).toBe(503)
      expect(withoutAdapter.errors).toEqual([expect.stringMatching(new RegExp(`^Configuration: Provider "${id}" needs an \`adapter\` `))])
    } else {
      expect(answered.status).toBe(200)
    }
  })

  it("is listed by GET /providers with its declared type", async () => {
    const provider = variant.build()
    const { id, name, type } = providerOf({ providers: [provider] })
    expect(typeof (provider as { [FLOW]?: unknown })[FLOW], "the flow the provider carries").toBe(variant.viaRegistry === true ? "undefined" : "object")
    const listed: unknown = await (await call(tableConfig(row, provider), new Jar(), "/api/auth/providers")).json()
    expect(listed).toEqual({ [id]: { id, name, type, signinUrl: `${ORIGIN}/api/auth/signin/${id}`, callbackUrl: `${ORIGIN}/api/auth/callback/${id}` } })
  })

  it("is drawn on the built-in sign-in page, posting where its flow says", async () => {
    const config = tableConfig(row, variant.build())
    const { id, name } = providerOf(config)
    const flow = (await resolveConfig(config)).providersById.get(id)?.flow
    expect(flow?.postsTo ?? "signin").toBe(row.page.postsTo)
    const route = `${ORIGIN}/api/auth/${row.page.postsTo}/${id}`
    const page = await call(config, new Jar(), "/api/auth/signin")
    expect(page.status).toBe(200)
    const html = await page.text()
    const forms = parseForms(html)
    expect(forms).toHaveLength(1)
    const [form] = forms
    const shown = form?.controls.filter((control) => control.tag === "input" && control.type !== "hidden").map((control) => control.name)
    if (row.page.kind === "passkey") {
      // The control runs the ceremony with its script (served here, admitted by the page's policy), not by posting the form.
      expect(html).toContain(`data-passkey-provider="${id}"`)
      expect(html).toContain(`<script src="/api/auth/webauthn-script/${id}"`)
      expect(form?.action).toBeUndefined()
      expect(shown).toEqual(["email"])
      expect(form?.controls.find((control) => control.attributes["data-passkey-action"] === "authenticate")?.text).toBe(`Sign in with ${name}`)
      // The control's form posted without the script, to the route `postsTo` names, gets this page again.
      const jar = new Jar()
      const posted = await call(config, jar, route, { form: { csrfToken: await csrfToken(config, jar), callbackUrl: "/after" } })
      expect(posted.status).toBe(302)
      expect(location(posted).pathname).toBe("/api/auth/signin")
      expect(location(posted).searchParams.has("error")).toBe(false)
    } else {
      expect([form?.method, form?.action]).toEqual(["POST", route])
      expect(shown).toEqual(row.page.kind === "button" ? [] : row.page.kind === "email" ? ["email"] : row.page.fields)
      expect(form?.controls.find((control) => control.type === "submit")?.text).toBe(`Sign in with ${name}`)
    }
  })

  it("signs in over HTTP to a session, sending the signIn event and its audit event once (ASVS V16.3.1)", async () => {
    const config = tableConfig(row, variant.build())
    await row.prepare?.(config)
    const before = config.signIns.length
    const auditedBefore = config.audits.length
    const jar = new Jar()
    const response = await row.signIn(config, jar)
    keepUsed(jar, { url: "/" })
    expect(response.status).toBe(302)
    expect(location(response).origin).toBe(ORIGIN)
    expect(location(response).searchParams.get("error")).toBeNull()
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { email: row.email }, assurance: row.assurance })
    expect(config.signIns.length - before).toBe(1)
    expect(config.signIns.at(-1)).toMatchObject({ user: { email: row.email } })
    expect(config.errors).toEqual([])
    // The one audit event of each operation: the sign-in's success, naming its user, provider and methods (ASVS V16.3.1, V16.2.1).
    const events = config.audits.slice(auditedBefore)
    expect(events.map((event) => [event.type, event.outcome])).toEqual([...(row.before ?? []).map((type) => [type, "success"]), ["signIn", "success"]])
    const session = (await (await call(config, jar, "/api/auth/session")).json()) as { user: { id: string } }
    expect(events.at(-1)).toEqual({ type: "signIn", outcome: "success", userId: session.user.id, provider: providerOf(config).id, methods: row.assurance.methods, at: expect.any(Number) as number })
  })

  it("refuses a tampered callback with a redirect to an error page, never a 500, audited as a failure (ASVS V16.3.1)", async () => {
    const config = tableConfig(row, variant.build())
    await row.prepare?.(config)
    const before = config.signIns.length
    const auditedBefore = config.audits.length
    const jar = new Jar()
    const response = await row.signIn(config, jar, row.tamper.change)
    keepUsed(jar, { url: "/" })
    expect(response.status).toBe(302)
    const to = location(response)
    expect(to.origin).toBe(ORIGIN)
    expect(["/api/auth/error", "/api/auth/signin"]).toContain(to.pathname)
    expect(to.searchParams.get("error")).toBe(row.tamper.error)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    expect(config.signIns.length).toBe(before)
    // A failure is audited too, once, with the reason its error's code maps to (ASVS V16.3.1).
    const events = config.audits.slice(auditedBefore)
    expect(events.map((event) => [event.type, event.outcome])).toEqual([...(row.before ?? []).map((type) => [type, "success"]), ["signIn", "failure"]])
    expect(events.at(-1)).toEqual({ type: "signIn", outcome: "failure", reason: row.tamper.reason, provider: providerOf(config).id, at: expect.any(Number) as number })
  })
})

// --- Every way in behind the second factor (issue 37) -----------------------------------------------

/**
 * A memory adapter in which every user has a confirmed TOTP factor under `secret`, made the first
 * time the factors of a user are asked for: the flows create their users as they sign in.
 */
function everyoneWithTotp(seed: Parameters<typeof MemoryAdapter>[0] = {}): { adapter: Adapter; secret: Uint8Array<ArrayBuffer> } {
  const secret = newTotpSecret()
  const memory = MemoryAdapter(seed)
  const listAuthFactors = async (userId: string) => {
    const factors = await memory.listAuthFactors(userId)
    if (factors.some((factor) => factor.type === "totp")) return factors
    await memory.createAuthFactor({ id: `totp-${userId}`, userId, type: "totp", secret: await sealFactorSecret([E2E_SECRET], secret, userId), createdAt: new Date(), confirmedAt: new Date() })
    return memory.listAuthFactors(userId)
  }
  return { adapter: { ...memory, listAuthFactors }, secret }
}

/** A passkey provider that does not ask the authenticator to verify its user. */
function passkeyWithoutUv(): ProviderConfig {
  const built = webauthnRow.variants[0]?.build() ?? ({} as ProviderConfig)
  return { ...built, userVerification: "preferred" } as ProviderConfig
}

const UP_ONLY = FLAGS.UP | FLAGS.BE | FLAGS.BS

/** The ways in the gate must hold: every flow, the passkey signing in without user verification. */
const gated: { name: string; row: FlowRow; build: () => ProviderConfig; signIn: FlowRow["signIn"] }[] = [
  ...[oauthRow, oauth1Row, emailRow, credentialsRow, passwordRow].map((row) => ({ name: row.flow, row, build: () => (row.variants[0] as Variant).build(), signIn: row.signIn })),
  {
    name: "passkey without user verification",
    row: { ...webauthnRow, assurance: { level: 1, methods: ["hwk"] } },
    build: passkeyWithoutUv,
    async signIn(config, jar) {
      const { options: request } = await options(config, jar, "?action=authenticate")
      const form = new URLSearchParams({ action: "authenticate", data: JSON.stringify(await device.get(request, { flags: UP_ONLY })), csrfToken: await csrfToken(config, jar), callbackUrl: `${ORIGIN}/after` })
      return send(config, jar, { url: "/api/auth/callback/passkey", form })
    },
  },
]

interface GatedConfig extends TableConfig {
  jwtSignIns: { trigger: string | undefined; account: unknown; profile: unknown }[]
}

function gatedConfig(row: FlowRow, provider: ProviderConfig, strategy: SessionStrategy): { config: GatedConfig; secret: Uint8Array<ArrayBuffer>; adapter: Adapter } {
  // The credentials user, whom database sessions need the adapter to know; the email flow signs in the same address.
  const seed = row === credentialsRow ? { users: [{ id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }] } : {}
  const { adapter, secret } = everyoneWithTotp(seed)
  const jwtSignIns: GatedConfig["jwtSignIns"] = []
  const config = tableConfig(row, provider, {
    adapter,
    mfa: {},
    session: { strategy },
    callbacks: {
      jwt: ({ token, trigger, account, profile }) => {
        if (trigger === "signIn" || trigger === "signUp") jwtSignIns.push({ trigger, account, profile })
        return token
      },
    },
  })
  return { config: { ...config, jwtSignIns }, secret, adapter }
}

function sessionCookies(jar: Jar): string[] {
  return [...jar.cookies.keys()].filter((name) => name.includes("session-token"))
}

describe.each(gated.flatMap((way) => (["jwt", "database"] as const).map((strategy) => ({ ...way, strategy }))))("V6.3.3, V6.3.4: $name, $strategy sessions, for a user with a TOTP factor", ({ row, build, signIn, strategy }) => {
  it("ends in a pending state: no session, no record, no signIn event, no jwt sign-in; the code then signs in once at level 2", async () => {
    const { config, secret, adapter } = gatedConfig(row, build(), strategy)
    await row.prepare?.(config)
    // A passkey's sign-up in `prepare` is a sign-in of its own (with user verification): not this one.
    config.jwtSignIns.length = 0
    const signInsBefore = config.signIns.length
    const auditsBefore = config.audits.length
    const jar = new Jar()
    const response = await signIn(config, jar)
    keepUsed(jar, { url: "/" })
    expect(location(response).href).toBe(`${ORIGIN}/api/auth/mfa`)
    expect(sessionCookies(jar)).toEqual([])
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    expect(config.signIns.length).toBe(signInsBefore)
    expect(config.jwtSignIns).toEqual([])
    const pending = config.audits.slice(auditsBefore).at(-1)
    expect(pending).toMatchObject({ type: "signIn", outcome: "pending", provider: providerOf(config).id, methods: row.assurance.methods })
    const userId = pending?.userId ?? ""
    // No record for this sign-in (a passkey's sign-up in `prepare` made the one before).
    expect((await adapter.listSessionRecords?.({ userId }))?.length).toBe(signInsBefore)
    expect(await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["totp"] })

    const code = await totpCode(secret, totpStep())
    used.add(code)
    const near = await Promise.all([-1, 1].map((offset) => totpCode(secret, totpStep() + offset)))
    const wrong = ["000000", "111111", "222222", "333333"].find((candidate) => candidate !== code && !near.includes(candidate)) ?? ""
    const refused = await call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "totp", code: wrong } })
    expect(location(refused).href).toBe(`${ORIGIN}/api/auth/mfa?error=invalidCode`)
    expect(sessionCookies(jar)).toEqual([])
    const verified = await call(config, jar, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, jar), factor: "totp", code } })
    keepUsed(jar, { url: "/" })
    expect(verified.status).toBe(303)
    // Where the first factor would have sent the browser (the IdP harness asks for /protected).
    expect(location(verified).href).toBe(`${ORIGIN}${row === oauthRow ? "/protected" : "/after"}`)
    const session = (await (await call(config, jar, "/api/auth/session")).json()) as { user: { id: string; email: string }; assurance: { level: number; methods: string[] } }
    expect(session).toMatchObject({ user: { email: row.email }, assurance: { level: 2, methods: [...row.assurance.methods, "otp", "mfa"] } })
    expect(config.signIns.length - signInsBefore).toBe(1)
    expect((await adapter.listSessionRecords?.({ userId }))?.length).toBe(signInsBefore + 1)
    if (strategy === "jwt") {
      // The app's jwt callback sees the one sign-in, after the second factor, with the first factor's account and profile.
      expect(config.jwtSignIns).toHaveLength(1)
      expect(config.jwtSignIns[0]?.account).toEqual((config.signIns.at(-1) as { account?: unknown }).account)
      if (row === oauthRow) expect(config.jwtSignIns[0]).toMatchObject({ account: { provider: providerOf(config).id, access_token: expect.any(String) as string }, profile: { email: row.email } })
    }
    expect(config.audits.slice(auditsBefore).map((event) => [event.type, event.outcome])).toEqual([
      ...(row.before ?? []).map((type) => [type, "success"]),
      ["signIn", "pending"],
      ["secondFactor", "failure"],
      ["secondFactor", "success"],
      ["signIn", "success"],
    ])
    // The same code again is a replayed step, whatever the pending state (ASVS V6.5.1).
    const again = new Jar()
    await signIn(config, again)
    const replay = await call(config, again, "/api/auth/mfa/verify", { form: { csrfToken: await csrfToken(config, again), factor: "totp", code }, headers: { accept: "application/json" } })
    expect(replay.status).toBe(400)
    expect(await replay.json()).toEqual({ error: "replayed" })
    expect(sessionCookies(again)).toEqual([])
  })
})

/**
 * A memory adapter in which every user has a passkey on `holder`, registered the first time the
 * passkeys of a user are asked for: the flows create their users as they sign in.
 */
function everyoneWithPasskey(holder: SoftAuthenticator, seed: Parameters<typeof MemoryAdapter>[0] = {}): Adapter {
  const memory = MemoryAdapter(seed)
  const listAuthenticatorsByUserId = async (userId: string) => {
    const known = await memory.listAuthenticatorsByUserId(userId)
    if (known.length > 0) return known
    const handle = b64url(crypto.getRandomValues(new Uint8Array(16)))
    const { passkey } = await holder.register({ challenge: "", rp: {}, user: { id: handle } })
    holder.passkeys.push(passkey)
    const jwk = await crypto.subtle.exportKey("jwk", passkey.keys.publicKey)
    const publicKey = cbor(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, fromB64url(jwk.x ?? "")], [-3, fromB64url(jwk.y ?? "")]]))
    const row = { credentialID: b64url(passkey.id), userId, providerAccountId: handle, credentialPublicKey: b64url(publicKey), counter: passkey.counter, credentialDeviceType: "multiDevice", credentialBackedUp: true, transports: "internal" }
    await memory.createAuthenticator(row)
    return [row]
  }
  return { ...memory, listAuthenticatorsByUserId }
}

describe.each(gated.slice(0, 4).flatMap((way) => (["jwt", "database"] as const).map((strategy) => ({ ...way, strategy }))))("V6.3.3: $name, $strategy sessions, for a user with a passkey under mfa.factors [\"passkey\"]", ({ row, build, signIn, strategy }) => {
  it("pends, and one of the user's passkeys completes it at level 2 (hwk, mfa)", async () => {
    const holder = new SoftAuthenticator(ORIGIN)
    const seed = row === credentialsRow ? { users: [{ id: "user-ada", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null }] } : {}
    const first = tableConfig(row, build())
    const config = { ...first, adapter: everyoneWithPasskey(holder, seed), providers: [...first.providers, webauthnRow.variants[0]?.build() as ProviderConfig], mfa: { factors: ["passkey" as const] }, session: { strategy } }
    await row.prepare?.(config)
    const auditsBefore = config.audits.length
    const jar = new Jar()
    const response = await signIn(config, jar)
    keepUsed(jar, { url: "/" })
    expect(location(response).href).toBe(`${ORIGIN}/api/auth/mfa`)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toBeNull()
    expect(await (await call(config, jar, "/api/auth/mfa", { headers: { accept: "application/json" } })).json()).toEqual({ factors: ["passkey"] })
    const request = (await (await call(config, jar, "/api/auth/webauthn-options/passkey?action=mfa")).json()) as { options: { challenge: string; allowCredentials: { id: string }[] } }
    expect(request.options.allowCredentials.map((allowed) => allowed.id)).toEqual([b64url(holder.passkeys.at(-1)?.id ?? new Uint8Array())])
    const form = new URLSearchParams({ csrfToken: await csrfToken(config, jar), factor: "passkey", credential: JSON.stringify(await holder.get(request.options)) })
    const verified = await send(config, jar, { url: "/api/auth/mfa/verify", form })
    keepUsed(jar, { url: "/" })
    expect(location(verified).href).toBe(`${ORIGIN}${row === oauthRow ? "/protected" : "/after"}`)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ user: { email: row.email }, assurance: { level: 2, methods: [...row.assurance.methods, "hwk", "mfa"] } })
    expect(config.audits.slice(auditsBefore).map((event) => [event.type, event.outcome, event.methods])).toEqual([
      ...(row.before ?? []).map((type) => [type, "success", undefined]),
      ["signIn", "pending", row.assurance.methods],
      ["secondFactor", "success", ["hwk"]],
      ["signIn", "success", [...row.assurance.methods, "hwk", "mfa"]],
    ])
  })
})

describe.each(["jwt", "database"] as const)("a passkey that verifies its user, %s sessions", (strategy) => {
  it("signs in at once at level 2, past the gate (WebAuthn §6.2.3: one passkey with user verification is two factors)", async () => {
    const { config } = gatedConfig(webauthnRow, (webauthnRow.variants[0] as Variant).build(), strategy)
    await webauthnRow.prepare?.(config)
    const jar = new Jar()
    const response = await webauthnRow.signIn(config, jar)
    expect(location(response).href).toBe(`${ORIGIN}/after`)
    expect(await (await call(config, jar, "/api/auth/session")).json()).toMatchObject({ assurance: { level: 2, methods: ["hwk", "user"] } })
  })
})

describe("the audit trail of the whole table", () => {
  it("carries no token, code, state, password, secret, cookie value or callback query in any event (ASVS V16.2.5)", () => {
    // The table ran every way in, to success and to failure: each sent its events above.
    expect(new Set(audited.map((event) => `${event.type} ${event.outcome}`))).toEqual(
      new Set(["signIn success", "signIn failure", "signIn pending", "secondFactor success", "secondFactor failure", "emailLinkRequest success"]),
    )
    used.add(x.client.consumerSecret)
    const secrets = [...used].filter((value) => value.length >= 8)
    // The table did use what it scans for: codes, tokens, cookies.
    expect(secrets.length).toBeGreaterThan(50)
    for (const event of audited) {
      const text = JSON.stringify(event)
      for (const secret of secrets) expect(text, `${event.type} ${event.outcome}`).not.toContain(secret)
    }
  })
})
