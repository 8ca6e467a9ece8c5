/**
 * The app of next-app.test.ts (laid out as next-auth v5's Next.js example) on React 18.2, which that
 * example pins and Next 16 accepts: after the codemod, a plain `npm install` (npm's defaults, no
 * `--legacy-peer-deps`) has to accept @portcullis/nextjs's React peer range, and the app has to
 * build, type-check and sign in as it does on React 19.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { TestBrowser } from "@portcullis/test-kit/browser"
import { expect, it } from "vitest"
import { checkClientExample, signInThroughIdp, signInWithCredentials, typeCheck, useNextExample } from "./next-example.js"

const example = useNextExample("18.2")
const browser = new TestBrowser()

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
  const signedIn = await signInWithCredentials(example, browser)
  expect(signedIn.body).toMatch(/Signed in as (<!-- -->)?dana@example\.com(<!-- -->)? \((<!-- -->)?admin(<!-- -->)?\)/)
})

it("signs in with the generic OpenID Connect provider through the local identity provider", async () => {
  const { visitor, login, back } = await signInThroughIdp(example)
  expect(new URL(login.url).origin).toBe(example.issuer)
  expect(new URL(back.url).searchParams.get("error")).toBeNull()
  expect((await visitor.navigate(`${example.app.url}/`)).body).toMatch(/Signed in as (<!-- -->)?alice@example\.com/)
})

it("shows the user to useSession under SessionProvider with basePath, and update() renames them through the jwt callback, in Chromium", () => checkClientExample(example, browser))
