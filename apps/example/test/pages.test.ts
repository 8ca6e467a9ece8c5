import type { Session } from "@portcullis/core"
import { describe, expect, it } from "vitest"

import { escapeHtml, initials, pagePolicy, renderAccount, renderCheckEmail, renderHome, renderNotFound, renderProtected, type AccountView, type HomeView } from "../src/pages.js"

const hostile = `<script>alert("x")</script>`

function home(session: Session | null, overrides: Partial<HomeView> = {}): string {
  return renderHome({
    session,
    sessionStrategy: "database",
    demoIdpUrl: "http://127.0.0.1:4400",
    providers: [{ id: "github", name: "GitHub", enabled: false, variables: ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET"] }],
    emailDelivery: "terminal",
    ...overrides,
  })
}

function session(user: NonNullable<Session["user"]>): Session {
  return { user, expires: "2030-01-01T00:00:00.000Z" }
}

describe("renderHome", () => {
  it("shows the signed-out state with the custom Dev IdP button, disabled until the script runs", () => {
    const page = home(null)
    expect(page).toContain("You are not signed in")
    expect(page).toContain('<button type="button" class="button primary" data-sign-in="demo" disabled>Sign in with Dev IdP</button>')
    expect(page).toContain('<script type="module" src="/assets/client.js"></script>')
    expect(page).toContain("<code>AUTH_GITHUB_ID</code> and <code>AUTH_GITHUB_SECRET</code>")
  })

  it("lists the demo user and says how sign-in links are delivered", () => {
    const page = home(null)
    expect(page).toContain("the demo user <code>demo</code>")
    expect(page).toContain("Demo user (username and password) <span class=\"badge on\">on</span>")
    expect(page).toContain("Email sign-in link <span class=\"badge on\">on</span> <span class=\"muted\">links are printed in the terminal")
    expect(home(null, { emailDelivery: "smtp" })).toContain("links are emailed through <code>AUTH_EMAIL_SERVER</code>")
    expect(home(null, { emailDelivery: "off" })).toContain("Email sign-in link <span class=\"badge off\">off</span>")
  })

  it("offers passkeys, saying the address is confirmed by a link only when links can be sent", () => {
    expect(home(null)).toContain("or create a passkey.")
    expect(home(null)).toContain('Passkeys <span class="badge on">on</span> <span class="muted">always: create one on the sign-in page; the address is confirmed by a link first</span>')
    expect(home(null, { emailDelivery: "off" })).toContain('Passkeys <span class="badge on">on</span> <span class="muted">always: create one on the sign-in page</span>')
  })

  it("shows the session's name, email and image when signed in", () => {
    const page = home(session({ name: "Alice Example", email: "alice@example.com", image: "http://127.0.0.1:4400/avatars/alice.svg" }))
    expect(page).toContain("You are signed in")
    expect(page).toContain(">Alice Example</p>")
    expect(page).toContain(">alice@example.com</p>")
    expect(page).toContain('<img class="avatar" src="http://127.0.0.1:4400/avatars/alice.svg"')
    expect(page).not.toContain("<script")
  })

  it("says which strategy keeps the session", () => {
    expect(home(session({ name: "A" }), { sessionStrategy: "jwt" })).toContain("JWT session")
    expect(home(session({ name: "A" }))).toContain("database session")
  })

  it("escapes what the identity provider sent", () => {
    const page = home(session({ name: hostile, email: `"><img src=x onerror=alert(1)>` }))
    expect(page).not.toContain(hostile)
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
    expect(page).not.toContain("<img src=x")
  })

  it("shows no image whose URL is not http(s)", () => {
    const page = home(session({ name: "A", image: "javascript:alert(1)" }))
    expect(page).not.toContain("javascript:")
    expect(page).not.toContain("<img")
  })

  it("copes with a user who shared neither name nor email", () => {
    const page = home(session({ name: null, email: null, image: null }))
    expect(page).toContain("(no name shared)")
    expect(page).toContain("(no email shared)")
  })
})

describe("renderProtected", () => {
  it("shows the user and the session as escaped JSON", () => {
    const page = renderProtected(session({ name: hostile, email: "a@example.com" }))
    expect(page).toContain("Protected page")
    expect(page).not.toContain(hostile)
    expect(page).toContain("&quot;email&quot;: &quot;a@example.com&quot;")
  })
})

describe("renderNotFound", () => {
  it("escapes the path", () => {
    expect(renderNotFound(`/${hostile}`)).not.toContain(hostile)
  })
})

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;")
  })
})

