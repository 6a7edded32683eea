import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_URL } from '../host/sender-policy'
import { readAppFile } from './app-protocol'
import { isSafeExternalUrl, navigationAllowed, permissionAllowed } from './navigation'
import { folderFromArgv, OpenRequestQueue } from './open-requests'

const origins = [APP_URL, 'http://localhost:5173/']

describe('navigation guard', () => {
  it('allows only our own app', () => {
    expect(navigationAllowed('app://sous/index.html', origins)).toBe(true)
    expect(navigationAllowed('http://localhost:5173/index.html', origins)).toBe(true)
    for (const url of [
      'https://evil.example/',
      'app://sous.evil.example/',
      'app://evil/index.html',
      'http://localhost:5174/',
      'http://localhost:5173@evil.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'not a url',
    ]) {
      expect(navigationAllowed(url, origins), url).toBe(false)
    }
  })

  it('hands only web and mail links to the OS', () => {
    for (const url of ['https://docs.anthropic.com/x', 'http://example.com', 'mailto:a@b.c']) expect(isSafeExternalUrl(url), url).toBe(true)
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'vscode://x', 'ms-msdt:foo', 'https://user:pw@x.com', 'nope']) {
      expect(isSafeExternalUrl(url), url).toBe(false)
    }
  })

  it('denies permissions by default, allowing clipboard writes to our app only', () => {
    for (const permission of ['media', 'notifications', 'geolocation', 'hid', 'serial', 'openExternal', 'clipboard-read', 'unknown']) {
      expect(permissionAllowed(permission, APP_URL, origins), permission).toBe(false)
    }
    expect(permissionAllowed('clipboard-sanitized-write', APP_URL, origins)).toBe(true)
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example/', origins)).toBe(false)
    expect(permissionAllowed('clipboard-sanitized-write', undefined, origins)).toBe(false)
  })
})

describe('app:// protocol resolution', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sous-proto-'))
    await mkdir(join(dir, 'renderer', 'assets'), { recursive: true })
    await writeFile(join(dir, 'renderer', 'index.html'), '<html>')
    await writeFile(join(dir, 'renderer', 'assets', 'a.js'), 'x')
    await writeFile(join(dir, 'secret'), 'secret')
    await symlink(join(dir, 'secret'), join(dir, 'renderer', 'leak'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('serves the renderer with its MIME type', async () => {
    const root = join(dir, 'renderer')
    expect((await readAppFile(root, 'app://sous/'))?.contentType).toBe('text/html; charset=utf-8')
    expect((await readAppFile(root, 'app://sous/assets/a.js'))?.contentType).toBe('text/javascript; charset=utf-8')
  })

  it('refuses traversal, other hosts and other schemes', async () => {
    const root = join(dir, 'renderer')
    for (const url of ['app://sous/..%2fsecret', 'app://sous/%2e%2e/secret', 'app://sous/assets/..%5c..%5csecret', 'app://sous/leak', 'app://other/index.html', 'file:///etc/passwd', 'app://sous/missing.js']) {
      expect(await readAppFile(root, url), url).toBeNull()
    }
  })
})

describe('open requests', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sous-argv-'))
    await mkdir(join(dir, 'proj'))
    await writeFile(join(dir, 'file.txt'), '')
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('finds the folder argument, skipping switches and files', () => {
    expect(folderFromArgv(['--allow-file-access', 'proj', '--enable-logging'], dir)).toBe(join(dir, 'proj'))
    expect(folderFromArgv([join(dir, 'proj'), 'file.txt'], dir)).toBe(join(dir, 'proj'))
    expect(folderFromArgv(['file.txt', 'missing'], dir)).toBeUndefined()
    expect(folderFromArgv([], dir)).toBeUndefined()
  })

  it('holds requests until the renderer is ready, then delivers each once', () => {
    const delivered: string[] = []
    const queue = new OpenRequestQueue((path) => delivered.push(path))
    queue.request('/a')
    queue.request('/b')
    expect(delivered).toEqual([])
    queue.setReady(true)
    queue.request('/c')
    queue.setReady(false)
    queue.request('/d')
    queue.setReady(true)
    expect(delivered).toEqual(['/a', '/b', '/c', '/d'])
  })
})
