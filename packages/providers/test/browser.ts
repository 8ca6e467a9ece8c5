// A small cookie-keeping client for `Auth()` in process, for the email and credentials folders'
// tests (the OAuth kit in src/testing.ts runs its own flows).
import { Auth } from "@auth/core"
import type { AuthConfig } from "@auth/core"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "a-providers-test-secret-of-32-characters-or-more"

/** One browser: the cookies `Auth()` set, sent back on every request. */
export class Browser {
  readonly cookies = new Map<string, string>()

  constructor(readonly config: AuthConfig) {}

  async request(path: string, form?: Record<string, string> | URLSearchParams): Promise<Response> {
    const headers = new Headers({ cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") })
    let body: string | undefined
    if (form !== undefined) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(form).toString()
    }
    const response = await Auth(new Request(new URL(path, ORIGIN), { method: body === undefined ? "GET" : "POST", headers, body }), this.config)
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";")
      const eq = pair.indexOf("=")
      if (/max-age=0/i.test(header)) this.cookies.delete(pair.slice(0, eq))
      else this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    return response
  }

  /** Posts a form with this browser's CSRF token added. */
  async post(path: string, form: Record<string, string>): Promise<Response> {
    const { csrfToken } = (await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string }
    return this.request(path, { ...form, csrfToken })
  }

  /** Opens a sign-in link and presses its confirmation button, as a person does. */
  async followSignInLink(link: string): Promise<Response> {
    const page = await (await this.request(link)).text()
    const form = new URLSearchParams()
    for (const [, name = "", value = ""] of page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) {
      form.set(name, value.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&"))
    }
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? ""
    return this.request(action.replaceAll("&amp;", "&"), form)
  }

  async session(): Promise<unknown> {
    return (await this.request("/api/auth/session")).json()
  }
}

/** Where a redirect leads. */
export function location(response: Response): URL {
  return new URL(response.headers.get("location") ?? "")
}
