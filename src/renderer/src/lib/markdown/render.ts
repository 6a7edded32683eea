import { Marked, type Tokens } from 'marked'
import { highlighterOrLoad } from './highlighter'

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
      const hljs = language === '' ? undefined : highlighterOrLoad()
      const known = hljs !== undefined && hljs.getLanguage(language) !== undefined
      const html = known && hljs ? hljs.highlight(token.text, { language, ignoreIllegals: true }).value : escapeHtml(token.text)
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

/**
 * Renders untrusted markdown to HTML that is safe to put into the DOM. Code in a named language is
 * highlighted once its language has arrived (see `highlighter.ts`); before that it is plain.
 */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false })
}

const FENCE_LANGUAGE = /^ {0,3}(?:`{3,}|~{3,})[ \t]*([^\s`~]+)/gm

/** Whether a block has a fenced code block naming a language (it renders again, coloured, later). */
export function hasFencedCode(markdown: string): boolean {
  return /^ {0,3}(`{3,}|~{3,})[ \t]*[^\s`~]/m.test(markdown)
}

/**
 * The languages of a block's code fences that the highlighter knows now, as one string: when it
 * changes, the block has code that would colour differently (languages arrive in groups).
 */
export function knownFenceLanguages(markdown: string): string {
  if (!hasFencedCode(markdown)) return ''
  const hljs = highlighterOrLoad()
  if (!hljs) return ''
  const known: string[] = []
  for (const [, language] of markdown.matchAll(FENCE_LANGUAGE)) {
    if (language && hljs.getLanguage(language.toLowerCase())) known.push(language.toLowerCase())
  }
  return known.join(' ')
}

/**
 * Splits streaming markdown into top-level blocks at blank lines outside code fences, so finished
 * blocks can be rendered once and memoised while only the last one changes with each delta.
 * Joining the blocks with "\n\n" gives back equivalent markdown.
 */
export function splitBlocks(markdown: string): string[] {
  const { finished, consumed } = splitFinished(markdown)
  const rest = markdown.slice(consumed)
  return rest.trim() === '' ? finished : [...finished, trimBlankLines(rest)]
}

/**
 * The blocks that are certainly finished (a blank line outside any fence follows them) and how
 * many characters they take, so a stream can re-split only what came after.
 */
export function splitFinished(markdown: string): { finished: string[]; consumed: number } {
  const finished: string[] = []
  let current: string[] = []
  let fence: string | undefined
  let offset = 0
  let consumed = 0
  const lines = markdown.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    const end = offset + line.length + (index < lines.length - 1 ? 1 : 0)
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker) {
      if (!fence) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined
    }
    const blank = line.trim() === '' && !marker
    // A blank line is only a boundary once the next line has begun (the last line may still grow).
    if (!fence && blank && index < lines.length - 1) {
      if (current.length > 0) finished.push(current.join('\n'))
      current = []
      consumed = end
    } else if (!(blank && current.length === 0)) {
      current.push(line)
    }
    offset = end
  }
  return { finished, consumed }
}

/** Splits the text of a stream that only ever grows, re-scanning only what is not finished yet. */
export function createBlockSplitter(): (markdown: string) => string[] {
  let text = ''
  let finished: string[] = []
  let consumed = 0
  return (markdown) => {
    if (!markdown.startsWith(text)) {
      finished = []
      consumed = 0
    }
    text = markdown
    const tail = splitFinished(markdown.slice(consumed))
    if (tail.finished.length > 0) finished = [...finished, ...tail.finished]
    consumed += tail.consumed
    const rest = markdown.slice(consumed)
    return rest.trim() === '' ? finished : [...finished, trimBlankLines(rest)]
  }
}

function trimBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').replace(/(?:\n[ \t]*)+$/, '')
}
