import hljs from 'highlight.js/lib/common'
import { Marked, type Tokens } from 'marked'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)
}

const SAFE_LINK = /^(https?:|mailto:)/i

/**
 * Markdown for model output. The model's text is untrusted: raw HTML is shown as text, links keep
 * only http(s)/mailto targets, and images become links (no remote loads from the transcript).
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code(token: Tokens.Code) {
      // highlight.js escapes the code itself; the language name is only used if it is one it knows.
      const language = (token.lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
      const known = language !== '' && hljs.getLanguage(language) !== undefined
      const html = known ? hljs.highlight(token.text, { language, ignoreIllegals: true }).value : escapeHtml(token.text)
      const label = known ? ` data-language="${escapeHtml(language)}"` : ''
      return `<pre class="code-block"${label}><code class="hljs${known ? ` language-${escapeHtml(language)}` : ''}">${html}</code></pre>\n`
    },
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text)
    },
    link(token: Tokens.Link) {
      const label = this.parser.parseInline(token.tokens)
      if (!SAFE_LINK.test(token.href.trim())) return label
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : ''
      return `<a href="${escapeHtml(token.href.trim())}"${title} target="_blank" rel="noopener noreferrer">${label}</a>`
    },
    image(token: Tokens.Image) {
      const label = escapeHtml(token.text || token.href)
      if (!SAFE_LINK.test(token.href.trim())) return label
      return `<a href="${escapeHtml(token.href.trim())}" target="_blank" rel="noopener noreferrer">${label}</a>`
    },
  },
})

/** Renders untrusted markdown to HTML that is safe to put into the DOM. */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false })
}

/**
 * Splits streaming markdown into top-level blocks at blank lines outside code fences, so finished
 * blocks can be rendered once and memoised while only the last one changes with each delta.
 * Joining the blocks with "\n\n" gives back equivalent markdown.
 */
export function splitBlocks(markdown: string): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker) {
      if (!fence) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined
    }
    if (!fence && line.trim() === '' && current.length > 0 && !marker) {
      blocks.push(current.join('\n'))
      current = []
      continue
    }
    if (line.trim() === '' && current.length === 0) continue
    current.push(line)
  }
  if (current.length > 0) blocks.push(current.join('\n'))
  return blocks
}
