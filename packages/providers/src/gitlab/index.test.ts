import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import GitLab from "./index.js"

testProvider(GitLab, {
  fixture,
  user: {
    id: "4812736",
    name: "Inês Carvalho",
    email: "ines.carvalho@example.com",
    image: "https://gitlab.com/uploads/-/system/user/avatar/4812736/avatar.png",
  },
})
