/** SWC's options from a tsconfig's compilerOptions, read the way tsc reads them for our code. */
export function swcOptions(tsconfig) {
  const ts = tsconfig?.compilerOptions ?? {}
  const target = ts.target?.toLowerCase()
  return {
    sourceMaps: ts.sourceMap ?? true,
    jsc: {
      target: !target || target === 'es6' ? 'esnext' : target,
      baseUrl: ts.baseUrl,
      externalHelpers: false,
      // `tsx` is set per file: `<T>value` is a cast in .ts and an element in .tsx.
      parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
      transform: {
        // Lucid's models and AdonisJS's container read legacy decorators and their metadata.
        legacyDecorator: !!ts.experimentalDecorators,
        decoratorMetadata: !!ts.emitDecoratorMetadata,
        ...(ts.verbatimModuleSyntax ? { verbatimModuleSyntax: true } : {}),
        ...(ts.useDefineForClassFields !== undefined ? { useDefineForClassFields: ts.useDefineForClassFields } : {}),
        react: { runtime: 'automatic', ...(ts.jsxImportSource ? { importSource: ts.jsxImportSource } : {}) },
      },
      experimental: { keepImportAttributes: true },
      keepClassNames: true,
    },
  }
}
