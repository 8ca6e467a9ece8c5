// One key per inbox (issue 33, item 4): every spelling a mail system delivers to one mailbox
// folds to one key, so the mail limit and the password lockout count per inbox, not per spelling.
import { describe, expect, it } from "vitest"
import { mailboxKey } from "../../src/email/index.js"
import { Jar, call, csrfToken, location, passwordProvider, testConfig } from "../helpers.js"

describe("mailboxKey", () => {
  it("folds full-width forms (NFKC, UAX #15), the domain's included", () => {
    expect(mailboxKey("ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ")).toBe("ada@example.com")
    expect(mailboxKey("ａｄａ@example.com")).toBe("ada@example.com")
  })

  it("writes an internationalised domain in ASCII (IDNA, UTS #46 ToASCII): Unicode and punycode are one domain", () => {
    expect(mailboxKey("ada@bücher.example")).toBe("ada@xn--bcher-kva.example")
    expect(mailboxKey("ada@xn--bcher-kva.example")).toBe("ada@xn--bcher-kva.example")
    expect(mailboxKey("ada@BÜCHER.Example")).toBe("ada@xn--bcher-kva.example")
    expect(mailboxKey("ada@bücher。example")).toBe("ada@xn--bcher-kva.example")
    expect(mailboxKey("ada@example.com.")).toBe("ada@example.com")
  })

  it("drops a +tag (RFC 5233 subaddress) from the local part", () => {
    expect(mailboxKey("ada+news@example.com")).toBe("ada@example.com")
    expect(mailboxKey("ada+a+b@example.com")).toBe("ada@example.com")
    expect(mailboxKey("ada＋news@example.com")).toBe("ada@example.com")
  })

  it("drops dots at gmail.com only, and counts googlemail.com as gmail.com", () => {
    expect(mailboxKey("a.d.a@gmail.com")).toBe("ada@gmail.com")
    expect(mailboxKey("Ada.Lovelace+x@GoogleMail.com")).toBe("adalovelace@gmail.com")
    expect(mailboxKey("ada@googlemail.com")).toBe("ada@gmail.com")
    expect(mailboxKey("a.d.a@example.com")).toBe("a.d.a@example.com")
  })

  it("drops case, and folds again what lower-casing leaves unnormalised", () => {
    expect(mailboxKey("  Ada@Example.COM\n")).toBe("ada@example.com")
    expect(mailboxKey("ÅDA@example.com")).toBe(mailboxKey("åda@example.com"))
    expect(mailboxKey("Å".normalize("NFD") + "da@example.com")).toBe("åda@example.com")
  })

  it("folds a user name without @ the same way, and nothing more", () => {
    expect(mailboxKey("ＡＤＡ")).toBe("ada")
    expect(mailboxKey("\u3000Ada.Lovelace+x ")).toBe("ada.lovelace+x")
  })

  it("gives hostile values a stable key and never throws: empty, no @, huge, control characters, URL delimiters", () => {
    const hostile = ["", "   ", "@", "ada@", "@example.com", "no-at-all", "a".repeat(1_000_000) + "@" + "b".repeat(1_000_000), "ada\u0000@exa\u0000mple.com", "ada@ex\nample.com",
      "ada@example.com/evil", "ada@exa mple.com", "ada@[::1]", "ada@xn--zz.example", "ada@\ud800.example", "ada@%41.example", "\u0085\u200b@\u00ad"]
    for (const value of hostile) {
      const key = mailboxKey(value)
      expect(typeof key).toBe("string")
      expect(mailboxKey(value)).toBe(key)
    }
    expect(mailboxKey("")).toBe("")
    // A delimiter the URL parser would cut at, or a control character it would drop, stays in the key.
    expect(mailboxKey("ada@example.com/evil")).not.toBe(mailboxKey("ada@example.com"))
    expect(mailboxKey("ada@ex\nample.com")).not.toBe(mailboxKey("ada@example.com"))
  })

  it("keeps a hostile identifier a plain wrong password through Auth(), never a 500", async () => {
    const config = testConfig({ providers: [passwordProvider()] })
    const jar = new Jar()
    for (const username of ["ada\u0000", "a".repeat(5000), "@", "ada@ex/ample.com", "ada@\ud800.example", "\u0085"]) {
      const token = await csrfToken(config, jar)
      const response = await call(config, jar, "/api/auth/callback/credentials", {
        method: "POST",
        form: new URLSearchParams({ csrfToken: token, username, password: "wrong", callbackUrl: "/" }),
      })
      expect(response.status).toBe(302)
      expect(location(response).searchParams.get("error")).toBe("CredentialsSignin")
    }
  })
})
