import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Figma from "./index.js"

testProvider(Figma, {
  fixture,
  user: {
    id: "1187452839012345678",
    name: "Yuki Tanaka",
    email: "yuki.tanaka@example.com",
    image: "https://s3-alpha.figma.com/profile/5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  },
})
