import { afterEach, describe, expect, it, vi } from "vitest"
import { graphPhoto, photoSize } from "./photo.js"

describe("graphPhoto", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it("reads the photo at that size from Microsoft Graph with the access token, as a data URL", async () => {
    const seen: string[] = []
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      seen.push(`${url} ${new Headers(init.headers).get("authorization") ?? ""}`)
      return Promise.resolve(new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { "content-type": "image/png; charset=binary" } }))
    })
    expect(await graphPhoto(240, "graph-token")).toBe("data:image/png;base64,iVBORw==")
    expect(seen).toEqual(["https://graph.microsoft.com/v1.0/me/photos/240x240/$value Bearer graph-token"])
  })

  it("is null when the user has no photo, Graph fails, or there is no access token", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(new Response(null, { status: 404 })))
    expect(await graphPhoto(48, "t")).toBeNull()
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("fetch failed")))
    expect(await graphPhoto(48, "t")).toBeNull()
    expect(await graphPhoto(48, undefined)).toBeNull()
  })

  it("keeps the sizes Graph keeps, and names the option for another", () => {
    expect(photoSize("azure-ad", 648)).toBe(648)
    expect(photoSize("azure-ad", undefined)).toBeUndefined()
    expect(() => photoSize("azure-ad", "48")).toThrow(/`profilePhotoSize` must be one of 48, 64/)
  })
})
