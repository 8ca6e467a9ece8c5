import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Mailchimp from "./index.js"

testProvider(Mailchimp, {
  fixture,
  // Mailchimp's tokens carry no `token_type` and never expire.
  tokens: { token_type: undefined, expires_in: 0, refresh_token: undefined },
  user: {
    id: "148203975",
    name: "rosa.northwind",
    email: "rosa@northwind.example.com",
    image: "https://us21.admin.mailchimp.com/images/avatars/148203975_rosa.png",
  },
})
