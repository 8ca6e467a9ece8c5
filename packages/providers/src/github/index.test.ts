import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import GitHub from "./index.js"

testProvider(GitHub, {
  fixture,
  user: {
    id: "583231",
    name: "The Octocat",
    email: "octocat@github.com",
    image: "https://avatars.githubusercontent.com/u/583231?v=4",
  },
})
