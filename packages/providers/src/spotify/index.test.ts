import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Spotify from "./index.js"

testProvider(Spotify, {
  fixture,
  user: {
    id: "31l7xq2mbtz4hfk3r5yn6wdpqe2a",
    name: "Ana Lima",
    email: "ana.lima@example.com.br",
    image: "https://i.scdn.co/image/ab67757000003b82a1c6d1f0e8b7e5c4d3b2a190",
  },
})
