import { Terminal, type ITheme } from '@xterm/xterm'
import { FitAddon } from '@xterm/addon-fit'
import { SearchAddon } from '@xterm/addon-search'
import { Unicode11Addon } from '@xterm/addon-unicode11'
import { WebLinksAddon } from '@xterm/addon-web-links'
import { skipEmptySelectionRedraws } from './selection-redraws'

/** An xterm with the addons every Sous terminal uses. */
export interface XtermKit {
  term: Terminal
  fit: FitAddon
  search: SearchAddon
  /** Fits to the container; a hidden container has no size, and the next resize fits it. */
  safeFit(): void
  dispose(): void
}

/**
 * An xterm with the addons every Sous terminal uses (fit, search, web links, Unicode 11 widths),
 * not yet in the page: constructing one is much of a terminal's start-up script, so a caller can
 * do it in a task of its own before {@link openXterm}.
 */
export function makeXterm(options: { fontSize: number; theme: ITheme }): XtermKit {
  const term = new Terminal({
    fontFamily: 'ui-monospace, "SF Mono", "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: options.fontSize,
    lineHeight: 1.2,
    cursorBlink: true,
    scrollback: 10_000,
    theme: options.theme,
    // Unicode 11 widths are a "proposed" API in xterm 6.
    allowProposedApi: true,
  })
  const fit = new FitAddon()
  const search = new SearchAddon()
  term.loadAddon(fit)
  term.loadAddon(search)
  term.loadAddon(
    new WebLinksAddon((event, uri) => {
      event.preventDefault()
      // Links open outside the app (Electron routes window.open to the OS browser).
      window.open(uri, '_blank', 'noopener,noreferrer')
    }),
  )
  term.loadAddon(new Unicode11Addon())
  term.unicode.activeVersion = '11'
  const safeFit = () => {
    try {
      fit.fit()
    } catch {
      // No size yet (hidden tab, or not opened yet).
    }
  }
  return { term, fit, search, safeFit, dispose: () => term.dispose() }
}

/**
 * Puts a {@link makeXterm} terminal in `host` (it measures the font there), WebGL where available.
 * The caller fits it (`safeFit`), in the same task or the next one: before anything is written,
 * a terminal not fitted yet looks the same as a fitted one.
 */
export function openXterm(kit: XtermKit, host: HTMLElement): void {
  kit.term.open(host)
  // Halves the DOM renderer's row building while output streams (see selection-redraws.ts).
  skipEmptySelectionRedraws(kit.term)
  void loadWebgl(kit.term)
}

/**
 * The WebGL renderer is faster on big output; it is loaded lazily and only where a WebGL2
 * context exists, and dropped (back to the DOM renderer) if the context is lost. Automated
 * browsers keep the DOM renderer, whose rows the e2e specs read.
 */
async function loadWebgl(term: Terminal): Promise<void> {
  if (navigator.webdriver || !document.createElement('canvas').getContext('webgl2')) return
  try {
    const { WebglAddon } = await import('@xterm/addon-webgl')
    const webgl = new WebglAddon()
    webgl.onContextLoss(() => webgl.dispose())
    term.loadAddon(webgl)
  } catch {
    // No WebGL after all: the DOM renderer stays, silently.
  }
}
