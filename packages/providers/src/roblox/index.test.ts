import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Roblox from "./index.js"

testProvider(Roblox, {
  fixture,
  user: {
    id: "1516563360",
    name: "Builder Bea",
    email: null,
    image:
      "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-3F2E1D0C9B8A7F6E5D4C3B2A1F0E9D8C-Png/150/150/AvatarHeadshot/Png/noFilter",
  },
})
