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
