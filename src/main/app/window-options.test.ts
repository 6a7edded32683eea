import { describe, expect, it } from 'vitest'
import { createWindowOptions } from './window-options'

describe('createWindowOptions', () => {
  const options = createWindowOptions({ preloadPath: '/app/out/preload/index.cjs' })
  const prefs = options.webPreferences ?? {}

  it('isolates and sandboxes the renderer', () => {
    expect(prefs.contextIsolation).toBe(true)
    expect(prefs.sandbox).toBe(true)
    expect(prefs.nodeIntegration).toBe(false)
    expect(prefs.nodeIntegrationInWorker).toBe(false)
    expect(prefs.nodeIntegrationInSubFrames).toBe(false)
  })

  it('keeps web security on and experiments off', () => {
    expect(prefs.webSecurity).toBe(true)
    expect(prefs.allowRunningInsecureContent).toBe(false)
    expect(prefs.experimentalFeatures).toBe(false)
    expect(prefs.webviewTag).toBe(false)
    expect(prefs.navigateOnDragDrop).toBe(false)
    expect(prefs).not.toHaveProperty('enableBlinkFeatures')
    expect(prefs).not.toHaveProperty('additionalArguments')
  })

  it('loads the given preload and nothing else', () => {
    expect(prefs.preload).toBe('/app/out/preload/index.cjs')
    expect(options.show).toBe(false)
  })
})
