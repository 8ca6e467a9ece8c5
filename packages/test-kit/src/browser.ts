import { CookieJar, siteOf, type BrowserCookie } from "./cookie-jar.js"
import { formDataSet, isSubmitButton, parseForms, type FormControl, type HtmlForm } from "./html-forms.js"

export type { BrowserCookie } from "./cookie-jar.js"
export { decodeEntities, parseForms, type FormControl, type HtmlForm } from "./html-forms.js"

/** An in-process server for one origin: a web-standard handler, as `Auth(request, config)` is. */
export type RouteHandler = (request: Request) => Response | Promise<Response>

/** Options of {@link TestBrowser}. */
export interface TestBrowserOptions {
  /**
   * Origins served in process, e.g. `{ "http://localhost:3000": (request) => app(request) }`.
   * Every other origin is fetched over the network.
   */
  routes?: Record<string, RouteHandler>
  /** How many redirects `navigate` follows before it throws. Defaults to 20. */
  maxRedirects?: number
  /** The clock for cookie expiry, in epoch milliseconds. Defaults to `Date.now`. */
  now?: () => number
  /** Fetches the origins that have no route. Defaults to the global `fetch`. */
  fetch?: (request: Request) => Promise<Response>
}

/** `RequestInit` plus the page the request comes from. */
export interface BrowserRequestInit extends RequestInit {
  /**
   * The URL of the page that started the request (a link, a form, a script-less auto-post).
   * It decides `SameSite`, `Sec-Fetch-Site` and `Origin`. Omitted, the request is treated like
   * one typed into the address bar.
   */
  initiator?: string | URL
}

/** Where a navigation ended. */
export interface Page {
  /** The final response; its body has been read into `body`. */
  response: Response
  /** The final URL, fragment included. */
  url: string
  body: string
  /** Every URL requested, in order, the final one included. */
  redirects: string[]
}

/** Options of {@link TestBrowser.submitForm}. */
export interface SubmitFormOptions {
  /**
   * Field values to set: an existing field's first occurrence is replaced (later ones dropped),
   * an unknown name is appended (to tamper with a form), `null` removes the field.
   */
  values?: Record<string, string | null>
  /** Which form of the page, counting from 0. Defaults to the first. */
  formIndex?: number
  /** The submit button to use, by visible text, value or name. Defaults to the form's first one. */
  button?: string
}

/** Attributes for {@link TestBrowser.setCookie} in object form. */
export interface CookieInit {
  name: string
  value: string
  path?: string
  domain?: string
  expires?: Date | number
  maxAge?: number
  secure?: boolean
  httpOnly?: boolean
  sameSite?: "strict" | "lax" | "none"
}

type SiteRelation = "none" | "same-origin" | "same-site" | "cross-site"

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const SAFE_METHODS = new Set(["GET", "HEAD"])
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"]

/**
 * A cookie-jar HTTP client that drives flows the way a browser without JavaScript would: it keeps
 * cookies per host, follows redirects, and submits forms (including oidc-provider's
 * auto-submitting `form_post` page). `SameSite` is modelled, so a cross-site form post arrives
 * without the target's `Lax` cookies, as in a real browser.
 *
 * @example
 * ```ts
 * const browser = new TestBrowser({ routes: { "http://localhost:3000": (request) => Auth(request, config) } })
 * const login = await browser.navigate(authorizationUrl, { initiator: "http://localhost:3000/" })
 * const done = await browser.submitForm(login, { values: { login: "alice@example.com", password: "alice-password" } })
 * ```
 */
export class TestBrowser {
  readonly #routes: Map<string, RouteHandler>
  readonly #jar: CookieJar
  readonly #maxRedirects: number
  readonly #fetch: (request: Request) => Promise<Response>

  /** @throws TypeError when a `routes` key is not an absolute URL. */
  constructor(options: TestBrowserOptions = {}) {
    this.#routes = new Map()
    for (const [origin, handler] of Object.entries(options.routes ?? {})) {
      const parsed = URL.canParse(origin) ? new URL(origin).origin : "null"
      // Opaque origins ("localhost:3000" parses as a URL with the scheme "localhost:") cannot match.
      if (parsed === "null") {
        throw new TypeError(`TestBrowser: routes key "${origin}" must be an origin such as "http://localhost:3000"`)
      }
      this.#routes.set(parsed, handler)
    }
    this.#jar = new CookieJar(options.now)
    this.#maxRedirects = options.maxRedirects ?? 20
    this.#fetch = options.fetch ?? ((request) => fetch(request))
  }

