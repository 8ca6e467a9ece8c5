// A browser on `Auth()` in process for the email and credentials folders' tests (the OAuth kit in
// src/testing.ts runs its own flows): @portcullis/test-kit's TestBrowser, which keeps the cookies and
// reads forms as a browser does, plus the app's own steps (a CSRF-guarded post, the session).
import { Auth } from "@portcullis/core"
import type { AuthConfig } from "@portcullis/core"
import { TestBrowser, type BrowserRequestInit, type Page } from "@portcullis/test-kit/browser"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "/qcNbBWDtwU+Ar1uVv3a8fAJnhCZayqcmJWeeNhqtBY="

/** One browser on the app at {@link ORIGIN}. */
export class Browser {
  readonly #browser: TestBrowser

  constructor(config: AuthConfig) {
    this.#browser = new TestBrowser({ routes: { [ORIGIN]: (request) => Auth(request, config) } })
  }

  /** One request from a page of the app; a redirect is returned, not followed. */
  request(path: string, init: BrowserRequestInit = {}): Promise<Response> {
    return this.#browser.request(new URL(path, ORIGIN), { initiator: ORIGIN, ...init })
  }

  /** Posts a form with this browser's CSRF token added. */
  async post(path: string, form: Record<string, string>): Promise<Response> {
    const { csrfToken } = (await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string }
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...form, csrfToken }).toString(),
    })
  }

  /** Opens a sign-in link from a mail and presses its confirmation button, as a person does. */
  async followSignInLink(link: string): Promise<Page> {
    return this.#browser.submitForm(await this.#browser.navigate(link))
  }

  async session(): Promise<unknown> {
    return (await this.request("/api/auth/session")).json()
  }
}

/** Where a redirect leads. */
export function location(response: Response): URL {
  return new URL(response.headers.get("location") ?? "")
}
