import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Vk from "./index.js"

testProvider(Vk, {
  fixture,
  // VK's token response has no `token_type`, and is where the email address is.
  tokens: { token_type: undefined, user_id: 210700286, email: "anna.smirnova@example.ru" },
  user: {
    id: "210700286",
    name: "Анна Смирнова",
    email: "anna.smirnova@example.ru",
    image: "https://sun9-32.userapi.com/s/v1/ig2/Xk3pQ9vRbTw.jpg?size=200x200&quality=95&crop=0,0,1080,1080&ava=1",
  },
})
