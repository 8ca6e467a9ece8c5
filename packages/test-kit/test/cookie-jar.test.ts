import { describe, expect, it } from "vitest"

import { CookieJar, isTrustworthy, siteOf } from "../src/cookie-jar.js"

const sameSite = { sameSite: true, safeTopLevelNavigation: true }
const crossSiteGet = { sameSite: false, safeTopLevelNavigation: true }
const crossSitePost = { sameSite: false, safeTopLevelNavigation: false }

function jarAt(start = Date.parse("2030-01-01T00:00:00Z")) {
  let now = start
  const jar = new CookieJar(() => now)
  return {
    jar,
    advance: (ms: number) => {
      now += ms
    },
  }
}

const url = (href: string) => new URL(href)

describe("parsing Set-Cookie", () => {
  it("stores name and value, ignoring attribute case and spacing", () => {
    const { jar } = jarAt()
    expect(jar.store("sid = abc=def ;  PATH=/ ; httponly; SameSite=STRICT", url("http://localhost:3000/x"))).toBeUndefined()
    expect(jar.list(url("http://localhost/"))).toEqual([
      {
        name: "sid",
        value: "abc=def",
        domain: "localhost",
        hostOnly: true,
        path: "/",
        expires: undefined,
        secure: false,
        httpOnly: true,
        sameSite: "strict",
      },
    ])
  })

  it("ignores a header without a name=value pair or with an empty name", () => {
    const { jar } = jarAt()
    expect(jar.store("justavalue", url("http://localhost/"))).toMatch(/name=value/u)
    expect(jar.store("=value", url("http://localhost/"))).toMatch(/empty/u)
    expect(jar.list(url("http://localhost/"))).toEqual([])
  })

  it("replaces a cookie with the same name, domain and path, keeping its creation order", () => {
    const { jar } = jarAt()
    jar.store("a=1; Path=/", url("http://localhost/"))
    jar.store("b=2; Path=/", url("http://localhost/"))
    jar.store("a=3; Path=/", url("http://localhost/"))
    expect(jar.header(url("http://localhost/"), sameSite)).toBe("a=3; b=2")
  })
})

describe("expiry", () => {
  it("expires a cookie after Max-Age seconds", () => {
    const { jar, advance } = jarAt()
    jar.store("short=1; Max-Age=60; Path=/", url("http://localhost/"))
    advance(59_000)
    expect(jar.header(url("http://localhost/"), sameSite)).toBe("short=1")
    advance(1_000)
    expect(jar.header(url("http://localhost/"), sameSite)).toBe("")
  })

  it("deletes an existing cookie on Max-Age=0 or a past Expires", () => {
    const { jar } = jarAt()
    jar.store("a=1; Path=/", url("http://localhost/"))
    jar.store("b=1; Path=/", url("http://localhost/"))
    jar.store("a=; Path=/; Max-Age=0", url("http://localhost/"))
    jar.store("b=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT", url("http://localhost/"))
    expect(jar.list(url("http://localhost/"))).toEqual([])
  })

  it("lets Max-Age win over Expires, whatever their order", () => {
    const { jar, advance } = jarAt()
    jar.store("a=1; Max-Age=3600; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/", url("http://localhost/"))
    expect(jar.header(url("http://localhost/"), sameSite)).toBe("a=1")
    advance(3_600_000)
    expect(jar.header(url("http://localhost/"), sameSite)).toBe("")
  })

  it("keeps a cookie until its Expires date", () => {
    const { jar, advance } = jarAt(Date.parse("2030-01-01T00:00:00Z"))
    jar.store("a=1; Path=/; Expires=Tue, 01 Jan 2030 01:00:00 GMT", url("http://localhost/"))
    expect(jar.list(url("http://localhost/"))[0]?.expires).toBe(Date.parse("2030-01-01T01:00:00Z"))
    advance(3_600_000)
    expect(jar.list(url("http://localhost/"))).toEqual([])
  })
})

describe("path", () => {
  it("defaults to the directory of the request path", () => {
    const { jar } = jarAt()
    jar.store("a=1", url("http://localhost/auth/callback/demo"))
    expect(jar.list(url("http://localhost/"))[0]?.path).toBe("/auth/callback")
    expect(jar.header(url("http://localhost/auth/callback"), sameSite)).toBe("a=1")
    expect(jar.header(url("http://localhost/auth/callback/other"), sameSite)).toBe("a=1")
    expect(jar.header(url("http://localhost/auth"), sameSite)).toBe("")
    expect(jar.header(url("http://localhost/auth/callbackx"), sameSite)).toBe("")
  })

  it("is sent only on matching paths, longest path first", () => {
    const { jar } = jarAt()
    jar.store("root=1; Path=/", url("http://localhost/"))
    jar.store("deep=1; Path=/interaction/abc", url("http://localhost/"))
    expect(jar.header(url("http://localhost/interaction/abc/login"), sameSite)).toBe("deep=1; root=1")
    expect(jar.header(url("http://localhost/interaction/other"), sameSite)).toBe("root=1")
  })
})

