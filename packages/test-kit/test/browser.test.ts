import { describe, expect, it } from "vitest"

import { TestBrowser, decodeEntities, parseForms } from "../src/browser.js"

const APP = "http://localhost:3000"
const IDP = "http://127.0.0.1:9999"

interface Seen {
  method: string
  url: string
  body: string
  headers: Headers
}

/** An in-process origin that records requests and answers with `respond`. */
function origin(respond: (request: Request, url: URL) => Response | Promise<Response>) {
  const seen: Seen[] = []
  const handler = async (request: Request) => {
    const url = new URL(request.url)
    seen.push({ method: request.method, url: request.url, body: await request.clone().text(), headers: request.headers })
    return respond(request, url)
  }
  return { seen, handler }
}

const html = (body: string, init: ResponseInit = {}) => {
  const headers = new Headers(init.headers)
  headers.set("content-type", "text/html")
  return new Response(body, { ...init, headers })
}

describe("parseForms", () => {
  it("reads action, method, hidden inputs and decodes entities in attribute values", () => {
    const [form] = parseForms(`
      <form method="post" action="http://localhost:3000/callback?a=1&amp;b=2">
        <input type="hidden" name="code" value="a&amp;b&lt;c&#39;&#x27;&quot;"/>
        <input type=hidden name=state value='s t'>
        <noscript><button autofocus type="submit">Continue</button></noscript>
      </form>`)
    expect(form?.method).toBe("POST")
    expect(form?.action).toBe("http://localhost:3000/callback?a=1&b=2")
    expect(form?.controls.map((control) => [control.name, control.values[0]])).toEqual([
      ["code", `a&b<c''"`],
      ["state", "s t"],
      ["", ""],
    ])
    expect(form?.controls[2]?.text).toBe("Continue")
  })

  it("skips scripts, styles and comments, and reads textareas, selects and checkboxes", () => {
    const [form] = parseForms(`
      <script>const fake = '<form><input name="no">'</script>
      <!-- <input name="commented"> -->
      <form>
        <textarea name="note">
line &amp; more</textarea>
        <select name="color"><option value="r">Red<option value="g" selected>Green</select>
        <select name="size"><option>Small</option><option>Large</option></select>
        <input type="checkbox" name="yes" checked><input type="checkbox" name="no">
        <input name="off" disabled value="x">
      </form>`)
    expect(form?.controls.map((control) => [control.name, control.values])).toEqual([
      ["note", ["line & more"]],
      ["color", ["g"]],
      ["size", ["Small"]],
      ["yes", ["on"]],
      ["no", ["on"]],
      ["off", ["x"]],
    ])
  })

  it("assigns controls outside a form through their form attribute", () => {
    const forms = parseForms(`
      <form id="op.logoutForm" method="post" action="/session/end/confirm"><input type="hidden" name="xsrf" value="t"/></form>
      <button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`)
    expect(forms[0]?.controls.map((control) => control.name)).toEqual(["xsrf", "logout"])
  })

  it("decodes numeric and named entities, leaving unknown ones", () => {
    expect(decodeEntities("&#65;&#x42;&amp;&nbsp;&unknown;")).toBe("AB&\u00a0&unknown;")
  })
})

