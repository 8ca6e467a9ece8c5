import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import BattleNet from "./index.js"

testProvider(BattleNet, {
  fixture,
  user: { id: "412876503", name: "Stormrider#11842", email: null, image: null },
})
