import { describe, expect, it } from 'vitest'
import { checkRequestSite } from './request-site'

// The per-origin check, pure: what each combination of Origin and Sec-Fetch-Site comes to.
const self = 'http://127.0.0.1:4000'
const allowed = [self, 'http://localhost:4000']
const http = (origin?: string, secFetchSite?: string) => checkRequestSite({ origin, secFetchSite }, 'http', self, allowed).ok
const socket = (origin?: string, secFetchSite?: string) => checkRequestSite({ origin, secFetchSite }, 'websocket', self, allowed).ok

describe('checkRequestSite', () => {
  it('HTTP: its own loads and the user\'s own navigation pass; other ports, sites and opaque origins do not', () => {
    expect(http()).toBe(true) // not a browser, or one without fetch metadata
    expect(http(undefined, 'none')).toBe(true)
    expect(http(undefined, 'same-origin')).toBe(true)
    expect(http(self, 'same-origin')).toBe(true)
    expect(http(undefined, 'SAME-ORIGIN')).toBe(true)
    // Another server on 127.0.0.1 is same-site: refused all the same.
    expect(http(undefined, 'same-site')).toBe(false)
    expect(http('http://127.0.0.1:5000', 'same-site')).toBe(false)
    expect(http(undefined, 'cross-site')).toBe(false)
    expect(http('http://127.0.0.1:5000')).toBe(false)
    expect(http('null')).toBe(false)
    expect(http('http://localhost:4000')).toBe(false) // served, but not this request's origin
    expect(http(self, 'something-new')).toBe(false)
  })

  it('WebSocket: needs its own Origin; Sec-Fetch-Site, when sent, must be same-origin', () => {
    expect(socket(self)).toBe(true)
    expect(socket(self, 'same-origin')).toBe(true)
    expect(socket()).toBe(false)
    expect(socket(undefined, 'same-origin')).toBe(false)
    expect(socket('http://127.0.0.1:5000', 'same-site')).toBe(false)
    expect(socket(self, 'same-site')).toBe(false)
    expect(socket(self, 'none')).toBe(false)
    expect(socket('null')).toBe(false)
    expect(socket('http://localhost:4000')).toBe(false)
    // An origin Sous never served, even when it matches the Host (remote binds).
    expect(checkRequestSite({ origin: 'http://evil.example:4000' }, 'websocket', 'http://evil.example:4000', allowed).ok).toBe(false)
  })

  it('says why', () => {
    expect(checkRequestSite({ secFetchSite: 'same-site' }, 'http', self, allowed)).toEqual({ ok: false, reason: expect.stringMatching(/same-site.*sous serve/) })
  })
})
