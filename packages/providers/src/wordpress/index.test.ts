import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import WordPress from "./index.js"

testProvider(WordPress, {
  fixture,
  user: {
    id: "98413276",
    name: "Elena Rossi",
    email: "elena.rossi@example.com",
    image: "https://0.gravatar.com/avatar/8d3a7c2b1e6f5a4d9c0b8e7f6a5d4c3b?s=96&d=identicon",
  },
})
