import { describe, expect, it } from 'vitest'
import { webSearchCardOf } from './web-search-view'

describe('webSearchCardOf', () => {
  it('turns the hits of a WebSearch result into links', () => {
    const card = webSearchCardOf({
      query: 'vitest docs',
      results: [{ tool_use_id: 'srvtoolu_1', content: [{ title: 'Vitest', url: 'https://vitest.dev/guide/' }, { title: '', url: 'http://example.com/a b' }] }, 'The model said something.'],
      durationSeconds: 1,
      searchCount: 1,
    })
    expect(card).toEqual({
      query: 'vitest docs',
      links: [
        { title: 'Vitest', url: 'https://vitest.dev/guide/', href: 'https://vitest.dev/guide/' },
        { title: 'http://example.com/a b', url: 'http://example.com/a b', href: 'http://example.com/a%20b' },
      ],
    })
  })

  it('keeps a hit whose URL is not http(s) as plain text', () => {
    const urls = ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<b>x</b>', 'vscode://open', 'not a url', '/relative', 'https://user:pw@example.com/']
    const card = webSearchCardOf({ query: 'q', results: [{ tool_use_id: 't', content: urls.map((url) => ({ title: 'x', url })) }] })
    expect(card?.links).toHaveLength(urls.length)
    for (const link of card?.links ?? []) expect(link.href).toBeUndefined()
  })

  it('is undefined for details of another shape and skips malformed hits', () => {
    expect(webSearchCardOf(undefined)).toBeUndefined()
    expect(webSearchCardOf({ before: 'a', after: 'b' })).toBeUndefined()
    expect(webSearchCardOf({ query: 'q', results: [null, { content: [null, { title: 'no url' }, { title: 1, url: 'https://a.example/' }] }] })).toEqual({
      query: 'q',
      links: [{ title: 'https://a.example/', url: 'https://a.example/', href: 'https://a.example/' }],
    })
  })
})
