import type TurndownService from 'turndown'
import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import type { ToolContext, ToolResult } from './types'
import description from './web-fetch.prompt'

/** Bodies larger than this are refused (read is stopped there). */
export const MAX_FETCH_BYTES = 10 * 1024 * 1024
export const FETCH_TIMEOUT_MS = 60_000
/** Markdown handed to the small model, or to the main model without one. */
export const MAX_MARKDOWN_CHARS = 100_000
const MAX_REDIRECTS = 10

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

/** The HTML → Markdown converter, loaded on first use: most sessions never fetch a page. */
let converter: Promise<TurndownService> | undefined
function turndown(): Promise<TurndownService> {
  converter ??= import('turndown').then(({ default: Turndown }) => {
    const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced' })
    service.remove(['script', 'style', 'noscript', 'iframe'])
    return service
  })
  return converter
}

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
  async execute(args, ctx) {
    const url = parseUrl(args.url)
    if (typeof url === 'string') return errorResult(url)
    const page = await fetchPage(url, ctx.signal)
    if (page.kind === 'error') return errorResult(page.message)
    if (page.kind === 'redirect') {
      return {
        content: `REDIRECT DETECTED: The URL redirects to a different host.\n\nOriginal URL: ${url.href}\nRedirect URL: ${page.location}\nStatus: ${page.status}\n\nTo fetch the content, make a new WebFetch request with:\n- url: "${page.location}"\n- prompt: "${args.prompt}"`,
        details: { url: url.href, redirect: page.location, status: page.status },
      }
    }
    return answer(args.prompt, page, ctx, args.offset ?? 0)
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

type Page =
  | { kind: 'page'; url: string; status: number; contentType: string; body: string; bytes: number }
  | { kind: 'redirect'; location: string; status: number }
  | { kind: 'error'; message: string }

async function fetchPage(start: URL, signal: AbortSignal): Promise<Page> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS)
  const combined = AbortSignal.any([signal, timeout])
  let url = start
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response: Response
    try {
      response = await fetch(url, { redirect: 'manual', signal: combined, headers: { 'user-agent': 'Sous-WebFetch/0.1', accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5' } })
    } catch (error) {
      if (timeout.aborted) return { kind: 'error', message: `Fetching ${url.href} timed out after ${FETCH_TIMEOUT_MS / 1000} s.` }
      return { kind: 'error', message: `Could not fetch ${url.href}: ${causeOf(error)}` }
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
      const next = new URL(response.headers.get('location')!, url)
      void response.body?.cancel()
      // Same host (or www. added/removed): follow. Elsewhere: tell the model, which decides.
      if (stripWww(next.hostname) !== stripWww(url.hostname)) return { kind: 'redirect', location: next.href, status: response.status }
      url = next
      continue
    }
    if (!response.ok) {
      void response.body?.cancel()
      return { kind: 'error', message: `Request failed with status ${response.status} ${response.statusText} for ${url.href}.` }
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > MAX_FETCH_BYTES) {
      void response.body?.cancel()
      return { kind: 'error', message: `The page is too large (${declared} bytes; the limit is ${MAX_FETCH_BYTES}).` }
    }
    const body = await readCapped(response)
    if (body === undefined) return { kind: 'error', message: `The page is too large (over ${MAX_FETCH_BYTES} bytes).` }
    return { kind: 'page', url: url.href, status: response.status, contentType: response.headers.get('content-type') ?? '', body: body.toString('utf8'), bytes: body.byteLength }
  }
  return { kind: 'error', message: `Too many redirects (more than ${MAX_REDIRECTS}).` }
}

async function readCapped(response: Response): Promise<Buffer | undefined> {
  if (!response.body) return Buffer.alloc(0)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > MAX_FETCH_BYTES) return undefined
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}

async function answer(prompt: string, page: Extract<Page, { kind: 'page' }>, ctx: ToolContext, offset: number): Promise<ToolResult> {
  const isHtml = /html/i.test(page.contentType) || /^\s*<(!doctype|html)/i.test(page.body)
  const markdown = isHtml ? (await turndown()).turndown(page.body) : page.body
  if (offset > 0 && offset >= markdown.length) return errorResult(`offset ${offset} is past the end of the page text (${markdown.length} characters).`)
  const content = pageWindow(markdown, offset)
  const details = { url: page.url, status: page.status, bytes: page.bytes, contentType: page.contentType, markdownChars: markdown.length, ...(offset > 0 && { offset }) }
  if (!ctx.askModel) return { content: `Content of ${page.url} (no model was available to apply the prompt):\n\n${content}`, details }
  const system = 'You answer a question about a web page using only its content, concisely. Quote code and exact wording where it matters. If the page does not answer the question, say so.'
  const user = `Web page content (${page.url}):\n---\n${content}\n---\n\n${prompt}`
  try {
    const reply = await ctx.askModel(system, user, ctx.signal)
    return { content: reply, details }
  } catch (error) {
    return { content: `The small model could not process the page (${causeOf(error)}); here is its content:\n\n${content}`, details }
  }
}

/**
 * The part of the page text from `offset`, at most {@link MAX_MARKDOWN_CHARS}; a cut names the
 * offset to read on from (Claude Code 2.1.328's `offset`).
 */
export function pageWindow(markdown: string, offset: number): string {
  const end = offset + MAX_MARKDOWN_CHARS
  const part = markdown.slice(offset, end)
  const lead = offset > 0 ? `[Page text from character ${offset} of ${markdown.length}]\n\n` : ''
  if (end >= markdown.length) return lead + part
  return `${lead}${part}\n\n[Content truncated: ${markdown.length - end} more characters. To read on, call WebFetch again with offset: ${end}]`
}

function stripWww(hostname: string): string {
  return hostname.replace(/^www\./, '')
}

function causeOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    return cause instanceof Error ? cause.message : error.message
  }
  return String(error)
}