describe("pagePolicy", () => {
  it("allows no inline script and images from https and the given origins only", () => {
    const policy = pagePolicy(["http://127.0.0.1:4400"])
    expect(policy).toContain("script-src 'self'")
    expect(policy).not.toContain("unsafe-inline")
    expect(policy).toContain("img-src 'self' https: data: http://127.0.0.1:4400")
  })
})

describe("the avatar without a picture", () => {
  it("shows the initials of the first and last name, or the email's first letter", () => {
    expect(initials({ name: "Ada Byron Lovelace" })).toBe("AL")
    expect(initials({ name: "  carol  " })).toBe("C")
    expect(initials({ name: null, email: "dave@example.org" })).toBe("D")
    expect(initials({})).toBe("?")
  })

  it("draws the initials, escaped, instead of an empty circle", () => {
    const page = home(session({ name: "<b>ob Example", email: "bob@example.com" }))
    expect(page).toContain('<span class="avatar initials" aria-hidden="true" data-testid="avatar-initials">&lt;E</span>')
  })
})

describe("renderCheckEmail", () => {
  it("says that in development the link is in the terminal", () => {
    const page = renderCheckEmail("terminal")
    expect(page).toContain("Check your email")
    expect(page).toContain("printed in the terminal")
    expect(page).toContain("after creating a passkey, to create your account")
  })

  it("does not mention the terminal when links are emailed", () => {
    expect(renderCheckEmail("smtp")).not.toContain("terminal")
  })

  it("names the address the link went to, escaped: it comes from the request", () => {
    for (const delivery of ["terminal", "smtp"] as const) {
      const page = renderCheckEmail(delivery, hostile)
      expect(page).toContain('<strong data-testid="link-address">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</strong>')
      expect(page).not.toContain("<script>")
      expect(renderCheckEmail(delivery)).not.toContain("link-address")
    }
  })
})

describe("renderAccount", () => {
  const view: AccountView = {
    session: session({ name: "Ada", email: "ada@example.com" }),
    devices: [{ id: "s1", device: "Chrome on Linux", createdAt: "2026-01-01T00:00:00.000Z", lastSeenAt: "2026-01-01T00:00:00.000Z", clientAddress: null, current: true, provider: null }],
    accounts: [
      { provider: "github", providerAccountId: hostile, name: hostile, lastSignInMethod: false },
      { provider: "demo", providerAccountId: "alice", name: "Dev IdP", lastSignInMethod: true },
    ],
    linkable: [{ id: "google", name: "Google" }],
    passkeys: [{ id: "cred-1", name: hostile, createdAt: "2026-01-01T00:00:00.000Z", lastUsedAt: null }],
    twoStep: { authenticator: false, backupCodes: 0 },
  }

  it("shows every section, each change a button the script enables, and escapes what the store and providers named", () => {
    const page = renderAccount(view)
    for (const heading of ["Account", "Signed-in devices", "Linked accounts", "Passkeys", "Two-step sign-in"]) expect(page).toMatch(new RegExp(`<h[12][^>]*>${heading}</h[12]>`))
    expect(page).not.toContain(hostile)
    expect(page).toContain(`data-unlink-provider="github" data-unlink-account="${escapeHtml(hostile)}" disabled>Unlink</button>`)
    // The last way in has no button: the page says why instead.
    expect(page).toContain("your only way to sign in")
    expect(page.match(/data-unlink-provider=/g)).toHaveLength(1)
    expect(page).toContain('<button type="button" class="button" data-sign-in="google" disabled>Link Google</button>')
    expect(page).toContain('data-delete-passkey="cred-1" disabled>Delete</button>')
    expect(page).toContain("data-add-passkey disabled>Add a passkey</button>")
    expect(page).toContain("/api/auth/mfa/setup?callbackUrl=%2Faccount")
    expect(page).toContain('<script type="module" src="/assets/client.js"></script>')
  })

  it("leaves the passkeys out of an app without a passkey provider", () => {
    expect(renderAccount({ ...view, passkeys: undefined })).not.toContain("Passkeys")
  })
})
