import { readFile, writeFile } from 'node:fs/promises'

/** How a text file is stored, so Edit and Write put it back the same way. */
export interface TextFormat {
  encoding: 'utf8' | 'utf8bom' | 'utf16le'
  lineEnding: '\n' | '\r\n'
}

export const DEFAULT_FORMAT: TextFormat = { encoding: 'utf8', lineEnding: '\n' }

/** Decodes bytes; text comes back with `\n` line endings and no BOM. */
export function decodeText(bytes: Buffer): { text: string; format: TextFormat } {
  let encoding: TextFormat['encoding'] = 'utf8'
  let raw: string
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    encoding = 'utf8bom'
    raw = bytes.subarray(3).toString('utf8')
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf16le'
    raw = bytes.subarray(2).toString('utf16le')
  } else {
    raw = bytes.toString('utf8')
  }
  const crlf = raw.split('\r\n').length - 1
  const lf = raw.split('\n').length - 1 - crlf
  const lineEnding = crlf > lf ? '\r\n' : '\n'
  return { text: lineEnding === '\r\n' ? raw.replace(/\r\n/g, '\n') : raw, format: { encoding, lineEnding } }
}

/** Encodes `\n` text in a format. */
export function encodeText(text: string, format: TextFormat): Buffer {
  const body = format.lineEnding === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text
  switch (format.encoding) {
    case 'utf8bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body, 'utf8')])
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')])
    default:
      return Buffer.from(body, 'utf8')
  }
}

/** Reads a text file (bytes kept for the file-state record). */
export async function readTextFile(filePath: string): Promise<{ text: string; format: TextFormat; bytes: Buffer }> {
  const bytes = await readFile(filePath)
  return { ...decodeText(bytes), bytes }
}

/** Writes `\n` text in a format; returns the bytes written. */
export async function writeTextFile(filePath: string, text: string, format: TextFormat): Promise<Buffer> {
  const bytes = encodeText(text, format)
  await writeFile(filePath, bytes)
  return bytes
}

/** Whether bytes look binary: a NUL byte in the first 8 KB (UTF-16 with a BOM is text). */
export function looksBinary(bytes: Buffer): boolean {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return false
  const head = bytes.subarray(0, 8192)
  return head.includes(0)
}

/** `N<TAB>line` rows, numbered from `firstLine` (1-based). */
export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, index) => `${firstLine + index}\t${line}`).join('\n')
}
