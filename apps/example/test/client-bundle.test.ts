import { describe, expect, it } from "vitest"

import { bundleClientScript } from "../src/client-bundle.js"

describe("bundleClientScript", () => {
  it("bundles the browser script with @portcullis/core/client into one module without imports", async () => {
    const script = await bundleClientScript()
    expect(script).toContain("x-auth-return-redirect")
    expect(script).toContain("data-sign-in")
    expect(script).not.toMatch(/^\s*import\s/m)
  })
})
