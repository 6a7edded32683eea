import { fileURLToPath } from 'node:url'
import type { ContentBlock } from '@agentclientprotocol/sdk'
import type { PromptImage } from '../../session/types'

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
const MAX_IMAGES = 5

/** A prompt as `session.prompt` takes it, or why it cannot be sent. */
export type PromptParts = { ok: true; text: string; images: PromptImage[] } | { ok: false; message: string }

/**
 * An ACP prompt's blocks as one Sous prompt: text as it is; a resource link as a line naming it
 * (a file link by its path, so the agent can Read it); an embedded text resource as a
 * `<context>` block with its URI (Zed sends @-mentioned files this way); images (and embedded
 * image blobs) as the prompt's pictures. Audio and other blobs are refused, not dropped silently.
 */
export function promptParts(blocks: readonly ContentBlock[]): PromptParts {
  const texts: string[] = []
  const images: PromptImage[] = []
  const image = (mimeType: string | null | undefined, data: string): string | undefined => {
    const mediaType = IMAGE_TYPES.find((type) => type === mimeType)
    if (!mediaType) return `images must be PNG, JPEG, GIF or WebP (got ${mimeType ?? 'no type'})`
    if (images.length >= MAX_IMAGES) return `at most ${MAX_IMAGES} images per prompt`
    images.push({ mediaType, data })
    return undefined
  }
  for (const block of blocks) {
    if (block.type === 'text') texts.push(block.text)
    else if (block.type === 'image') {
      const problem = image(block.mimeType, block.data)
      if (problem) return { ok: false, message: problem }
    } else if (block.type === 'resource_link') texts.push(`[${block.title ?? block.name}](${displayUri(block.uri)})`)
    else if (block.type === 'resource') {
      const resource = block.resource
      // The URI is the client's: a quote in it must not end the attribute.
      if ('text' in resource) texts.push(`<context uri="${displayUri(resource.uri).replaceAll('"', '%22')}">\n${resource.text}\n</context>`)
      else if (resource.mimeType?.startsWith('image/')) {
        const problem = image(resource.mimeType, resource.blob)
        if (problem) return { ok: false, message: problem }
      } else return { ok: false, message: `an embedded binary resource cannot be sent to the model: ${resource.uri}` }
    } else return { ok: false, message: `Sous cannot send ${block.type} content to the model` }
  }
  const text = texts.join('\n\n').trim()
  if (!text && images.length === 0) return { ok: false, message: 'the prompt is empty' }
  // The engine needs text with pictures: say what they are.
  return { ok: true, text: text || 'See the attached image.', images }
}

/** A file URI as its path; anything else as written. */
function displayUri(uri: string): string {
  try {
    return new URL(uri).protocol === 'file:' ? fileURLToPath(uri) : uri
  } catch {
    return uri
  }
}
