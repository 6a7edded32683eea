import { describe, expect, it } from 'vitest'
import { imageProblem, MAX_IMAGE_BYTES } from './images'

describe('composer images', () => {
  it('takes PNG, JPEG, GIF and WebP up to 5 MB, five to a message', () => {
    expect(imageProblem({ name: 'a.png', type: 'image/png', size: 1000 }, 0)).toBeNull()
    expect(imageProblem({ name: 'a.webp', type: 'image/webp', size: MAX_IMAGE_BYTES }, 4)).toBeNull()
  })

  it('refuses what is not an image, too large, or one too many, saying why', () => {
    expect(imageProblem({ name: 'notes.txt', type: 'text/plain', size: 10 }, 0)).toBe('notes.txt is not an image Sous can send (PNG, JPEG, GIF or WebP); it was not attached.')
    expect(imageProblem({ name: 'x.svg', type: 'image/svg+xml', size: 10 }, 0)).toMatch(/not an image Sous can send/)
    expect(imageProblem({ name: 'big.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 }, 0)).toBe('big.png is 5.0 MB; images are sent up to 5 MB. It was not attached.')
    expect(imageProblem({ name: '', type: 'image/png', size: 10 }, 5)).toBe('At most 5 images go with one message; The pasted file was not attached.')
  })
})
