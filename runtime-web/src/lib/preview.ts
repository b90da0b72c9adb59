/**
 * What the shared preview panel (components/FilePreview) can show for a file (spec 000 §2 "Dialogs",
 * 001 §2 "Document viewer"): images, PDF (pdf.js), video, audio, text and code (with search) and 3D
 * models (three.js); anything else gets the no-preview text with a download button.
 */
export type FileKind = 'image' | 'pdf' | 'video' | 'audio' | 'text' | 'model' | 'other'

/** The 3D formats of the spec's viewer, each read by three's own loader of that name. */
export const MODEL_FORMATS = ['gltf', 'glb', 'obj', 'fbx', 'dae', 'stl', 'ply'] as const
export type ModelFormat = (typeof MODEL_FORMATS)[number]

const KINDS: Record<Exclude<FileKind, 'other'>, readonly string[]> = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'svg', 'avif'],
  pdf: ['pdf'],
  video: ['mp4', 'webm', 'ogv', 'mov', 'm4v'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac', 'opus'],
  // Shown as plain text (never run, never rendered as markup): code, data and logs.
  text: [
    'txt',
    'text',
    'log',
    'md',
    'markdown',
    'csv',
    'tsv',
    'json',
    'jsonl',
    'geojson',
    'xml',
    'html',
    'htm',
    'css',
    'scss',
    'less',
    'js',
    'mjs',
    'cjs',
    'jsx',
    'ts',
    'tsx',
    'py',
    'rb',
    'php',
    'java',
    'kt',
    'c',
    'h',
    'cpp',
    'hpp',
    'cs',
    'go',
    'rs',
    'swift',
    'sh',
    'bash',
    'ps1',
    'sql',
    'yaml',
    'yml',
    'toml',
    'ini',
    'cfg',
    'conf',
    'env',
    'properties',
    'vue',
    'svelte',
    'r',
    'lua',
    'pl',
    'dart',
    'scala',
    'tex',
    'srt',
    'vtt',
  ],
  model: MODEL_FORMATS,
}

/** The lower-cased extension of a name, path, URL or bare extension (query and fragment ignored). */
export function extensionOf(nameOrExt: string): string {
  const bare = String(nameOrExt ?? '').split(/[?#]/)[0]!
  const last = bare.split(/[\\/]/).pop() ?? ''
  return (last.includes('.') ? last.split('.').pop()! : last).toLowerCase()
}

/** The kind of a file from its name, path, URL or bare extension (query and fragment ignored). */
export function fileKindOf(nameOrExt: string): FileKind {
  const ext = extensionOf(nameOrExt)
  for (const [kind, list] of Object.entries(KINDS)) if (list.includes(ext)) return kind as FileKind
  return 'other'
}

/** The 3D format of a file name (or URL), null when it is not one the model viewer reads. */
export function modelFormatOf(nameOrExt: string): ModelFormat | null {
  const ext = extensionOf(nameOrExt)
  return (MODEL_FORMATS as readonly string[]).includes(ext) ? (ext as ModelFormat) : null
}
