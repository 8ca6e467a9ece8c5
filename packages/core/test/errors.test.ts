import { describe, expect, it } from "vitest"
import { AccessDenied, AuthError, Configuration, InvalidCheck, errorMessages, isAuthErrorCode } from "../src/errors.js"

describe("AuthError", () => {
  it("carries a stable code, its class name and the cause", () => {
    const cause = new Error("boom")
    const error = new InvalidCheck("state mismatch", { cause })
    expect(error).toBeInstanceOf(AuthError)
    expect(error.code).toBe("InvalidCheck")
    expect(error.name).toBe("InvalidCheck")
    expect(error.cause).toBe(cause)
    expect(error.page).toBe("signin")
  })

  it("sends configuration and access failures to the error page", () => {
    expect(new Configuration("x").page).toBe("error")
    expect(new AccessDenied("x").page).toBe("error")
  })

  it("recognises only known codes from untrusted input", () => {
    expect(isAuthErrorCode("AccessDenied")).toBe(true)
    expect(isAuthErrorCode("toString")).toBe(false)
    expect(isAuthErrorCode("__proto__")).toBe(false)
    expect(isAuthErrorCode(42)).toBe(false)
    for (const message of Object.values(errorMessages)) expect(message).toMatch(/\.$/)
  })
})
