import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Netlify from "./index.js"

testProvider(Netlify, {
  fixture,
  user: {
    id: "5e9c3d2a1b0f4e8d7c6b5a49",
    name: "Grace Kim",
    email: "grace.kim@example.com",
    image: "https://avatars.githubusercontent.com/u/7654321?v=4",
  },
})
