import { describe, expect, it } from 'vitest'
import { HIGHLIGHTED_LANGUAGES, highlighterOrLoad, highlighterReady, highlighterVersion, loadHighlighter, onHighlighterChange } from './highlighter'
// The list highlight.js/lib/common registers, read as text (importing it would register them all).
import common from '../../../../../node_modules/highlight.js/lib/common.js?raw'
import { createBlockSplitter, hasFencedCode, knownFenceLanguages, renderMarkdown, splitBlocks } from './render'

// First in the file: the highlighter is module state, fetched by the first code block rendered.
describe('the highlighter, fetched on first use', () => {
  it('shows code plain until it arrives, fetches it for the first code block, then colours code', async () => {
    expect(highlighterReady()).toBe(false)
    expect(renderMarkdown('Just words, no code.')).not.toContain('hljs-')
    expect(highlighterReady()).toBe(false)
    const arrived = new Promise<void>((resolve) => onHighlighterChange(resolve))
    const plain = renderMarkdown('```ts\nconst a = 1 < 2\n```')
    expect(plain).not.toContain('hljs-keyword')
    expect(plain).toContain('const a = 1 &lt; 2')
    await arrived
    // The first group has arrived, not all of them: TypeScript colours, the last group's languages not yet.
    expect(highlighterVersion()).toBe(1)
    expect(highlighterReady()).toBe(false)
    expect(renderMarkdown('```ts\nconst a = 1\n```')).toContain('<span class="hljs-keyword">const</span>')
    const early = renderMarkdown('```lua\nlocal x = "<b>"\n```')
    expect(early).toContain('local x = &quot;&lt;b&gt;&quot;')
    expect(early).not.toContain('language-lua')
    expect(knownFenceLanguages('```ts\nx\n```\n\n```lua\ny\n```')).toBe('ts')
    await loadHighlighter()
    expect(highlighterReady()).toBe(true)
    expect(knownFenceLanguages('```ts\nx\n```\n\n```lua\ny\n```')).toBe('ts lua')
    expect(renderMarkdown('```lua\nlocal x = 1\n```')).toContain('<span class="hljs-keyword">local</span>')
  })

  it('registers the same languages as highlight.js/lib/common, and a block in each renders highlighted', () => {
    const names = [...common.matchAll(/registerLanguage\('([^']+)'/g)].map((match) => match[1]!)
    expect(names.length).toBeGreaterThan(30)
    expect([...HIGHLIGHTED_LANGUAGES].sort()).toEqual([...names].sort())
    for (const name of names) {
      expect(highlighterOrLoad()?.getLanguage(name), name).toBeDefined()
      const html = renderMarkdown(`\`\`\`${name}\nif (a < b) { return "x" } // note\n\`\`\``)
      expect(html, name).toContain(`<code class="hljs language-${name}">`)
      expect(html.replace(/<[^>]+>/g, ''), name).toContain('if (a &lt; b) { return &quot;x&quot; } // note')
    }
  })

  it('knows which blocks have code to colour', () => {
    expect(hasFencedCode('```ts\nx\n```')).toBe(true)
    expect(hasFencedCode('  ~~~ python\nx\n~~~')).toBe(true)
    expect(hasFencedCode('```\nno language\n```')).toBe(false)
    expect(hasFencedCode('text with ```ts inline')).toBe(false)
  })
})

describe('renderMarkdown', () => {
  it('renders ordinary markdown', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n```ts\nconst a = 1 < 2\n```')
    expect(html).toContain('<h1>Title</h1>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<code>code</code>')
    expect(html.replace(/<[^>]+>/g, '')).toContain('const a = 1 &lt; 2')
  })

  it('shows raw HTML from the model as text, block and inline', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)> there')
    expect(html).not.toMatch(/<script|<img/i)
    expect(html).toContain('&lt;script&gt;')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('keeps safe links and drops dangerous targets', () => {
    expect(renderMarkdown('[docs](https://example.com/a?b=1&c=2)')).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a>',
    )
    const evil = renderMarkdown('[click](javascript:alert(1)) and [x](data:text/html,hi)')
    expect(evil).not.toContain('href')
    expect(evil).toContain('click')
  })

  it('turns images into links instead of loading them', () => {
    const html = renderMarkdown('![chart](https://example.com/c.png)')
    expect(html).not.toContain('<img')
    expect(html).toContain('<a href="https://example.com/c.png"')
  })
})

describe('highlighting and blocks', () => {
  it('highlights code blocks of known languages and escapes the rest', async () => {
    await loadHighlighter()
    expect(renderMarkdown('```ts\nconst a = 1\n```')).toContain('<span class="hljs-keyword">const</span>')
    const unknown = renderMarkdown('```nolang\n<b>x</b>\n```')
    expect(unknown).toContain('&lt;b&gt;x&lt;/b&gt;')
    expect(unknown).not.toContain('<b>')
  })

  it('splits at blank lines but never inside a code fence', () => {
    const text = 'Intro line\nsecond line\n\n```py\na = 1\n\nb = 2\n```\n\n- item\n\n'
    expect(splitBlocks(text)).toEqual(['Intro line\nsecond line', '```py\na = 1\n\nb = 2\n```', '- item'])
    expect(splitBlocks('open ```\n\n```js\nx\n\ny')).toEqual(['open ```', '```js\nx\n\ny'])
  })
})

describe('incremental splitting', () => {
  it('gives the same blocks as a full split at every point of a stream', () => {
    const text = 'Intro\n\n```py\na = 1\n\nb = 2\n```\n\n- one\n- two\n\nLast words\n\n'
    const split = createBlockSplitter()
    for (let end = 0; end <= text.length; end++) {
      expect(split(text.slice(0, end))).toEqual(splitBlocks(text.slice(0, end)))
    }
  })

  it('starts over when the text is replaced rather than extended', () => {
    const split = createBlockSplitter()
    expect(split('a\n\nb')).toEqual(['a', 'b'])
    expect(split('x\n\ny')).toEqual(['x', 'y'])
  })
})
