import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Pinterest from "./index.js"

testProvider(Pinterest, {
  fixture,
  user: {
    id: "549755885175",
    name: "luciacrafts",
    email: null,
    image: "https://i.pinimg.com/600x600_R/42/f5/36/42f5364fbb1c6e3a3f9b0a3d2d6c3e5b.jpg",
  },
})
