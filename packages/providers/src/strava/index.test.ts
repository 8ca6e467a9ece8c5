import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Strava from "./index.js"

testProvider(Strava, {
  fixture,
  user: {
    id: "58214390",
    name: "Lena Fischer",
    email: null,
    image: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/58214390/17829104/2/large.jpg",
  },
})
