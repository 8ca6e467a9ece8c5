import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Todoist from "./index.js"

testProvider(Todoist, {
  fixture,
  user: {
    id: "38194027",
    name: "Sam Osei",
    email: "sam.osei@example.com",
    image: "https://dcff1xvirvpfp.cloudfront.net/4c9e7d2a1b3f4e5d8c6a0b9f_big.jpg",
  },
})
