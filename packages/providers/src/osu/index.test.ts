import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Osu from "./index.js"

testProvider(Osu, {
  fixture,
  user: { id: "7562902", name: "mrekk_fan", email: null, image: "https://a.ppy.sh/7562902?1699461302.jpeg" },
})