describe("TestBrowser", () => {
  it("follows relative and absolute redirects, turning a POST into a GET on 303", async () => {
    const app = origin((_request, url) => {
      if (url.pathname === "/start") return new Response(null, { status: 303, headers: { location: "next?x=1" } })
      if (url.pathname === "/next") return new Response(null, { status: 302, headers: { location: `${APP}/end` } })
      return html("done")
    })
    const browser = new TestBrowser({ routes: { [APP]: app.handler } })
    const page = await browser.navigate(`${APP}/start`, { method: "POST", body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } })

    expect(page.url).toBe(`${APP}/end`)
    expect(page.body).toBe("done")
    expect(page.redirects).toEqual([`${APP}/start`, `${APP}/next?x=1`, `${APP}/end`])
    expect(app.seen.map((request) => [request.method, request.body])).toEqual([
      ["POST", "a=1"],
      ["GET", ""],
      ["GET", ""],
    ])
    expect(app.seen[1]?.headers.get("content-type")).toBeNull()
  })

  it("repeats the method and body on 307", async () => {
    const app = origin((_request, url) =>
      url.pathname === "/old" ? new Response(null, { status: 307, headers: { location: "/new" } }) : html("ok"),
    )
    const browser = new TestBrowser({ routes: { [APP]: app.handler } })
    await browser.navigate(`${APP}/old`, { method: "POST", body: "a=1" })
    expect(app.seen.map((request) => [request.method, request.body])).toEqual([
      ["POST", "a=1"],
      ["POST", "a=1"],
    ])
  })

  it("stops after maxRedirects", async () => {
    const app = origin(() => new Response(null, { status: 302, headers: { location: "/loop" } }))
    const browser = new TestBrowser({ routes: { [APP]: app.handler }, maxRedirects: 3 })
    await expect(browser.navigate(`${APP}/loop`)).rejects.toThrow(/more than 3 redirects/u)
    expect(app.seen).toHaveLength(4)
  })

  it("keeps every Set-Cookie of a response and sends them back", async () => {
    const app = origin((_request, url) => {
      if (url.pathname !== "/set") return html("ok")
      const headers = new Headers()
      headers.append("set-cookie", "a=1; Path=/")
      headers.append("set-cookie", "b=2; Path=/; HttpOnly")
      return new Response(null, { status: 204, headers })
    })
    const browser = new TestBrowser({ routes: { [APP]: app.handler } })
    await browser.request(`${APP}/set`)
    await browser.request(`${APP}/read`)
    expect(app.seen[1]?.headers.get("cookie")).toBe("a=1; b=2")
  })

  it("submits a page's form with filled values and the chosen button", async () => {
    const app = origin((_request, url) =>
      url.pathname === "/form"
        ? html(`
          <form method="post" action="/first"><button>First</button></form>
          <form method="post" action="/submit?keep=1#frag">
            <input type="hidden" name="csrf" value="t&amp;1">
            <input name="login" value="prefilled">
            <input name="dup" value="1"><input name="dup" value="2">
            <button type="submit" name="action" value="allow">Allow</button>
            <button type="submit" name="action" value="deny">Deny</button>
          </form>`)
        : html("submitted"),
    )
    const browser = new TestBrowser({ routes: { [APP]: app.handler } })
    const page = await browser.navigate(`${APP}/form`)
    const result = await browser.submitForm(page, {
      formIndex: 1,
      button: "Deny",
      values: { login: "alice", dup: "x", csrf: null, extra: "tampered" },
    })

    expect(result.body).toBe("submitted")
    const submitted = app.seen[1]
    expect(submitted?.url).toBe(`${APP}/submit?keep=1`)
    expect(submitted?.headers.get("content-type")).toBe("application/x-www-form-urlencoded")
    expect(submitted?.body).toBe("login=alice&dup=x&action=deny&extra=tampered")
    await expect(browser.submitForm(page, { formIndex: 1, button: "Maybe" })).rejects.toThrow(/"Allow", "Deny"/u)
    await expect(browser.submitForm(page, { formIndex: 5 })).rejects.toThrow(/has 2 form\(s\)/u)
  })

  it("submits a GET form as a query", async () => {
    const app = origin((_request, url) => (url.pathname === "/search" ? html("results") : html('<form action="/search?old=1"><input name="q"></form>')))
    const browser = new TestBrowser({ routes: { [APP]: app.handler } })
    const page = await browser.submitForm(await browser.navigate(`${APP}/`), { values: { q: "a b" } })
    expect(page.url).toBe(`${APP}/search?q=a+b`)
  })

  it("models SameSite on a cross-site auto-post and sets Sec-Fetch-Site and Origin", async () => {
    const app = origin((_request, url) => {
      if (url.pathname === "/login") {
        return new Response(null, { status: 302, headers: { location: `${IDP}/auth`, "set-cookie": "state=s; Path=/; SameSite=Lax" } })
      }
      return html("callback")
    })
    const idp = origin(() =>
      html(`<form method="post" action="${APP}/callback"><input type="hidden" name="code" value="c"></form>`),
    )
    const browser = new TestBrowser({ routes: { [APP]: app.handler, [IDP]: idp.handler } })
    const formPost = await browser.navigate(`${APP}/login`)
    expect(idp.seen[0]?.headers.get("sec-fetch-site")).toBe("none")
    await browser.submitForm(formPost)

    const callback = app.seen[1]
    expect(callback?.method).toBe("POST")
    expect(callback?.headers.get("cookie")).toBeNull()
    expect(callback?.headers.get("sec-fetch-site")).toBe("cross-site")
    expect(callback?.headers.get("origin")).toBe(IDP)

    await browser.navigate(`${APP}/callback`, { initiator: `${IDP}/auth` })
    expect(app.seen[2]?.headers.get("cookie")).toBe("state=s")
    await browser.navigate(`${APP}/callback`, { initiator: `${APP}/` })
    expect(app.seen[3]?.headers.get("sec-fetch-site")).toBe("same-origin")
  })

  it("lets tests read, replace and delete cookies", async () => {
    const app = origin(() => html("ok"))
    const browser = new TestBrowser({ routes: { [APP]: app.handler } })
    browser.setCookie(APP, "session=abc; Path=/; HttpOnly")
    browser.setCookie(`${APP}/auth/x`, { name: "scoped", value: "1", path: "/auth" })
    expect(browser.cookies(APP).map((cookie) => [cookie.name, cookie.path])).toEqual([
      ["session", "/"],
      ["scoped", "/auth"],
    ])

    browser.setCookie(APP, { name: "session", value: "tampered" })
    await browser.request(`${APP}/auth/y`)
    expect(app.seen[0]?.headers.get("cookie")).toBe("scoped=1; session=tampered")

    expect(browser.deleteCookie(APP, "session")).toBe(1)
    await browser.request(`${APP}/`)
    expect(app.seen[1]?.headers.get("cookie")).toBeNull()
    expect(() => {
      browser.setCookie("http://example.test/", "a=1; Secure")
    }).toThrow(/insecure origin/u)
  })

  it("fetches origins without a route over the network, without following redirects", async () => {
    const requests: Request[] = []
    const browser = new TestBrowser({
      fetch: (request) => {
        requests.push(request)
        return Promise.resolve(new Response(null, { status: 302, headers: { location: "/elsewhere" } }))
      },
    })
    const response = await browser.request("http://remote.example/start#fragment")
    expect(response.status).toBe(302)
    expect(requests[0]?.redirect).toBe("manual")
    expect(requests[0]?.url).toBe("http://remote.example/start")
  })

  it("rejects a routes key that is not a URL", () => {
    expect(() => new TestBrowser({ routes: { "localhost:3000": () => html("") } })).toThrow(/routes key/u)
  })
})
