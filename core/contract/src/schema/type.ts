/**
 * The TypeBox builders the contract uses, re-exported one by one; modules write
 * `import * as Type from './type.js'` and keep `Type.Object(...)`. TypeBox's own `Type` is a const
 * alias of its builder namespace, which bundlers cannot tree-shake: importing it put every builder
 * (mapped, indexed, template literals, extends...) into the browser's form route, ~8 kB gzipped.
 * Add a builder here when the contract first needs it.
 */
export {
  Array,
  Boolean,
  Integer,
  Literal,
  Null,
  Number,
  Object,
  Optional,
  Record,
  String,
  Union,
  Unknown,
} from '@sinclair/typebox'