describe("domain and secure", () => {
  it("ignores ports and keeps host-only cookies off subdomains", () => {
    const { jar } = jarAt()
    jar.store("a=1; Path=/", url("http://app.example.test:3000/"))
    expect(jar.header(url("http://app.example.test:4000/"), sameSite)).toBe("a=1")
    expect(jar.header(url("http://api.app.example.test/"), sameSite)).toBe("")
  })

  it("shares a Domain cookie with subdomains and rejects a foreign Domain", () => {
    const { jar } = jarAt()
    expect(jar.store("a=1; Domain=.example.test; Path=/", url("http://app.example.test/"))).toBeUndefined()
    expect(jar.header(url("http://api.example.test/"), sameSite)).toBe("a=1")
    expect(jar.store("b=1; Domain=other.test", url("http://app.example.test/"))).toMatch(/does not match/u)
  })

  it("accepts Secure cookies from https and loopback only, and sends them only there", () => {
    const { jar } = jarAt()
    expect(jar.store("a=1; Secure; Path=/", url("http://example.test/"))).toMatch(/insecure/u)
    expect(jar.store("b=1; Secure; Path=/", url("http://localhost:3000/"))).toBeUndefined()
    expect(jar.header(url("http://localhost/"), sameSite)).toBe("b=1")
    jar.store("c=1; Secure; Path=/; Domain=example.test", url("https://example.test/"))
    expect(jar.header(url("https://example.test/"), sameSite)).toBe("c=1")
    expect(jar.header(url("http://example.test/"), sameSite)).toBe("")
  })

  it("enforces the __Secure- and __Host- prefixes", () => {
    const { jar } = jarAt()
    const origin = url("https://example.test/a/b")
    expect(jar.store("__Secure-a=1", origin)).toMatch(/__Secure-/u)
    expect(jar.store("__Secure-a=1; Secure", origin)).toBeUndefined()
    expect(jar.store("__Host-b=1; Secure", origin)).toMatch(/__Host-/u)
    expect(jar.store("__Host-b=1; Secure; Path=/; Domain=example.test", origin)).toMatch(/__Host-/u)
    expect(jar.store("__Host-b=1; Secure; Path=/", origin)).toBeUndefined()
  })
})

describe("SameSite", () => {
  function jarWithAll() {
    const { jar } = jarAt()
    const origin = url("http://localhost:3000/")
    jar.store("strict=1; Path=/; SameSite=Strict", origin)
    jar.store("lax=1; Path=/; SameSite=Lax", origin)
    jar.store("unset=1; Path=/", origin)
    jar.store("none=1; Path=/; SameSite=None; Secure", origin)
    return jar
  }

  it("sends every cookie on same-site requests", () => {
    expect(jarWithAll().header(url("http://localhost:3000/"), sameSite)).toBe("strict=1; lax=1; unset=1; none=1")
  })

  it("sends Lax (and unset) cookies on a cross-site top-level GET, not Strict ones", () => {
    expect(jarWithAll().header(url("http://localhost:3000/"), crossSiteGet)).toBe("lax=1; unset=1; none=1")
  })

  it("sends only SameSite=None cookies on a cross-site POST (the form_post case)", () => {
    expect(jarWithAll().header(url("http://localhost:3000/"), crossSitePost)).toBe("none=1")
  })

  it("rejects SameSite=None without Secure", () => {
    const { jar } = jarAt()
    expect(jar.store("a=1; SameSite=None", url("http://localhost/"))).toMatch(/SameSite=None/u)
  })

  it("compares sites by scheme and registrable domain, ignoring ports", () => {
    expect(siteOf(url("http://localhost:3000/"))).toBe(siteOf(url("http://localhost:4000/")))
    expect(siteOf(url("http://localhost:3000/"))).not.toBe(siteOf(url("http://127.0.0.1:3000/")))
    expect(siteOf(url("https://app.example.com/"))).toBe(siteOf(url("https://idp.example.com/")))
    expect(siteOf(url("https://example.com/"))).not.toBe(siteOf(url("http://example.com/")))
  })

  it("treats loopback and localhost as trustworthy origins", () => {
    expect(isTrustworthy(url("http://127.0.0.1:8080/"))).toBe(true)
    expect(isTrustworthy(url("http://localhost/"))).toBe(true)
    expect(isTrustworthy(url("http://app.localhost/"))).toBe(true)
    expect(isTrustworthy(url("http://[::1]/"))).toBe(true)
    expect(isTrustworthy(url("http://example.test/"))).toBe(false)
  })
})
