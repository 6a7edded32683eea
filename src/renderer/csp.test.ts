import { describe, expect, it } from 'vitest'
import { injectCspMeta, RENDERER_CSP } from '../shared/csp'
import html from './index.html?raw'

describe('index.html', () => {
  it('carries exactly the shared renderer CSP in its meta tag once built', () => {
    expect(html).not.toContain('http-equiv="Content-Security-Policy"')
    const meta = injectCspMeta(html).match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/)
    expect(meta?.[1]).toBe(RENDERER_CSP)
  })

  it('has no inline scripts', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/)
      expect(body?.trim()).toBe('')
    }
  })
})
