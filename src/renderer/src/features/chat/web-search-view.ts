/** One hit of a WebSearch result as its card lists it; `href` only for an http(s) URL. */
export interface SearchLink {
  title: string
  url: string
  href?: string
}

/** What a WebSearch card shows: the query and its hits, from the tool result's `details`. */
export interface SearchCard {
  query: string
  links: SearchLink[]
}

/**
 * The links of a WebSearch result (`details` as tools/web-search.ts returns it:
 * `{ query, results: Array<string | { content: [{ title, url }] }> }`); `undefined` when the
 * details are not that shape. The hits come from the web, so they are untrusted: only an
 * absolute http(s) URL without credentials becomes a link, anything else stays plain text.
 */
export function webSearchCardOf(details: unknown): SearchCard | undefined {
  const d = details as { query?: unknown; results?: unknown } | null | undefined
  if (!d || typeof d.query !== 'string' || !Array.isArray(d.results)) return undefined
  const links: SearchLink[] = []
  for (const result of d.results as unknown[]) {
    const content = (result as { content?: unknown } | null)?.content
    if (!Array.isArray(content)) continue // a string result is the model's own text, not a hit
    for (const hit of content as unknown[]) {
      const { title, url } = (hit ?? {}) as { title?: unknown; url?: unknown }
      if (typeof url !== 'string') continue
      const text = typeof title === 'string' && title.trim() !== '' ? title : url
      const href = webHref(url)
      links.push(href ? { title: text, url, href } : { title: text, url })
    }
  }
  return { query: d.query, links }
}

/** The URL normalised when it is an absolute http(s) URL with a host and no user:password. */
function webHref(url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined
  if (parsed.hostname === '' || parsed.username || parsed.password) return undefined
  return parsed.href
}
