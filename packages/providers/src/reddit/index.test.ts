import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Reddit from "./index.js"

testProvider(Reddit, {
  fixture,
  user: {
    id: "7x3kq9bd",
    name: "quiet_lighthouse",
    email: null,
    image:
      "https://styles.redditmedia.com/t5_2n8f4k/styles/profileIcon_k3b9x0.png?width=256&height=256&crop=256:256,smart&s=0f4c2b8e1d7a9c3e5b6a4d2f0e8c1b3a5d7f9e2c",
  },
})
