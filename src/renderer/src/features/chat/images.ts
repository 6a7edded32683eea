/**
 * Pictures pasted or dropped into the composer, sent with the prompt as image blocks. The limits
 * are the API's: PNG, JPEG, GIF or WebP, at most 5 MB each; five per prompt keeps a request sane.
 */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
export type ImageType = (typeof IMAGE_TYPES)[number]
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const MAX_IMAGES = 5

/** An attached picture: what is sent, and what the thumbnail shows. */
export interface Attachment {
  id: string
  name: string
  mediaType: ImageType
  /** Base64 of the file. */
  data: string
}

/** Why a file cannot be attached, or null. Pure. */
export function imageProblem(file: { name: string; type: string; size: number }, attached: number): string | null {
  const name = file.name || 'The pasted file'
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return `${name} is not an image Sous can send (PNG, JPEG, GIF or WebP); it was not attached.`
  if (file.size > MAX_IMAGE_BYTES) return `${name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; images are sent up to 5 MB. It was not attached.`
  if (attached >= MAX_IMAGES) return `At most ${MAX_IMAGES} images go with one message; ${name} was not attached.`
  return null
}

/** Reads a file as an attachment (base64). */
export async function readAttachment(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return { id: crypto.randomUUID(), name: file.name || 'pasted image', mediaType: file.type as ImageType, data: btoa(binary) }
}
