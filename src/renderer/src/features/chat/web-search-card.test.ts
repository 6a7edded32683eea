import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { webSearchCardOf } from './web-search-view'
import { WebSearchCard } from './WebSearchCard'

// The card as React renders it: a named list; web links open in a new window (which the main
// process hands to the system browser), anything else is text with no href at all.
describe('WebSearchCard', () => {
  it('renders http(s) hits as external links and other URLs as plain text', () => {
    const card = webSearchCardOf({
      query: 'dayjs',
      results: [{ tool_use_id: 't', content: [{ title: 'Day.js docs', url: 'https://day.js.org/docs/' }, { title: 'Click me', url: 'javascript:alert(1)' }] }],
    })!
    const html = renderToStaticMarkup(createElement(WebSearchCard, { card }))
    expect(html).toContain('aria-label="Search results for dayjs"')
    expect(html).toContain('<a href="https://day.js.org/docs/" target="_blank" rel="noopener noreferrer" title="https://day.js.org/docs/">Day.js docs</a>')
    expect(html).not.toContain('href="javascript:')
    expect(html).toContain('<span title="javascript:alert(1)">Click me</span>')
  })

  it('says so when the search found nothing', () => {
    expect(renderToStaticMarkup(createElement(WebSearchCard, { card: { query: 'q', links: [] } }))).toContain('No links found.')
  })
})
