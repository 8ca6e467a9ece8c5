/** A form control found in a page. */
export interface FormControl {
  tag: "input" | "button" | "select" | "textarea"
  /** Lower case; `"text"` for an input without one, `"submit"` for a button without one. */
  type: string
  name: string
  /** The value it submits; for a select, its selected options' values. */
  values: string[]
  /** For checkboxes and radios. */
  checked: boolean
  disabled: boolean
  /** A button's visible text. */
  text: string
  /** All attributes, names lower case, values decoded. */
  attributes: Record<string, string>
}

/** A `<form>` and the controls it owns, in document order. */
export interface HtmlForm {
  id: string | undefined
  /** As written (decoded), `undefined` when absent. */
  action: string | undefined
  /** Upper case, `"GET"` by default. */
  method: string
  enctype: string
  controls: FormControl[]
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
}

/** Decodes numeric and the common named character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[\da-f]+|[a-z][a-z\d]*);?/giu, (match, entity: string) => {
    if (entity.startsWith("#")) {
      const code = entity[1] === "x" || entity[1] === "X" ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1))
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? match
  })
}

function parseAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {}
  const pattern = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/gu
  for (const match of source.matchAll(pattern)) {
    const name = (match[1] ?? "").toLowerCase()
    // As in HTML, the first occurrence of an attribute wins.
    if (name in attributes) continue
    attributes[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "")
  }
  return attributes
}

function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/gu, "")).replace(/\s+/gu, " ").trim()
}

/** A comment, or a start or end tag with its attribute source. */
const TAG_SOURCE = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/u.source
const RAW_TEXT = new Set(["script", "style", "textarea", "title"])

/**
 * Finds the forms of an HTML page with their controls: enough of HTML to submit what a server
 * renders (inputs, buttons, selects, textareas, the `form` attribute, entity-encoded values),
 * without a DOM.
 */
export function parseForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = []
  const owned: { control: FormControl; owner: number | string | undefined }[] = []
  let openForm: number | undefined
  let openSelect: FormControl | undefined
  let selectedSeen = false

  const lower = html.toLowerCase()
  const tags = new RegExp(TAG_SOURCE, "gu")
  for (let match = tags.exec(html); match !== null; match = tags.exec(html)) {
    // A comment matches without a tag name.
    if (match[2] === undefined) continue
    const closing = match[1] === "/"
    const tag = match[2].toLowerCase()
    const attributes = parseAttributes(match[3] ?? "")
    let rawText = ""
    if (!closing && RAW_TEXT.has(tag)) {
      const end = lower.indexOf(`</${tag}`, tags.lastIndex)
      const stop = end < 0 ? html.length : end
      rawText = html.slice(tags.lastIndex, stop)
      const close = html.indexOf(">", stop)
      tags.lastIndex = close < 0 ? html.length : close + 1
    }
    const owner = attributes.form ?? openForm

    if (tag === "form") {
      if (closing) openForm = undefined
      // A form start tag inside an open form is ignored, as HTML parsers do.
      else if (openForm === undefined) {
        openForm = forms.length
        forms.push({
          id: attributes.id,
          action: attributes.action,
          method: (attributes.method ?? "get").toUpperCase(),
          enctype: (attributes.enctype ?? "application/x-www-form-urlencoded").toLowerCase(),
          controls: [],
        })
      }
    } else if (closing) {
      if (tag === "select") openSelect = undefined
    } else if (tag === "input") {
      const type = (attributes.type ?? "text").toLowerCase()
      const fallback = type === "checkbox" || type === "radio" ? "on" : ""
      owned.push({ control: control("input", type, attributes, [attributes.value ?? fallback], ""), owner })
    } else if (tag === "button") {
      const end = lower.indexOf("</button", tags.lastIndex)
      const text = textOf(html.slice(tags.lastIndex, end < 0 ? html.length : end))
      const type = (attributes.type ?? "submit").toLowerCase()
      owned.push({ control: control("button", type, attributes, [attributes.value ?? ""], text), owner })
    } else if (tag === "textarea") {
      owned.push({ control: control("textarea", "textarea", attributes, [decodeEntities(rawText.replace(/^\r?\n/u, ""))], ""), owner })
    } else if (tag === "select") {
      openSelect = control("select", "multiple" in attributes ? "select-multiple" : "select-one", attributes, [], "")
      selectedSeen = false
      owned.push({ control: openSelect, owner })
    } else if (tag === "option" && openSelect !== undefined) {
      const next = html.indexOf("<", tags.lastIndex)
      const value = attributes.value ?? textOf(html.slice(tags.lastIndex, next < 0 ? html.length : next))
      const select = openSelect
      if ("selected" in attributes && !("disabled" in attributes)) {
        // A single select keeps the last selected option; a multiple one keeps them all.
        select.values = select.type === "select-one" ? [value] : [...(selectedSeen ? select.values : []), value]
        selectedSeen = true
      } else if (!selectedSeen && select.type === "select-one" && select.values.length === 0 && !("disabled" in attributes)) {
        select.values = [value]
      }
    }
  }

  for (const { control: found, owner } of owned) {
    const form = typeof owner === "string" ? forms.find((candidate) => candidate.id === owner) : owner === undefined ? undefined : forms[owner]
    form?.controls.push(found)
  }
  return forms
}

function control(
  tag: FormControl["tag"],
  type: string,
  attributes: Record<string, string>,
  values: string[],
  text: string,
): FormControl {
  return {
    tag,
    type,
    name: attributes.name ?? "",
    values,
    checked: "checked" in attributes,
    disabled: "disabled" in attributes,
    text,
    attributes,
  }
}

/** Whether a control can submit its form. */
export function isSubmitButton(candidate: FormControl): boolean {
  return (
    (candidate.tag === "button" && candidate.type === "submit") ||
    (candidate.tag === "input" && (candidate.type === "submit" || candidate.type === "image"))
  )
}

/**
 * The form data set a browser would submit: enabled, named controls in document order, checked
 * boxes only, and only the button that was used.
 *
 * @see https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#constructing-the-form-data-set
 */
export function formDataSet(form: HtmlForm, submitter: FormControl | undefined): [string, string][] {
  const entries: [string, string][] = []
  for (const candidate of form.controls) {
    if (candidate.disabled || candidate.name === "") continue
    if (candidate.tag === "button" || ["submit", "image", "reset", "button"].includes(candidate.type)) {
      if (candidate !== submitter) continue
      if (candidate.type === "image") {
        entries.push([`${candidate.name}.x`, "0"], [`${candidate.name}.y`, "0"])
        continue
      }
    }
    if ((candidate.type === "checkbox" || candidate.type === "radio") && !candidate.checked) continue
    if (candidate.type === "file") continue
    for (const value of candidate.values) entries.push([candidate.name, value])
  }
  return entries
}
