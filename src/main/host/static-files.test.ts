import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkBindHost, isLoopbackHost, readCookie, servedOrigins, tokenMatches } from './auth'
import { mimeType, readStaticFile, resolveStaticPath } from './static-files'
import { parseFrame } from './ws-frames'

describe('resolveStaticPath', () => {
  it('maps URL paths under the root and / to index.html', () => {
    expect(resolveStaticPath('/srv/r', '/')).toBe('/srv/r/index.html')
    expect(resolveStaticPath('/srv/r', '/assets/a%20b.js')).toBe('/srv/r/assets/a b.js')
    expect(resolveStaticPath('/srv/r', '/assets/')).toBe('/srv/r/assets/index.html')
  })

  it.each(['/../etc/passwd', '/%2e%2e/etc/passwd', '/a/..%2f..%2fetc', '/..\\etc', '/%5c..%5cetc', '/%00', '/%E0%A4%A', '..'])('refuses %s', (path) => {
    expect(resolveStaticPath('/srv/r', path)).toBeNull()
  })
})

describe('readStaticFile', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sous-static-'))
    await mkdir(join(dir, 'root', 'sub'), { recursive: true })
    await writeFile(join(dir, 'root', 'index.html'), 'hi')
    await writeFile(join(dir, 'outside.txt'), 'secret')
    await symlink(join(dir, 'outside.txt'), join(dir, 'root', 'link.txt'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('reads files, refuses directories and symlinks that lead outside', async () => {
    expect((await readStaticFile(join(dir, 'root'), '/'))?.body.toString()).toBe('hi')
    expect(await readStaticFile(join(dir, 'root'), '/sub')).toBeNull()
    expect(await readStaticFile(join(dir, 'root'), '/link.txt')).toBeNull()
  })

  it('knows the MIME types of a renderer build', () => {
    expect(mimeType('a.css')).toBe('text/css; charset=utf-8')
    expect(mimeType('a.woff2')).toBe('font/woff2')
    expect(mimeType('a.unknown')).toBe('application/octet-stream')
  })
})

describe('auth helpers', () => {
  it('compares tokens exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true)
    expect(tokenMatches('abd', 'abc')).toBe(false)
    expect(tokenMatches('ab', 'abc')).toBe(false)
    expect(tokenMatches(undefined, 'abc')).toBe(false)
  })

  it('reads cookies', () => {
    expect(readCookie('a=1; sous_page_80=xyz; b=2', 'sous_page_80')).toBe('xyz')
    expect(readCookie('sous_page_800=xyz', 'sous_page_80')).toBeUndefined()
  })

  it('tells loopback from remote hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '128.0.0.1']) expect(isLoopbackHost(host), host).toBe(false)
    expect(checkBindHost('0.0.0.0', false).ok).toBe(false)
    expect(checkBindHost('0.0.0.0', true)).toMatchObject({ ok: true, warning: expect.stringMatching(/WARNING/) })
    expect(servedOrigins('::1', 9)).toEqual(['http://[::1]:9', 'http://localhost:9'])
  })
})

describe('parseFrame', () => {
  it('reads requests and recovers ids from bad ones', () => {
    expect(parseFrame('{"id":1,"channel":"app.info","payload":{}}')).toEqual({ ok: true, id: 1, channel: 'app.info', payload: {} })
    for (const text of ['{', 'null', '{"id":1.5,"channel":"x"}', '{"id":{},"channel":"x"}']) {
      const frame = parseFrame(text)
      expect(frame.ok).toBe(false)
      expect(frame.ok ? 'ok' : frame.id).toBeUndefined()
    }
    expect(parseFrame('{"id":"a","channel":[]}')).toMatchObject({ ok: false, id: 'a' })
  })
})
