import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Zoom from "./index.js"

testProvider(Zoom, {
  fixture,
  user: {
    id: "KDcuGIm1QgePTO8WbOqwIQ",
    name: "Aiyana Redcloud",
    email: "aiyana.redcloud@example.com",
    image: "https://us05web.zoom.us/p/v2/7f3a1c9e2b4d6f8a0c1e3b5d7f9a2c4e/a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d-4821",
  },
})
