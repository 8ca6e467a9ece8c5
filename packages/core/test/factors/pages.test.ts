/**
 * The second-factor pages' HTML: the fields a phone and a password manager need, the forms and
 * their CSRF token, and every hostile value (a brand name, an error code or a backup code from
 * a request, a `javascript:` continue link) reaching the page only as text.
 */
import { describe, expect, it } from "vitest"

import { backupCodesPage, mfaChallengePage, totpSetupPage, type FactorPageContext } from "../../src/factors/pages.js"
import type { Theme } from "../../src/model.js"

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`

function context(theme: Theme = {}): FactorPageContext {
  return { origin: "https://app.example", authUrl: "https://app.example/api/auth", config: { theme } }
}

/** The page has no markup but ours: no script or img element, no event handler attribute, no `javascript:` URL in any tag. */
function expectNoInjection(html: string): void {
  expect(html).not.toMatch(/<script/i)
  expect(html).not.toMatch(/<img/i)
  for (const [element] of html.matchAll(/<[a-z][^>]*>/gi)) {
    // Attribute values are text: what they hold is checked as escaped above.
    expect(element.replace(/"[^"]*"/g, '""'), element).not.toMatch(/\son[a-z]+=/i)
    expect(element, element).not.toMatch(/=\s*"\s*javascript:/i)
  }
}

/** The opening tag of the element with `id`. */
function tag(html: string, id: string): string {
  return new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? ""
}

describe("mfaChallengePage", () => {
  it("asks for the app's code with autocomplete=one-time-code and a numeric keyboard (NIST SP 800-63B §5.1.4.1), posting the CSRF token and factor", () => {
    const html = mfaChallengePage(context(), { factors: ["totp", "backup"], csrfToken: "csrf-123" })
    const field = tag(html, "mfa-totp")
    expect(field).toContain('autocomplete="one-time-code"')
    expect(field).toContain('inputmode="numeric"')
    expect(field).toContain('name="code"')
    expect(html).toContain('<label for="mfa-totp">Code from your authenticator app</label>')
    const forms = [...html.matchAll(/<form method="post" action="https:\/\/app\.example\/api\/auth\/mfa\/verify"[^>]*>.*?<\/form>/g)].map(([form]) => form)
    expect(forms).toHaveLength(2)
    for (const form of forms) expect(form).toContain('<input type="hidden" name="csrfToken" value="csrf-123">')
    expect(forms[0]).toContain('name="factor" value="totp"')
    expect(forms[1]).toContain('name="factor" value="backup"')
    expect(html).toMatch(/<details><summary>Use a backup code instead<\/summary><form/)
    expect(html).not.toContain("data-mfa-passkey")
    expect(html).not.toContain('role="alert"')
  })

  it("offers a passkey button only when that factor is allowed, with an empty credential for the passkey script", () => {
    const html = mfaChallengePage(context(), { factors: ["totp", "passkey", "backup"], csrfToken: "t" })
    expect(html).toMatch(/<form [^>]*data-mfa-passkey>.*name="factor" value="passkey".*<input type="hidden" name="credential" value="">.*Use a passkey<\/button><p class="error" role="alert" data-passkey-error hidden><\/p><\/form>/)
    expect(mfaChallengePage(context(), { factors: ["passkey"], csrfToken: "t" })).toMatch(/class="button primary"[^>]*>Use a passkey/)
    const drawn = mfaChallengePage(context(), { factors: ["passkey"], csrfToken: "t", passkey: { attributes: ' data-passkey-provider="passkey"', script: '<script src="/s" defer></script>' } })
    expect(drawn).toMatch(/<form [^>]*data-mfa-passkey data-passkey-provider="passkey">.*<\/form><script src="\/s" defer><\/script>/)
  })

  it("offers \"Email me a code\" (a post to /mfa/email with the CSRF token) and the code's numeric one-time-code field, posting factor email", () => {
    const html = mfaChallengePage(context(), { factors: ["email", "backup"], csrfToken: "csrf-123" })
    expect(html).toMatch(/<form method="post" action="https:\/\/app\.example\/api\/auth\/mfa\/email"><input type="hidden" name="csrfToken" value="csrf-123"><button type="submit" class="button primary"[^>]*>Email me a code<\/button><\/form>/)
    const field = tag(html, "mfa-email")
    expect(field).toContain('autocomplete="one-time-code"')
    expect(field).toContain('inputmode="numeric"')
    expect(html).toContain('<label for="mfa-email">Code from the email</label>')
    expect(html).toMatch(/<form method="post" action="https:\/\/app\.example\/api\/auth\/mfa\/verify"><input type="hidden" name="csrfToken" value="csrf-123"><input type="hidden" name="factor" value="email">/)
    expect(html).not.toContain('role="status"')
  })

  it("once a code was asked for (?factor=email), says it was sent and puts its field first and focused; behind a disclosure, open, when another factor comes first", () => {
    const sent = mfaChallengePage(context(), { factors: ["email"], csrfToken: "t", factor: "email" })
    expect(sent).toContain('<p class="notice" role="status">We emailed you a code.')
    expect(tag(sent, "mfa-email")).toContain("autofocus")
    expect(sent.indexOf('id="mfa-email"')).toBeLessThan(sent.indexOf("Email me a new code"))
    expect(mfaChallengePage(context(), { factors: ["email"], csrfToken: "t", factor: "email", error: "codeExpired" })).toContain('<p class="error" role="alert">That code has expired or was used up. Ask for a new one.</p>')
    expect(mfaChallengePage(context(), { factors: ["totp", "email"], csrfToken: "t" })).toContain("<details><summary>Email me a code instead</summary>")
    expect(mfaChallengePage(context(), { factors: ["totp", "email"], csrfToken: "t", factor: "email" })).toContain("<details open><summary>Email me a code instead</summary>")
  })

  it("shows the backup form open after a refused backup code, and alone when it is the only way", () => {
    expect(mfaChallengePage(context(), { factors: ["totp", "backup"], csrfToken: "t", error: "invalidCode", factor: "backup" })).toContain("<details open><summary>")
    const only = mfaChallengePage(context(), { factors: ["backup"], csrfToken: "t" })
    expect(only).not.toContain("<details")
    expect(tag(only, "mfa-backup")).toContain("autofocus")
  })

  it("shows a known error's own sentence, and a hostile one only as a neutral sentence", () => {
    expect(mfaChallengePage(context(), { factors: ["totp"], csrfToken: "t", error: "replayed" })).toContain('<p class="error" role="alert">That code was already used. Wait for the next code in your app, then enter it.</p>')
    const hostile = mfaChallengePage(context(), { factors: ["totp"], csrfToken: "t", error: HOSTILE })
    expect(hostile).toContain('<p class="error" role="alert">That did not work. Please try again.</p>')
    expectNoInjection(hostile)
    expect(mfaChallengePage(context(), { factors: ["totp"], csrfToken: "t", error: "constructor" })).toContain("That did not work. Please try again.")
  })

  it("escapes a hostile brand name and CSRF token (ASVS 3.2.2)", () => {
    const html = mfaChallengePage(context({ brandName: HOSTILE }), { factors: ["totp", "backup", "passkey"], csrfToken: HOSTILE })
    expectNoInjection(html)
    expect(html).toContain("&quot;&gt;&lt;script&gt;")
    expect(html).toMatch(/<title>Two-step sign-in · &quot;&gt;&lt;script&gt;/)
  })
})

describe("totpSetupPage", () => {
  const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
  const uri = `otpauth://totp/Acme:ada%40example.com?secret=${secret}&issuer=Acme`

  it("draws the QR code inline as a labelled image, the key in groups of four, and the confirm form with its CSRF token", () => {
    const html = totpSetupPage(context({ brandName: "Acme" }), { secret, uri, csrfToken: "csrf-9" })
    expect(html).toMatch(/<svg [^>]*class="qr"[^>]*role="img" aria-label="QR code that adds Acme to your authenticator app"/)
    expect(html).not.toMatch(/<img|https?:\/\/(?!app\.example|www\.w3\.org)/)
    expect(html).toContain('<p class="secret">JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP</p>')
    expect(html).toMatch(/<form method="post" action="https:\/\/app\.example\/api\/auth\/mfa\/totp\/confirm"><input type="hidden" name="csrfToken" value="csrf-9">/)
    expect(tag(html, "totp-confirm")).toContain('autocomplete="one-time-code"')
  })

  it("escapes a hostile brand name, secret and error", () => {
    const html = totpSetupPage(context({ brandName: HOSTILE }), { secret: HOSTILE, uri, csrfToken: HOSTILE, error: HOSTILE })
    expectNoInjection(html)
  })
})

