// An app bundles only the flows it uses: what `Auth` loads with the app (the entry chunk and the
// chunks it imports statically, as a code-splitting bundler emits them) holds no module of a flow
// or option an OAuth-only app never takes. Those are fetched by a dynamic import on first use.
import { fileURLToPath } from "node:url"
import { build, type Metafile } from "esbuild"
import { describe, expect, it } from "vitest"

const source = fileURLToPath(new URL("../src/", import.meta.url))

/** The source files (relative to `src/`) of the chunks that load with an app importing `Auth`, and their code. */
/** An app whose one module is `contents`, bundled from core's sources as a code-splitting bundler would. */
function bundleApp(contents: string) {
  return build({
    stdin: { contents, resolveDir: source, sourcefile: "app.ts", loader: "ts" },
    absWorkingDir: source,
    bundle: true,
    splitting: true,
    outdir: "out",
    format: "esm",
    platform: "node",
    write: false,
    metafile: true,
    logLevel: "silent",
    // The X provider's OAuth 1.0a flow is imported by package name: it stays outside, as in an app.
    external: ["@portcullis/core/*"],
  })
}

// The apps import the modules the provider kit's exports live in, as a tree-shaking bundler keeps
// them (bench/ measures the published packages, barrel included).
/** An OAuth-only app: `Auth` and a provider factory, which carries the OAuth flow (as every OAuth provider of @portcullis/providers does). */
const OAUTH_APP = `export { Auth } from "./index.ts"\nexport { oauthProvider } from "./oauth/index.ts"\n`
/** A credentials-only app: `Auth` and the flow `Credentials()` carries. */
const CREDENTIALS_APP = `export { Auth } from "./index.ts"\nexport { credentials } from "./credentials/index.ts"\n`

async function loadedWith(app: string): Promise<{ inputs: string[]; code: string; lazy: string[] }> {
  const result = await bundleApp(app)
  const outputs: Metafile["outputs"] = result.metafile.outputs
  const loaded = new Set<string>()
  const visit = (path: string): void => {
    if (loaded.has(path)) return
    loaded.add(path)
    for (const imported of outputs[path]?.imports ?? []) if (imported.kind === "import-statement" && !imported.external) visit(imported.path)
  }
  // Every dynamic import's target is an entry point too (and may come first): the app's is named after its stdin.
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === "app.ts")
  expect(entry).toBeDefined()
  visit(entry ?? "")
  // Dynamic imports exist (else this test would prove nothing about them).
  expect(Object.keys(outputs).filter((path) => path.endsWith(".js")).length).toBeGreaterThan(loaded.size)
  const text = new Map(result.outputFiles.map((file) => [file.path, file.text]))
  const inputs = [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}))
  return {
    inputs,
    lazy: Object.values(outputs).flatMap((output) => Object.keys(output.inputs)).filter((input) => !inputs.includes(input)),
    code: [...loaded].map((path) => text.get(`${source}${path}`) ?? "").join(""),
  }
}

/** Flows and options an app loads only when it uses them. */
const LAZY = /^(email\/|credentials\/|oauth\/rare-options\.ts|pages\/email\.ts|session\/(legacy|cookie-tokens|database|jwt-foreign)\.ts|http\/redirect-warning\.ts|oauth1\/|webauthn\/|oauth\/access-token\.ts|oauth\/refresh\.ts|crypto\/crypto-web\.ts|pages\/|session\/records\.ts|oauth\/backchannel\.ts|oauth\/logout-token\.ts|oauth\/end-session\.ts|sign-in\/accounts\.ts|actions\/accounts\.ts|sign-in\/ways-in\.ts|errors\/error-messages\.ts|config\/normalise-rare\.ts|config\/mfa\.ts|outbound\/store-timeout\.ts|outbound\/deadline\.ts|http\/origin-patterns\.ts|limits\/rate-limit\.ts|limits\/client-limit\.ts|limits\/client-limit-rules\.ts|limits\/ip-address\.ts|client-address\.ts|actions\/error\.ts|actions\/verify-request\.ts|actions\/sessions\.ts|session\/device\.ts|sessions\.ts|http\/failures\.ts|http\/other-loopback\.ts|actions\/signin-page\.ts|crypto\/secret-refusals\.ts|outbound\/store\.ts|actions\/signout-page\.ts|session\/start\.ts|limits\/memory-store\.ts|crypto\/sealed\.ts|errors\/log-once\.ts|errors\/flow-errors\.ts|http\/outbound-urls\.ts|factors\/|reauth\/|account\/|audit\/event\.ts|outbound\/mail\.ts|password\/|actions\/password\.ts)/

