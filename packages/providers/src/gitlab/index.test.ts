import { describe, expect, it } from "vitest"
import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import GitLab from "./index.js"

const base = {
  fixture,
  user: {
    id: "4812736",
    name: "Inês Carvalho",
    email: "ines.carvalho@example.com",
    image: "https://gitlab.com/uploads/-/system/user/avatar/4812736/avatar.png",
  },
}

testProvider(GitLab, base)

// Auth.js's `GitLab({ baseUrl })`: a self-managed GitLab.
testProvider(GitLab, {
  ...base,
  title: "baseUrl",
  config: { baseUrl: new URL("https://gitlab.acme.example") },
})

describe("GitLab baseUrl", () => {
  it("puts every endpoint on the instance, from a string or a URL", () => {
    for (const baseUrl of ["https://gitlab.acme.example/", new URL("https://gitlab.acme.example")]) {
      const provider = GitLab({ baseUrl })
      expect(provider.authorization).toMatchObject({ url: "https://gitlab.acme.example/oauth/authorize" })
      expect(provider.token).toBe("https://gitlab.acme.example/oauth/token")
      expect(provider.userinfo).toBe("https://gitlab.acme.example/api/v4/user")
    }
  })
})
