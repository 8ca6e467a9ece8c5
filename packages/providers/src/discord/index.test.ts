import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Discord from "./index.js"

testProvider(Discord, {
  fixture,
  user: {
    id: "80351110224678912",
    name: "Nelly",
    email: "nelly@example.com",
    image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
  },
})

describe("Discord default avatars", () => {
  it("picks the default avatar from the id for a migrated username", async () => {
    const user = await Discord().profile?.({ ...fixture, avatar: null }, {})
    expect(user?.image).toBe("https://cdn.discordapp.com/embed/avatars/5.png")
  })

  it("picks the default avatar from a legacy discriminator", async () => {
    const user = await Discord().profile?.({ ...fixture, avatar: null, discriminator: "1337" }, {})
    expect(user?.image).toBe("https://cdn.discordapp.com/embed/avatars/2.png")
  })
})
