import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RENDERER_CSP, cspHeader } from '../src/shared/csp'
import { ROOT, sourceFiles } from './source-scan'

/**
 * Static checks from the Electron security checklist (the Electron binary is absent here, so
 * what cannot run is read): windows are only made from createWindowOptions(), guards are wired,
 * no file:// loading, openExternal only behind the allowlist.
 */

const mainSources = sourceFiles('src/main', { tests: false })
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8')

describe('Electron hardening (static)', () => {
  it('creates every BrowserWindow with createWindowOptions()', () => {
    const calls: string[] = []
    for (const file of mainSources) {
      for (const match of read(file).matchAll(/new\s+BrowserWindow\s*\(([^)]*)/g)) calls.push(`${file}: ${match[1]?.trim()}`)
    }
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) expect(call).toMatch(/: createWindowOptions\(/)
  })

  it('has no other way to make web contents, and webPreferences only in window-options.ts', () => {
    for (const file of mainSources) {
      const text = read(file)
      expect(text, file).not.toMatch(/new\s+(WebContentsView|BrowserView)\s*\(/)
      if (file !== 'src/main/app/window-options.ts') expect(text, file).not.toMatch(/webPreferences\s*:/)
    }
  })

  it('never loads file:// and calls openExternal only behind the allowlist', () => {
    for (const file of mainSources) {
      const text = read(file)
      expect(text, file).not.toMatch(/\.loadFile\s*\(|['"`]file:\/\//)
      if (/openExternal\s*\(/.test(text)) {
        expect(file).toBe('src/main/app/harden.ts')
        expect(text).toMatch(/if \(isSafeExternalUrl\(url\)\) void shell\.openExternal\(url\)/)
      }
    }
  })

  it('wires navigation, window-open, webview and permission guards', () => {
    const harden = read('src/main/app/harden.ts')
    for (const hook of ["'will-navigate'", "'will-frame-navigate'", "'will-redirect'", "'will-attach-webview'", 'setWindowOpenHandler', "action: 'deny'", 'setPermissionRequestHandler', 'setPermissionCheckHandler', 'setDevicePermissionHandler', 'onHeadersReceived']) {
      expect(harden, hook).toContain(hook)
    }
    const entry = read('src/main/index.ts')
    expect(entry).toMatch(/app\.on\('web-contents-created', \(_event, contents\) => hardenWebContents\(contents, appOrigins\)\)/)
    expect(entry).toContain('hardenSession(session.defaultSession')
    expect(entry).toContain('requestSingleInstanceLock()')
    expect(entry).toContain('registerAppScheme()')
  })

  it('the preload exposes only the bridge, never ipcRenderer', () => {
    const preload = read('src/preload/index.ts')
    expect(preload.match(/exposeInMainWorld/g)).toHaveLength(1)
    expect(preload).toMatch(/exposeInMainWorld\(\s*'sous',\s*createDesktopApi\(/)
  })

  it('the CSP forbids inline and eval scripts and foreign connections', () => {
    for (const policy of [RENDERER_CSP, cspHeader(), cspHeader({ connectSrc: ['ws://127.0.0.1:1'] })]) {
      const scriptSrc = policy.split('; ').find((d) => d.startsWith('script-src '))
      expect(scriptSrc).toBe("script-src 'self'")
      expect(policy).toContain("default-src 'none'")
      expect(policy).toContain("object-src 'none'")
      expect(policy).not.toContain('unsafe-eval')
      expect(policy).toMatch(/connect-src 'self'( ws:\/\/127\.0\.0\.1:1)?;/)
    }
    expect(cspHeader()).toContain("frame-ancestors 'none'")
    expect(RENDERER_CSP).not.toContain('frame-ancestors')
  })
})
