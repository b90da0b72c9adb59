/**
 * What the shared preview panel (components/FilePreview) can show for a file: the spec's viewer shows
 * images, PDF, video and audio; anything else gets the no-preview text with a download button
 * (spec 000 §2 "Dialogs", 001 §2 "Document viewer").
 */
export type FileKind = 'image' | 'pdf' | 'video' | 'audio' | 'other'

const KINDS: Record<Exclude<FileKind, 'other'>, readonly string[]> = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'svg', 'avif'],
  pdf: ['pdf'],
  video: ['mp4', 'webm', 'ogv', 'mov', 'm4v'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac', 'opus'],
}

/** The kind of a file from its name, path, URL or bare extension (query and fragment ignored). */
export function fileKindOf(nameOrExt: string): FileKind {
  const bare = String(nameOrExt ?? '').split(/[?#]/)[0]!
  const last = bare.split(/[\\/]/).pop() ?? ''
  const ext = (last.includes('.') ? last.split('.').pop()! : last).toLowerCase()
  for (const [kind, list] of Object.entries(KINDS)) if (list.includes(ext)) return kind as FileKind
  return 'other'
}
