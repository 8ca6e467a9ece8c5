import { describe, expect, it } from "vitest"
import { AccessDenied, AuthError, Configuration, CredentialsSignin, EmailSignInError, InvalidCheck, errorMessages, isAuthErrorCode } from "../src/errors.js"

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

  it("sends refused credentials and unsent links back to the sign-in page, with a safe public code", () => {
    expect(new CredentialsSignin().page).toBe("signin")
    expect(new CredentialsSignin().publicCode).toBe("credentials")
    expect(new CredentialsSignin("locked", { code: "locked" }).publicCode).toBe("locked")
    expect(new CredentialsSignin("x", { code: "a b&c" }).publicCode).toBe("credentials")
    class TooManyAttempts extends CredentialsSignin {
      override readonly publicCode = "rate_limited"
    }
    expect(new TooManyAttempts().publicCode).toBe("rate_limited")
    expect(new EmailSignInError("x").page).toBe("signin")
  })

  it("recognises only known codes from untrusted input", () => {
    expect(isAuthErrorCode("AccessDenied")).toBe(true)
    expect(isAuthErrorCode("toString")).toBe(false)
    expect(isAuthErrorCode("__proto__")).toBe(false)
    expect(isAuthErrorCode(42)).toBe(false)
    for (const message of Object.values(errorMessages)) expect(message).toMatch(/\.$/)
  })
})
