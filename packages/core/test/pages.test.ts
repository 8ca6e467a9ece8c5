import { describe, expect, it } from "vitest"

import { Auth } from "../src/index.js"
import { renderSignIn, type PageProvider } from "../src/pages/index.js"
import { ORIGIN, passwordProvider, testConfig } from "./helpers.js"
import { buttonColors, layout, logoMarkup } from "../src/pages/layout.js"

/** WCAG contrast of white text on a #rrggbb background. */
function whiteContrast(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)
}

function signInWithLogo(logo: string): string {
  const provider: PageProvider = { id: "acme", name: "Acme", kind: "button", action: "/api/auth/signin/acme", style: { logo, brandColor: "#24292f" } }
  return renderSignIn({ theme: {}, homeUrl: "https://app.example", providers: [provider], csrfToken: "t", callbackUrl: undefined, error: undefined })
}

describe("provider logos", () => {
  it("redraws an inline SVG from its path data only, in the text color, hidden from screen readers", () => {
    const markup = logoMarkup('<svg role="img" viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><title>Acme</title><path d="M0 0h24v24H0z"/></svg>', "logo")
    expect(markup).toBe('<svg class="logo" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M0 0h24v24H0z"/></svg>')
  })

  it("drops an SVG logo that carries a script or an event handler", () => {
    const page = signInWithLogo('<svg viewBox="0 0 24 24" onload="alert(1)"><script>alert(2)</script><path d="M0 0h24v24H0z"/></svg>')
    expect(page).not.toContain("alert")
    expect(page).not.toContain("<script")
    expect(page).toContain('<path d="M0 0h24v24H0z"/>')
  })

  it("drops an SVG logo whose path data tries to break out of the attribute", () => {
    expect(logoMarkup('<svg viewBox="0 0 24 24"><path d="M0 0&quot; onmouseover=&quot;alert(1)"/></svg>', "logo")).toBe("")
    expect(logoMarkup('<svg viewBox="0 0 24 24"><path d="M0 0 url(x)"/></svg>', "logo")).toBe("")
  })

  it("shows an https or data image URL as a decorative image, and drops javascript: and http: URLs", () => {
    expect(logoMarkup("https://cdn.example/acme.svg", "logo")).toBe('<img class="logo" src="https://cdn.example/acme.svg" alt="">')
    expect(logoMarkup("data:image/png;base64,iVBORw0KGgo=", "logo")).toContain('src="data:image/png;base64,iVBORw0KGgo="')
    expect(logoMarkup("javascript:alert(1)", "logo")).toBe("")
    expect(logoMarkup("http://cdn.example/acme.svg", "logo")).toBe("")
  })

  it("keeps the theme's logo out of the page when it is not an image URL or an SVG", () => {
    expect(layout({ logo: '"><script>alert(1)</script>' }, "t", "", "https://app.example")).not.toContain("alert")
  })
})

describe("button colors", () => {
  it("keeps a dark brand as it is, with white text", () => {
    expect(buttonColors("#24292f")).toEqual({ background: "#24292f", text: "#fff" })
  })

  it("puts dark text on a light brand", () => {
    expect(buttonColors("#fee500").text).toBe("#111111")
  })

  it("darkens a mid-tone brand (Google's blue) until white text reads at 4.5:1", () => {
    const { background, text } = buttonColors("#4285f4")
    expect(text).toBe("#fff")
    expect(background).not.toBe("#4285f4")
    expect(whiteContrast(background)).toBeGreaterThanOrEqual(4.5)
  })

  it("honours theme.buttonText over the computed text color", () => {
    const page = renderSignIn({ theme: { brandColor: "#4285f4", buttonText: "#000000" }, homeUrl: "https://app.example", providers: [{ id: "email", name: "Email", kind: "email", action: "/e", style: {} }], csrfToken: "t", callbackUrl: undefined, error: undefined })
    expect(page).toContain("color:#000000")
  })
})

