import type { ITheme } from '@xterm/xterm'

/** Terminal colours that sit with the app's light and dark palettes. */
export const lightTheme: ITheme = {
  background: '#fbfaf8',
  foreground: '#2b2a28',
  cursor: '#2b2a28',
  cursorAccent: '#fbfaf8',
  selectionBackground: '#d9e3f0',
  black: '#2b2a28',
  red: '#b4432f',
  green: '#3f7d3a',
  yellow: '#8a6a12',
  blue: '#2f5f9e',
  magenta: '#8a4a8f',
  cyan: '#2b7a7f',
  white: '#d8d5cf',
  brightBlack: '#6f6b64',
}

export const darkTheme: ITheme = {
  background: '#1b1c1e',
  foreground: '#e4e2dd',
  cursor: '#e4e2dd',
  cursorAccent: '#1b1c1e',
  selectionBackground: '#3a4a60',
  black: '#1b1c1e',
  red: '#e0806c',
  green: '#8fc47f',
  yellow: '#d9b965',
  blue: '#80a8e0',
  magenta: '#c79ad0',
  cyan: '#7cc3c6',
  white: '#e4e2dd',
  brightBlack: '#8a8780',
}

/** The theme for the current colour scheme. */
export function currentTheme(): ITheme {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? darkTheme : lightTheme
}
