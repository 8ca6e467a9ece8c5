/**
 * The Express 5 app in real Chromium: sign in through core's sign-in page and the dev IdP's
 * login form, land on a page that reads the session server-side, sign out.
 */
import type { Browser } from "playwright-core"
import { afterAll, expect, it } from "vitest"
import { startApp, type RunningApp } from "./app.js"
import { launchChromium } from "@portcullis/test-kit/chromium"

let app: RunningApp | undefined
let browser: Browser | undefined

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

it("signs in and out through the Express 5 app in Chromium", async () => {
  app = await startApp({ version: 5 })
  browser = await launchChromium()
  const page = await (await browser.newContext()).newPage()
  const { url, idp } = app

  await page.goto(`${url}/`)
  expect(await page.locator("#status").textContent()).toBe("Signed out")
  await page.getByRole("link", { name: "Sign in" }).click()
  await page.getByRole("button", { name: "Sign in with Demo IdP" }).click()

  await page.waitForURL((at) => at.origin === idp.issuer && at.pathname.startsWith("/interaction/"))
  await page.getByLabel("Email").fill("alice@example.com")
  await page.getByLabel("Password").fill("alice-password")
  await page.getByRole("button", { name: "Sign in", exact: true }).click()

  await page.waitForURL(`${url}/`)
  expect(await page.locator("#status").textContent()).toBe("Signed in as alice@example.com")

  await page.goto(`${url}/auth/signout`)
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL(`${url}/`)
  expect(await page.locator("#status").textContent()).toBe("Signed out")
  expect(app.errors).toEqual([])
})