  /** Sends one request (no redirect is followed) with the jar's cookies, and stores the ones set. */
  request(url: string | URL, init: BrowserRequestInit = {}): Promise<Response> {
    const target = new URL(url)
    const initiator = init.initiator === undefined ? undefined : new URL(init.initiator)
    return this.#send(target, init, relationOf(initiator, [target]))
  }

  /**
   * Requests `url` and follows redirects (`Location`, relative or absolute): 303, and 301/302
   * after a POST, continue as GET without the body; 307/308 repeat the method and body.
   *
   * @throws Error after more than `maxRedirects` redirects.
   */
  async navigate(url: string | URL, init: BrowserRequestInit = {}): Promise<Page> {
    const initiator = init.initiator === undefined ? undefined : new URL(init.initiator)
    const chain: URL[] = []
    let target = new URL(url)
    let current: BrowserRequestInit = init
    for (;;) {
      chain.push(target)
      const response = await this.#send(target, current, relationOf(initiator, chain))
      const location = response.headers.get("location")
      if (!REDIRECT_STATUSES.has(response.status) || location === null) {
        return { response, url: target.href, body: await response.text(), redirects: chain.map((hop) => hop.href) }
      }
      await response.body?.cancel()
      if (chain.length > this.#maxRedirects) {
        throw new Error(`TestBrowser: more than ${this.#maxRedirects} redirects: ${chain.map((hop) => hop.href).join(" -> ")}`)
      }
      const method = (current.method ?? "GET").toUpperCase()
      const becomesGet = (response.status === 303 && method !== "HEAD") || ((response.status === 301 || response.status === 302) && method === "POST")
      if (becomesGet) {
        const headers = new Headers(current.headers)
        for (const name of BODY_HEADERS) headers.delete(name)
        current = { ...current, method: "GET", body: null, headers }
      }
      target = new URL(location, target)
    }
  }

  /**
   * Fills and submits a form of `page` the way a click on its submit button would, then follows
   * redirects. This is how a test clicks "Sign in" or "Allow", and how a `form_post` response
   * (an auto-submitting form) reaches the callback.
   *
   * @throws Error when the page has no such form or button.
   */
  async submitForm(page: Pick<Page, "url" | "body">, options: SubmitFormOptions = {}): Promise<Page> {
    const forms = parseForms(page.body)
    const index = options.formIndex ?? 0
    const form = forms[index]
    if (form === undefined) {
      const snippet = page.body.replace(/\s+/gu, " ").slice(0, 300)
      throw new Error(`TestBrowser: ${page.url} has ${forms.length} form(s), no form #${index}. Page starts: ${snippet}`)
    }
    const submitter = pickSubmitter(form, options.button, page.url)
    const entries = applyValues(formDataSet(form, submitter), options.values ?? {})
    const action = new URL(submitter?.attributes.formaction ?? form.action ?? "", page.url)
    action.hash = ""
    const method = (submitter?.attributes.formmethod ?? form.method).toUpperCase()
    const enctype = (submitter?.attributes.formenctype ?? form.enctype).toLowerCase()
    if (method !== "POST") {
      action.search = new URLSearchParams(entries).toString()
      return await this.navigate(action, { initiator: page.url })
    }
    if (enctype === "multipart/form-data") {
      const body = new FormData()
      for (const [name, value] of entries) body.append(name, value)
      return await this.navigate(action, { method, body, initiator: page.url })
    }
    return await this.navigate(action, {
      method,
      body: new URLSearchParams(entries).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      initiator: page.url,
    })
  }

  /** Every live cookie held for the host of `url`, whatever its path (ports are ignored, as in browsers). */
  cookies(url: string | URL): BrowserCookie[] {
    return this.#jar.list(new URL(url))
  }

  /**
   * Stores a cookie as if `url` had answered with this `Set-Cookie` (the same rules apply).
   *
   * @throws Error when a browser would reject the cookie, saying why.
   */
  setCookie(url: string | URL, cookie: string | CookieInit): void {
    const header = typeof cookie === "string" ? cookie : serializeCookie(cookie)
    const rejection = this.#jar.store(header, new URL(url))
    if (rejection !== undefined) throw new Error(`TestBrowser: cookie rejected (${rejection}): ${header}`)
  }

