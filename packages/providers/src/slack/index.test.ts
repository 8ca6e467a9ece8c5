import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Slack from "./index.js"

testProvider(Slack, {
  fixture,
  user: {
    id: "U0R7JM7LL",
    name: "Chloé Dubois",
    email: "chloe.dubois@example.com",
    image:
      "https://secure.gravatar.com/avatar/bc6f0a8e2d7c4b1a9e3f5d7c9b1a3e5f.jpg?s=512&d=https%3A%2F%2Fa.slack-edge.com%2Fdf10d%2Fimg%2Favatars%2Fava_0010-512.png",
  },
})
