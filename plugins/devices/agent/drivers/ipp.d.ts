/** The part of the `ipp` package (2.0.1, untyped CommonJS) the drivers use: its message encoder and decoder. */
declare module 'ipp' {
  /** An IPP message as the package writes and reads it: each group is an object of attribute name → value(s). */
  interface IppMessage {
    version?: string
    operation?: string
    statusCode?: string
    id?: number
    'operation-attributes-tag'?: Record<string, unknown>
    'job-attributes-tag'?: Record<string, unknown> | Record<string, unknown>[]
    'printer-attributes-tag'?: Record<string, unknown> | Record<string, unknown>[]
    data?: Buffer | string
  }
  type UnknownTagHandler = (tag: number, name: string, length: number, read: (length: number) => string) => unknown

  const ipp: {
    serialize(message: IppMessage): Buffer
    parse: ((buffer: Buffer) => IppMessage) & { handleUnknownTag: UnknownTagHandler }
  }
  export = ipp
}
