import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import description from './web-fetch.prompt'

const input = z.strictObject({
  url: z.string().describe('The URL to fetch content from'),
  prompt: z.string().describe('The prompt to run on the fetched content'),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Character position in the page text to start reading from. Use it to read on through a page too long for one call, with the value the previous result gave.'),
})

/** WebFetch's input as parsed. */
export type WebFetchInput = z.output<typeof input>

/** WebFetch: fetch (http(s) only), HTML → Markdown, then the prompt answered by a small model. */
export const webFetchTool = defineTool({
  name: 'WebFetch',
  label: 'Fetch',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => `Fetch ${args.url}`,
  async validate(args) {
    const url = parseUrl(args.url)
    return typeof url === 'string' ? url : undefined
  },
  // The body (the fetch, HTML → Markdown, the small model's answer) loads at the first fetch.
  async execute(args, ctx) {
    const url = parseUrl(args.url)
    if (typeof url === 'string') return errorResult(url)
    return (await import('./web-fetch-run')).executeWebFetch(args, url, ctx)
  },
})

/** http(s) only; http is upgraded to https except for the local machine. */
export function parseUrl(raw: string): URL | string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return `Invalid URL: "${raw}". Give a fully-formed URL such as https://example.com/page.`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Only http and https URLs can be fetched, not ${url.protocol}`
  if (url.username || url.password) return 'URLs with a username or password are not fetched.'
  if (url.protocol === 'http:' && !isLocal(url.hostname)) url.protocol = 'https:'
  return url
}

function isLocal(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]'
}
