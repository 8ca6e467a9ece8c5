/**
 * The built site in Chromium, served from `dist/` on 127.0.0.1 (turbo builds it before this test;
 * `pnpm --filter docs build` by hand): every page reached from the home page through its links,
 * every internal link answering a page (and every `#anchor` naming an element on it), no page
 * wider than a 390 px phone, and the local search finding an option and opening its page.
 */
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { extname, join, normalize } from "node:path"
import type { Browser } from "playwright-core"
import { launchChromium } from "@portcullis/test-kit/chromium"
import { scaled } from "@portcullis/test-time"
import { serveHandler, type ServedHandler } from "@portcullis/test-kit/serve"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DOCS_DIR } from "../src/generate.js"

const DIST = join(DOCS_DIR, "dist")
const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml", ".woff2": "font/woff2" }

/** What a static host does with the built files: `/x/` is `x/index.html`, `/x` may be `x.html`. */
async function serveBuilt(request: Request): Promise<Response> {
  const path = normalize(decodeURIComponent(new URL(request.url).pathname))
  if (path.includes("..")) return new Response("bad path", { status: 400 })
  const candidates = path.endsWith("/") ? [`${path}index.html`] : [path, `${path}.html`]
  for (const candidate of candidates) {
    const file = join(DIST, candidate)
    if (existsSync(file) && extname(file) !== "") return new Response(await readFile(file), { headers: { "content-type": TYPES[extname(file)] ?? "application/octet-stream" } })
  }
  return new Response(await readFile(join(DIST, "404.html")), { status: 404, headers: { "content-type": TYPES[".html"] ?? "" } })
}

let served: ServedHandler
let browser: Browser

beforeAll(async () => {
  if (!existsSync(join(DIST, "index.html"))) throw new Error(`${DIST} is missing: build the site first (pnpm --filter docs build)`)
  served = await serveHandler(serveBuilt)
  browser = await launchChromium()
})

afterAll(async () => {
  await browser.close()
  await served.close()
})

/** A link as the crawl found it. */
interface Link {
  from: string
  href: string
}

describe("the built site", () => {
  it("has no broken internal link (every page crawled from the home page, anchors included) and no page wider than 390 px", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const visited = new Map<string, { status: number; ids: Set<string>; overflow: number }>()
    const links: Link[] = []
    const queue = ["/"]
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (visited.has(path)) continue
      const response = await page.goto(`${served.origin}${path}`, { waitUntil: "load" })
      const found = await page.evaluate(() => ({
        hrefs: [...document.querySelectorAll("a[href]")].map((anchor) => anchor.getAttribute("href") ?? ""),
        ids: [...document.querySelectorAll("[id]")].map((element) => element.id),
        overflow: document.documentElement.scrollWidth - window.innerWidth,
      }))
      visited.set(path, { status: response?.status() ?? 0, ids: new Set(found.ids), overflow: found.overflow })
      for (const href of found.hrefs) {
        const url = new URL(href, `${served.origin}${path}`)
        if (url.origin !== served.origin) continue
        links.push({ from: path, href: `${url.pathname}${url.hash}` })
        if (!visited.has(url.pathname)) queue.push(url.pathname)
      }
    }
    await context.close()

    const pages = [...visited.keys()]
    // Every page of the sidebar's four parts, the generated reference among them.
    expect(pages).toEqual(expect.arrayContaining(["/getting-started/", "/getting-started/nextjs.html", "/concepts/security.html", "/guides/devices.html", "/reference/options.html", "/reference/routes.html", "/reference/providers.html"]))
    const broken = links.filter(({ href }) => {
      const [pathname = "", hash] = href.split("#")
      const target = visited.get(pathname)
      return target?.status !== 200 || (hash !== undefined && hash !== "" && !target.ids.has(decodeURIComponent(hash)))
    })
    expect(broken, "links to a missing page or anchor").toEqual([])
    expect(pages.filter((path) => (visited.get(path)?.overflow ?? 1) > 0), "pages that scroll sideways at 390 px").toEqual([])
  })

  it("finds an option with the local search and opens its page", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${served.origin}/`, { waitUntil: "load" })
    // The search button does nothing until the page has hydrated: press it until the box opens.
    const input = page.locator("#localsearch-input")
    await expect
      .poll(async () => {
        if (!(await input.isVisible())) await page.getByRole("button", { name: "Search" }).click()
        return input.isVisible()
      }, { timeout: scaled(15_000) })
      .toBe(true)
    await input.fill("revocationCheckInterval")
    // Results come after a debounce and may first show an earlier query's: wait for the one sought.
    const result = page.locator(".results .result", { hasText: "session.revocationCheckInterval" }).first()
    await result.waitFor({ timeout: scaled(15_000) })
    await result.click()
    await page.waitForURL(/\/reference\/options\.html#session-revocationcheckinterval$/)
    await page.locator("h3#session-revocationcheckinterval").waitFor({ state: "visible", timeout: scaled(15_000) })
    await context.close()
  })
})