describe("credentials fields with Auth.js's input attributes", () => {
  const page = async (credentials: Record<string, unknown>): Promise<string> => {
    const provider = passwordProvider({ credentials: credentials as never })
    const response = await Auth(new Request(`${ORIGIN}/api/auth/signin`), testConfig({ providers: [provider] }))
    return response.text()
  }

  it("renders required, pattern, autoComplete and the length and bound attributes on the default sign-in page", async () => {
    const html = await page({
      username: { label: "Username", pattern: "[a-z]{3,}", autoComplete: "username", minLength: 3, maxLength: 32, title: 'lowercase "letters"' },
      code: { label: "Code", type: "number", min: 0, max: "999999", step: 1, inputMode: "numeric", required: false },
    })
    expect(html).toContain(
      '<input id="credentials-username" name="username" type="text" autocomplete="username" pattern="[a-z]{3,}" minlength="3" maxlength="32" title="lowercase &quot;letters&quot;" required>',
    )
    expect(html).toContain('<input id="credentials-code" name="code" type="number" min="0" max="999999" step="1" inputmode="numeric">')
  })

  it("reads an attribute given as a signal ({ value }), as Auth.js's Preact-typed fields allow", async () => {
    expect(await page({ pin: { label: "PIN", placeholder: { value: "6 digits" }, required: { value: true } } })).toContain('placeholder="6 digits" required>')
  })

  it("refuses an attribute of the wrong kind at start, naming it", async () => {
    const errors: string[] = []
    const provider = passwordProvider({ credentials: { username: { label: "Username", minLength: "three" } } as never })
    const config = testConfig({ providers: [provider], logger: { error: (error) => void errors.push(error.message), warn: () => undefined } })
    const response = await Auth(new Request(`${ORIGIN}/api/auth/signin`), config)
    expect(response.status).toBe(503)
    expect(errors.join("\n")).toContain('providers["credentials"].credentials.username.minLength')
  })
})

describe("the app's name and home link (theme.brandName, theme.homeUrl)", () => {
  const email: PageProvider = { id: "email", name: "Email", kind: "email", action: "/e", style: {} }
  const signIn = (theme: Parameters<typeof renderSignIn>[0]["theme"], extra: Partial<Parameters<typeof renderSignIn>[0]> = {}) =>
    renderSignIn({ theme, homeUrl: "https://app.example", providers: [email], csrfToken: "t", callbackUrl: undefined, error: undefined, ...extra })

  it("titles the page with the app's name and links the name to theme.homeUrl, taken on the app's origin", () => {
    const page = signIn({ brandName: "Acme", homeUrl: "/start" })
    expect(page).toContain("<title>Sign in · Acme</title>")
    expect(page).toContain('<a class="brand" href="https://app.example/start"><span>Acme</span></a>')
  })

  it("without a brandName keeps the title and names the home page by its host", () => {
    const page = signIn({})
    expect(page).toContain("<title>Sign in</title>")
    expect(page).toContain('<a class="brand" href="https://app.example"><span>app.example</span></a>')
  })

  it("escapes the app's name in the title and the link", () => {
    const page = signIn({ brandName: '<img src=x onerror="alert(1)">' })
    expect(page).not.toContain("<img src=x")
    expect(page).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;")
  })

  it("says who is signed in, escaped, with the way on to callbackUrl and a sign-out link, and keeps every form (linking another account)", () => {
    const page = signIn(
      {},
      { callbackUrl: "https://app.example/protected?tab=1", signedIn: { user: { name: "Ada <b>Lovelace</b>", email: "ada@example.com" }, signOutUrl: "https://app.example/api/auth/signout?callbackUrl=x" } },
    )
    expect(page).toContain("You are signed in as <strong>Ada &lt;b&gt;Lovelace&lt;/b&gt;</strong> (ada@example.com).")
    expect(page).toContain('<a href="https://app.example/protected?tab=1">Continue to /protected?tab=1</a>')
    expect(page).toContain('<a href="https://app.example/api/auth/signout?callbackUrl=x">Sign out</a>')
    expect(page).toContain('action="/e"')
  })

  it("says nothing about a session when nobody is signed in", () => {
    expect(signIn({})).not.toContain("signed in as")
  })
})
