/**
 * A next-auth v5 App Router app laid out as next-auth's own Next.js example (test/fixtures/next-app:
 * `auth.ts` with `basePath: "/auth"`, the JWT augmentation, a footer printing the package's version,
 * server, client, middleware and route-handler pages, no `next/font/google`), on Next 16 and React 19:
 * migrated by the built bin, installed with a plain `npm install` of our packed tarballs, built
 * with `next build`, served by `next start` and signed in with Credentials through a server action
 * and with its generic OpenID Connect provider through the local identity provider
 * (@portcullis/dev-idp); the client side (`SessionProvider`, `useSession`, `update`) in Chromium.
 * next-app-react18.test.ts runs the same app on React 18.2.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { TestBrowser, parseForms } from "@portcullis/test-kit/browser"
import { expect, it } from "vitest"
import { dependenciesOf } from "./apps.js"
import { checkClientExample, signInThroughIdp, signInWithCredentials, typeCheck, useNextExample } from "./next-example.js"

const example = useNextExample("19")
const browser = new TestBrowser()

it("migrates the app: exit 0, every file that names next-auth, the footer's version to check, the cookie window, one manual step (where the client address comes from)", () => {
  const { migration, dir } = example
  expect(migration.code).toBe(0)
  expect(migration.stdout).toContain(
    "Changed 6 file(s):\n  app/client-example/page.tsx\n  auth.ts\n  components/client-example.tsx\n  components/footer.tsx\n  components/session-data.tsx\n  package.json\n",
  )
  // The footer's version now reads ours: the codemod asks to reword what presents it as next-auth's.
  expect(migration.stdout).toContain('To check (1):\n  components/footer.tsx:1:25: "next-auth/package.json" now reads @portcullis/nextjs\'s package.json')
  expect(migration.stdout).toMatch(/Auth\.js's session cookies stay accepted until \d{4}-\d\d-\d\dT[\d:.]+Z \(today \+ (Auth\.js's default session maxAge|its session\.maxAge), 30 days\): legacySessionCookies set in auth\.ts:\d+/)
  // Next.js hands a route no socket address, and only the owner knows how many proxies to trust: listed, never written.
  expect(migration.stdout).toMatch(/Manual steps left \(1\):\n {2}auth\.ts:\d+:\d+: Portcullis limits sign-in attempts per client address, and Next\.js gives a route handler no socket address: set clientAddress/)
  const auth = readFileSync(join(dir, "auth.ts"), "utf8")
  expect(auth).toContain('declare module "@portcullis/nextjs" {')
  expect(auth).toContain('declare module "@portcullis/core/jwt" {')
  expect(auth).toContain('import GitHub from "@portcullis/providers/github"')
  expect(auth).toContain("legacySessionCookies: { until: ")
  expect(readFileSync(join(dir, "components/footer.tsx"), "utf8")).toContain('import packageJSON from "@portcullis/nextjs/package.json"')
  expect(Object.keys(dependenciesOf(dir)).filter((name) => name.startsWith("@portcullis/")).sort()).toEqual(["@portcullis/core", "@portcullis/nextjs", "@portcullis/providers"])
  expect(dependenciesOf(dir)["next-auth"]).toBeUndefined()
})

it("type-checks against our packages with the app's own tsc: the Session and JWT augmentations and legacySessionCookies included", async () => {
  expect(await typeCheck(example.dir)).toBe("")
})

it("sends a signed-out visitor from the middleware-protected page to sign in", async () => {
  const response = await browser.request(`${example.app.url}/middleware-example`)
  expect(response.status).toBe(307)
  const location = new URL(response.headers.get("location") ?? "", example.app.url)
  expect(location.pathname).toBe("/auth/signin")
  expect(location.searchParams.get("callbackUrl")).toBe("/middleware-example")
})

it("answers the route handler wrapped in auth() with 401 before sign-in", async () => {
  const response = await fetch(`${example.app.url}/api/protected`)
  expect(response.status).toBe(401)
})

it("prints our package's version in the footer that read next-auth/package.json", async () => {
  const version = (JSON.parse(readFileSync(join(example.dir, "node_modules/@portcullis/nextjs/package.json"), "utf8")) as { version: string }).version
  const home = await fetch(`${example.app.url}/`)
  expect(await home.text()).toMatch(new RegExp(`id="auth-version">next-auth@(<!-- -->)?${version.replaceAll(".", "\\.")}<`, "u"))
})

it("starts a GitHub sign-in from the migrated provider import, with the app's callback URL under its basePath", async () => {
  // github.com is not reached: the test only reads where the app sends the browser.
  const { url } = example.app
  const offline = new TestBrowser({ fetch: (request) => (request.url.startsWith(url) ? fetch(request) : Promise.resolve(new Response("offline"))) })
  const signInPage = await offline.navigate(`${url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/signin/github"))
  const { redirects } = await offline.submitForm(signInPage, { formIndex })
  const authorize = new URL(redirects.at(-1) ?? "")
  expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${url}/auth/callback/github`)
  expect(authorize.searchParams.get("client_id")).toBe("github-client-id")
})

it("signs in with Credentials through the page's server action, and auth() in a server component shows the augmented session", async () => {
  expect((await browser.navigate(`${example.app.url}/`)).body).toContain("Not signed in")
  const signedIn = await signInWithCredentials(example, browser)
  expect(new URL(signedIn.url).pathname).toBe("/")
  expect(signedIn.body).toMatch(/Signed in as (<!-- -->)?dana@example\.com(<!-- -->)? \((<!-- -->)?admin(<!-- -->)?\)/)
})

it("signs in with the generic OpenID Connect provider through the local identity provider", async () => {
  const { visitor, login, back } = await signInThroughIdp(example)
  expect(new URL(login.url).origin).toBe(example.issuer)
  expect(new URL(back.url).origin).toBe(example.app.url)
  expect(new URL(back.url).searchParams.get("error")).toBeNull()
  const home = await visitor.navigate(`${example.app.url}/`)
  expect(home.body).toMatch(/Signed in as (<!-- -->)?alice@example\.com/)
  // The jwt callback kept the IdP's access token, as the example does for its API call.
  expect(home.body).toContain("&quot;accessToken&quot;")
})

it("lets the signed-in visitor through the middleware, to the server component and to the route handler", async () => {
  const page = await browser.navigate(`${example.app.url}/middleware-example`)
  expect(page.response.status).toBe(200)
  expect(page.body).toContain('id="middleware-example"')
  expect((await browser.navigate(`${example.app.url}/server-example`)).body).toContain("&quot;name&quot;: &quot;Dana&quot;")
  const api = await browser.request(`${example.app.url}/api/protected`)
  expect(api.status).toBe(200)
  expect(await api.json()).toEqual({ data: "Protected data", email: "dana@example.com" })
})

it("shows the user to useSession under SessionProvider with basePath, and update() renames them through the jwt callback, in Chromium", () => checkClientExample(example, browser))
