import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Line from "./index.js"

testProvider(Line, {
  fixture,
  user: {
    id: "U4af4980629a9f2c8e1d3b5a7c9e0f123",
    name: "Haruka Sato",
    email: "haruka.sato@example.jp",
    image: "https://profile.line-scdn.net/0hQ2p5TkxKDGZ8Fh8VbE9zMUBTAgsLOAou",
  },
})
