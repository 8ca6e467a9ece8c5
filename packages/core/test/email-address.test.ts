import { describe, expect, it } from "vitest"
import { defaultNormalizeIdentifier, isSingleAddress } from "../src/email/address.js"

describe("email addresses as sign-in identifiers", () => {
  it("accepts plain addresses, tags, subdomains and non-Latin scripts", () => {
    for (const address of ["ada@example.com", "ada.lovelace+news@mail.example.co.uk", "o'brien@example.ie", "用户@例子.广告", "ada@xn--bcher-kva.example"]) {
      expect(isSingleAddress(address), address).toBe(true)
    }
  })

  it("refuses anything that is not exactly one plain address", () => {
    for (const address of ["a@b.c, d@e.f", "Ada <ada@example.com>", '"ada"@example.com', "ada@example.com ", "ada..x@example.com", ".ada@example.com", "ada@-example.com", "ada@example", "@example.com", `${"a".repeat(65)}@example.com`]) {
      expect(isSingleAddress(address), address).toBe(false)
    }
  })

  it("normalises by trimming and lowercasing, by default", () => {
    expect(defaultNormalizeIdentifier("  Ada@Example.COM\n")).toBe("ada@example.com")
  })
})
