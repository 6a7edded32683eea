import { describe, expect, it } from 'vitest'
import { sideBySide } from './side-by-side'

describe('sideBySide', () => {
  it('puts each removed run beside the added run after it, context on both sides', () => {
    const patch = ['--- a/x', '+++ b/x', '@@ -1,3 +1,4 @@', ' keep', '-old 1', '-old 2', '+new 1', ' tail', '+extra', ''].join('\n')
    expect(sideBySide(patch)).toEqual([
      { kind: 'file', text: '--- a/x' },
      { kind: 'file', text: '+++ b/x' },
      { kind: 'hunk', text: '@@ -1,3 +1,4 @@' },
      { kind: 'pair', left: { text: ' keep', kind: 'context' }, right: { text: ' keep', kind: 'context' } },
      { kind: 'pair', left: { text: '-old 1', kind: 'del' }, right: { text: '+new 1', kind: 'add' } },
      { kind: 'pair', left: { text: '-old 2', kind: 'del' } },
      { kind: 'pair', left: { text: ' tail', kind: 'context' }, right: { text: ' tail', kind: 'context' } },
      { kind: 'pair', right: { text: '+extra', kind: 'add' } },
    ])
  })

  it('leaves out "no newline at end of file" markers', () => {
    expect(sideBySide('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n')).toEqual([
      { kind: 'hunk', text: '@@ -1 +1 @@' },
      { kind: 'pair', left: { text: '-a', kind: 'del' }, right: { text: '+b', kind: 'add' } },
    ])
  })
})
