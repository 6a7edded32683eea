import { describe, expect, it } from 'vitest'
import { resultText } from './result-text'

describe('resultText', () => {
  it('passes a string through, joins blocks with a newline and names images', () => {
    expect(resultText('plain')).toBe('plain')
    expect(
      resultText([
        { type: 'text', text: 'first' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'text', text: 'last' },
      ]),
    ).toBe('first\n[image image/png]\nlast')
  })
})