describe("what an app loads with Auth", () => {
  it("holds no flow at all for Auth alone: a provider brings its flow, or the registry fetches it", async () => {
    const { inputs } = await loadedWith(`export { Auth } from "./index.ts"\n`)
    expect(inputs).toContain("session/jwt.ts")
    expect(inputs.filter((input) => /^(oauth|oauth1|email|credentials|webauthn)\/|node_modules/.test(input))).toEqual([])
  })

  it("holds a credentials-only app's flow, and no OAuth code or oauth4webapi", async () => {
    const { inputs, code } = await loadedWith(CREDENTIALS_APP)
    expect(inputs).toEqual(expect.arrayContaining(["credentials/flow.ts", "credentials/provider.ts", "session/jwt.ts"]))
    expect(inputs.filter((input) => /^(oauth|oauth1|email|webauthn)\/|oauth4webapi/.test(input))).toEqual([])
    expect(code).not.toContain("authorization_code")
  })

  it("fetches the OAuth protocol and oauth4webapi on the first sign-in, not with the app", async () => {
    const { inputs, lazy } = await loadedWith(OAUTH_APP)
    const protocol = /^(oauth\/(protocol|callback|authorize|checks|server)\.ts|sign-in\/sign-in(-callback)?\.ts)$|oauth4webapi/
    expect(inputs.filter((input) => protocol.test(input))).toEqual([])
    expect(lazy).toEqual(expect.arrayContaining(["oauth/protocol.ts", "oauth/callback.ts", "sign-in/sign-in.ts"]))
    expect(lazy.some((input) => input.includes("oauth4webapi"))).toBe(true)
  })

  it("fetches the common-password blocklist and the breach check only when a new password is checked (ASVS 6.2.4), and an OAuth app loads no password rule", async () => {
    const { inputs, lazy } = await loadedWith(`export { Auth } from "./index.ts"\nexport { checkNewPassword } from "./password/rules.ts"\n`)
    expect(inputs).toContain("password/rules.ts")
    expect(inputs.filter((input) => /^password\/(common-passwords|breached)/.test(input))).toEqual([])
    expect(lazy).toEqual(expect.arrayContaining(["password/common-passwords.ts", "password/common-passwords.generated.ts", "password/breached.ts"]))
    const oauth = await loadedWith(OAUTH_APP)
    expect(oauth.inputs.filter((input) => input.startsWith("password/"))).toEqual([])
  })

  it("fetches the bcrypt check (legacyHashes) only when a stored bcrypt hash is met, and the pure-JavaScript scrypt only where node:crypto is missing", async () => {
    const { inputs, lazy } = await loadedWith(`export { Auth } from "./index.ts"\nexport { verifyPassword } from "./password/hash.ts"\n`)
    expect(inputs).toEqual(expect.arrayContaining(["password/hash.ts", "password/scrypt.ts", "password/hashing-slots.ts"]))
    expect(inputs.filter((input) => /legacy-bcrypt|bcrypt-ts|@noble\/hashes/.test(input))).toEqual([])
    expect(lazy).toContain("password/legacy-bcrypt.ts")
    expect(lazy.some((input) => input.includes("bcrypt-ts"))).toBe(true)
    expect(lazy.some((input) => input.includes("@noble/hashes"))).toBe(true)
  })

  it("fetches no second-factor code with the first sign-in: the gate and its routes (factors/) load only when mfa is set", async () => {
    const result = await bundleApp(OAUTH_APP)
    const outputs: Metafile["outputs"] = result.metafile.outputs
    const ending = Object.keys(outputs).find((path) => Object.keys(outputs[path]?.inputs ?? {}).includes("sign-in/sign-in.ts"))
    expect(ending).toBeDefined()
    // What loads with the sign-in ending: its chunk and the chunks it imports statically.
    const loaded = new Set<string>()
    const visit = (path: string): void => {
      if (loaded.has(path)) return
      loaded.add(path)
      for (const imported of outputs[path]?.imports ?? []) if (imported.kind === "import-statement" && !imported.external) visit(imported.path)
    }
    visit(ending ?? "")
    const inputs = [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}))
    expect(inputs.filter((input) => input.startsWith("factors/"))).toEqual([])
    // The gate is there to fetch: the ending imports it dynamically.
    expect(Object.values(outputs).some((output) => Object.keys(output.inputs).includes("factors/gate.ts"))).toBe(true)
  })

  it("fetches the account settings (account/: email change, deletion) only when their route is first asked for", async () => {
    const { inputs, lazy } = await loadedWith(OAUTH_APP)
    expect(inputs.filter((input) => input.startsWith("account/"))).toEqual([])
    expect(lazy).toEqual(expect.arrayContaining(["account/routes.ts", "account/email-change.ts", "account/delete.ts"]))
  })

  it("holds the OAuth flow and JWT sessions, and none of the email, credentials, database-session, legacy-cookie, off-origin warning or default-page code", async () => {
    const { inputs, code } = await loadedWith(OAUTH_APP)
    expect(code).toContain(" for a public client)")
    expect(inputs).toEqual(expect.arrayContaining(["oauth/flow.ts", "oauth/provider.ts", "session/index.ts", "session/jwt.ts"]))
    expect(inputs.filter((input) => LAZY.test(input))).toEqual([])
    // A module shared with a lazy chunk is bundled whole: the email and credentials rules live in their flows' folders.
    expect(code).not.toContain("whose email was never verified: sign in")
    expect(code).not.toContain("which the adapter does not store")
    expect(code).not.toContain("RedirectOffOrigin")
    expect(code).not.toContain("RefreshWithoutLock")
    // The default pages (markup, CSS, button logos) load when one is served.
    expect(code).not.toContain("prefers-color-scheme")
    // Database sessions load on first use: an app without an adapter never uses them.
    expect(code).not.toContain("Database sessions need an adapter.")
    // So does the read of a session token under another header than ours (Auth.js's A256GCM, a `kid` we do not derive).
    expect(code).not.toContain("JWE features Auth.js refuses")
    // And the WebCrypto engine, which a runtime with Node's crypto never uses.
    expect(code).not.toContain("additionalData")
    // The account-linking rules load with the first sign-in of an app that has an adapter.
    expect(code).not.toContain("is already linked to another user")
    // The error sentences load with the first answer that shows one.
    expect(code).not.toContain("Those details did not work")
    // The checks of options an app seldom sets load when one is set.
    expect(code).not.toContain("may use `*` only in the first label")
    expect(code).not.toContain("theme.colorScheme")
    // So do second factors' (`mfa`): their options and the adapter methods they need.
    expect(code).not.toContain("mfa.factors")
    expect(code).not.toContain("createAuthFactor")
    // The per-client limiter loads when a client address is known (or once, to warn that none is).
    expect(code).not.toContain("TooManyRequests")
    expect(code).not.toContain("ClientAddressUnknown")
    // How a failed or unknown request is answered loads with the first one.
    expect(code).not.toContain("An unexpected error occurred while handling the request.")
    expect(code).not.toContain("GET, HEAD")
    // The word on another loopback name than AUTH_URL's loads with a CSRF refusal or the default sign-in page.
    expect(code).not.toContain("A cookie set on one name is not sent to the other")
    expect(code).not.toContain("The submitted `csrfToken` does not match the CSRF cookie.")
    // A weak or placeholder secret is found at start; the sentences saying so load only then.
    expect(code).not.toContain("is the placeholder our documentation shows")
    expect(code).not.toContain("With NODE_ENV=production a weak secret is refused.")
    // Session records load only with an adapter that keeps them, and a pre-switch session's record with them.
    expect(code).not.toContain("adoptPreSwitchSession")
    // A session is started by the sign-in ending, which loads with the first sign-in.
    expect(code).not.toContain("The `jwt` callback returned no token for this sign-in.")
    // The memory store's counters load with the first count (a flow that sends mail or checks passwords).
    expect(code).not.toContain("resetAt")
    // The values sealed for a browser to hand back (checks, end-session cookies) load with a sign-in.
    expect(code).not.toContain("A256GCM")
    // The error classes only a sign-in, a callback, a refresh or the account routes raise load with them.
    expect(code).not.toContain("LastSignInMethod")
    expect(code).not.toContain("OAuthAccountNotLinked")
    // The URLs that leave the server (a `redirect_uri`, the remembered callbackUrl) load with a sign-in.
    expect(code).not.toContain("needs the app's origin")
    // The audit trail loads its check for `events.audit` only: the event is built by code fetched when the app listens.
    expect(code).not.toContain("The `events.audit` handler threw.")
  })

  it("leaves the refresh grant out of an app that imports getAccessToken until a refresh is due", async () => {
    const { inputs } = await loadedWith(`${OAUTH_APP}export { getAccessToken } from "./index.ts"\n`)
    expect(inputs).toContain("server/access-token.ts")
    expect(inputs).not.toContain("oauth/refresh.ts")
  })
})

describe("the entry for integrations", () => {
  it("loads no other module of core, so an integration adds only its own few functions to an app", async () => {
    const result = await bundleApp(`export * from "./integration.ts"\n`)
    const inputs = Object.values(result.metafile.outputs).flatMap((output) => Object.keys(output.inputs))
    expect(inputs.filter((input) => input !== "app.ts")).toEqual(["integration.ts"])
  })
})
