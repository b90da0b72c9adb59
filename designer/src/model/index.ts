/**
 * The designer's state model: the document, the commands that change it, undo and redo, and the
 * contract's validation at each problem's path. Pure TypeScript (no React, no DOM), so it is unit
 * tested on its own and the canvas, property panel and JSON view all speak through it.
 */
export * from './document.js'
export * from './paths.js'
export * from './names.js'
export * from './layout.js'
export * from './pages.js'
export * from './items.js'
export * from './moves.js'
export * from './sizes.js'
export * from './history.js'
export * from './validation.js'
export * from './outline.js'
export * from './process.js'
export * from './logic.js'