describe("backupCodesPage", () => {
  const codes = ["abcd-efgh-jkmn", "pqrs-tuvw-xyz2"]

  it("lists the codes once, says in plain words to save them, and offers a download that needs no script", () => {
    const html = backupCodesPage(context({ brandName: "Acme Tools" }), { codes, continueUrl: "https://app.example/settings" })
    expect(html).toContain('<ul class="codes" aria-label="Backup codes"><li>abcd-efgh-jkmn</li><li>pqrs-tuvw-xyz2</li></ul>')
    expect(html).toContain("This is the only time you will see these codes.")
    const link = /<a class="button" href="data:text\/plain;charset=utf-8,([^"]+)" download="acme-tools-backup-codes.txt">Download the codes<\/a>/.exec(html)
    expect(decodeURIComponent(link?.[1] ?? "")).toContain("abcd-efgh-jkmn\npqrs-tuvw-xyz2\n")
    expect(html).toMatch(/<a class="button primary" href="https:\/\/app\.example\/settings"[^>]*>I have saved my codes<\/a>/)
  })

  it("never links a javascript: continue URL (ASVS 3.2.2): the home page instead", () => {
    for (const continueUrl of ["javascript:alert(document.cookie)", " JaVaScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>"]) {
      const html = backupCodesPage(context(), { codes, continueUrl })
      expect(html).toMatch(/<a class="button primary" href="https:\/\/app\.example"/)
      expect(html).not.toMatch(/javascript:/i)
    }
  })

  it("escapes hostile codes and brand names, in the page and the file name", () => {
    const html = backupCodesPage(context({ brandName: HOSTILE }), { codes: [HOSTILE], continueUrl: "/next" })
    expectNoInjection(html.replace(/href="data:[^"]*"/, ""))
    expect(html).toMatch(/download="script-alert-1-script-img-src-x-onerror-alert-2-backup-codes.txt"/)
  })
})