  /** Removes cookies named `name` for the host of `url` (only on `path`, if given); returns how many. */
  deleteCookie(url: string | URL, name: string, options: { path?: string } = {}): number {
    return this.#jar.delete(new URL(url), name, options.path)
  }

  /** Forgets every cookie, like a fresh browser profile. */
  clearCookies(): void {
    this.#jar.clear()
  }

  async #send(target: URL, init: BrowserRequestInit, relation: SiteRelation): Promise<Response> {
    const { initiator, ...requestInit } = init
    const method = (requestInit.method ?? "GET").toUpperCase()
    const headers = new Headers(requestInit.headers)
    if (!headers.has("cookie")) {
      const cookie = this.#jar.header(target, {
        sameSite: relation !== "cross-site",
        safeTopLevelNavigation: SAFE_METHODS.has(method),
      })
      if (cookie !== "") headers.set("cookie", cookie)
    }
    if (!headers.has("sec-fetch-site")) headers.set("sec-fetch-site", relation)
    if (!headers.has("sec-fetch-mode")) headers.set("sec-fetch-mode", "navigate")
    if (!headers.has("sec-fetch-dest")) headers.set("sec-fetch-dest", "document")
    if (initiator !== undefined && !SAFE_METHODS.has(method) && !headers.has("origin")) {
      headers.set("origin", new URL(initiator).origin)
    }
    const url = new URL(target)
    url.hash = ""
    const request = new Request(url, { ...requestInit, method, headers, redirect: "manual" })
    const handler = this.#routes.get(url.origin)
    const response = handler === undefined ? await this.#fetch(request) : await handler(request)
    for (const header of response.headers.getSetCookie()) this.#jar.store(header, target)
    return response
  }
}

/**
 * How a request relates to the page that started it, over the whole redirect chain so far.
 *
 * @see https://w3c.github.io/webappsec-fetch-metadata/#sec-fetch-site-header
 */
function relationOf(initiator: URL | undefined, chain: URL[]): SiteRelation {
  if (initiator === undefined) return "none"
  if (chain.some((hop) => siteOf(hop) !== siteOf(initiator))) return "cross-site"
  if (chain.some((hop) => hop.origin !== initiator.origin)) return "same-site"
  return "same-origin"
}

function pickSubmitter(form: HtmlForm, wanted: string | undefined, pageUrl: string): FormControl | undefined {
  const buttons = form.controls.filter((candidate) => isSubmitButton(candidate) && !candidate.disabled)
  if (wanted === undefined) return buttons[0]
  const found = buttons.find(
    (candidate) => candidate.text === wanted || candidate.values[0] === wanted || candidate.name === wanted,
  )
  if (found === undefined) {
    const labels = buttons.map((candidate) => JSON.stringify(candidate.text || candidate.values[0] || candidate.name))
    throw new Error(`TestBrowser: no "${wanted}" button in the form of ${pageUrl}; it has ${labels.join(", ") || "none"}`)
  }
  return found
}

function applyValues(entries: [string, string][], values: Record<string, string | null>): [string, string][] {
  const result: [string, string][] = []
  const applied = new Set<string>()
  for (const [name, value] of entries) {
    if (!(name in values)) {
      result.push([name, value])
      continue
    }
    const replacement = values[name]
    if (applied.has(name) || replacement === null || replacement === undefined) continue
    applied.add(name)
    result.push([name, replacement])
  }
  for (const [name, value] of Object.entries(values)) {
    if (!applied.has(name) && value !== null && !entries.some(([existing]) => existing === name)) {
      result.push([name, value])
    }
  }
  return result
}

function serializeCookie(cookie: CookieInit): string {
  if (/[;=\s]/u.test(cookie.name) || cookie.name === "") throw new Error(`TestBrowser: invalid cookie name "${cookie.name}"`)
  if (cookie.value.includes(";")) throw new Error(`TestBrowser: cookie value of "${cookie.name}" contains ";"`)
  const parts = [`${cookie.name}=${cookie.value}`, `Path=${cookie.path ?? "/"}`]
  if (cookie.domain !== undefined) parts.push(`Domain=${cookie.domain}`)
  if (cookie.expires !== undefined) parts.push(`Expires=${new Date(cookie.expires).toUTCString()}`)
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${cookie.maxAge}`)
  if (cookie.secure === true) parts.push("Secure")
  if (cookie.httpOnly === true) parts.push("HttpOnly")
  if (cookie.sameSite !== undefined) parts.push(`SameSite=${cookie.sameSite}`)
  return parts.join("; ")
}
