import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Apple from "./index.js"

testProvider(Apple, {
  fixture,
  user: {
    id: "001873.4c2a9e0f7b1d4e6a8c3f5b2d9e7a1c04.1422",
    name: null,
    email: "x7pk2fq9ds@privaterelay.appleid.com",
    image: null,
  },
})
