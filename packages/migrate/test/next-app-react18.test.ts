/**
 * The app of next-app.test.ts (laid out as next-auth v5's Next.js example) on React 18.2, which that
 * example pins and Next 16 accepts: after the codemod, a plain `npm install` (npm's defaults, no
 * `--legacy-peer-deps`) has to accept @portcullis/nextjs's React peer range, and the app has to
 * build, type-check and sign in as it does on React 19.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { TestBrowser, parseForms } from "@portcullis/test-kit/browser"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { afterAll, beforeAll, expect, it } from "vitest"
import { scaled } from "@portcullis/test-time"
import { startNextExample, stopNextExample, typeCheck, type NextExample, type NextExampleCleanup } from "./next-example.js"

let example: NextExample
const cleanup: NextExampleCleanup = {}
const browser = new TestBrowser()

beforeAll(async () => {
  example = await startNextExample("18.2", cleanup)
}, scaled(300_000))

afterAll(() => stopNextExample(cleanup))

it("installs with npm's defaults next to React 18.2: our peer range accepts what Next 16 accepts", () => {
  const installed = (name: string): string => (JSON.parse(readFileSync(join(example.dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version
  expect(example.migration.code).toBe(0)
  expect(installed("react")).toBe("18.2.0")
  expect(installed("react-dom")).toBe("18.2.0")
  expect(installed("@portcullis/nextjs")).toMatch(/^\d+\.\d+\.\d+/u)
})

it("type-checks against our packages with @types/react 18", async () => {
  expect(await typeCheck(example.dir)).toBe("")
})

it("signs in with Credentials through the page's server action", async () => {
  const home = await browser.navigate(`${example.app.url}/`)
  const formIndex = parseForms(home.body).findIndex((form) => form.id === "credentials")
  const signedIn = await browser.submitForm(home, { formIndex, values: { email: "dana@example.com", password: "dana-password" } })
  expect(signedIn.body).toMatch(/Signed in as (<!-- -->)?dana@example\.com(<!-- -->)? \((<!-- -->)?admin(<!-- -->)?\)/)
})

it("signs in with the generic OpenID Connect provider through the local identity provider", async () => {
  const visitor = new TestBrowser()
  const signInPage = await visitor.navigate(`${example.app.url}/auth/signin`)
  const formIndex = parseForms(signInPage.body).findIndex((form) => form.action?.endsWith("/auth/signin/sso"))
  const login = await visitor.submitForm(signInPage, { formIndex })
  expect(new URL(login.url).origin).toBe(example.issuer)
  const back = await visitor.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
  expect(new URL(back.url).searchParams.get("error")).toBeNull()
  expect((await visitor.navigate(`${example.app.url}/`)).body).toMatch(/Signed in as (<!-- -->)?alice@example\.com/)
})

it("shows the user to useSession under SessionProvider in Chromium", async () => {
  const chromium = await launchChromium()
  const { url } = example.app
  try {
    const context = await chromium.newContext()
    await context.addCookies(browser.cookies(url).map((cookie) => ({ name: cookie.name, value: cookie.value, url })))
    const page = await context.newPage()
    await page.goto(`${url}/client-example`)
    await expect.poll(() => page.locator("#client-status").textContent(), { timeout: scaled(15_000) }).toBe("Client sees dana@example.com as Dana")
  } finally {
    await chromium.close()
  }
})
