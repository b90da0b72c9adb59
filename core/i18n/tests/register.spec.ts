import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'

/**
 * One register per language in every locale file (issue 18): Spanish speaks to the reader with "tú",
 * Chinese with "您". Every file under locales/ is read, so a new area's texts are held to it too.
 */

const LOCALES = new URL('../locales/', import.meta.url)

/** Every `<lang>.json` under locales/, as [relative path, dotted key, text]. */
async function texts(lang: string): Promise<[string, string, string][]> {
  const files = (await readdir(LOCALES, { recursive: true })).filter((f) => f.split(/[\\/]/).pop() === `${lang}.json`)
  const out: [string, string, string][] = []
  const walk = (file: string, node: unknown, prefix: string) => {
    if (typeof node === 'string') out.push([file, prefix, node])
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) walk(file, value, prefix ? `${prefix}.${key}` : key)
  }
  for (const file of files) walk(file, JSON.parse(await readFile(new URL(file, LOCALES), 'utf8')), '')
  return out
}

/**
 * Words that only "usted" uses to address the reader: the pronoun, and the usted forms of the verbs
 * these files give orders or ask with (their tú forms: introduce, haz, selecciona, inténtalo…). Forms a
 * third person shares ("cuando se guarde", "el que siga") are in USTED_PHRASES, where they are unambiguous.
 */
const USTED_WORDS = new Set([
  'usted',
  'ingrese',
  'introduzca',
  'haga',
  'seleccione',
  'intente',
  'elija',
  'escoja',
  'pulse',
  'presione',
  'separe',
  'utilice',
  'corrija',
  'recargue',
  'escriba',
  'contacte',
  'verifique',
  'asegúrese',
  'agregue',
  'añada',
  'descargue',
  'escanee',
  'suyo',
  'suya',
  'suyos',
  'suyas',
  // with an object pronoun attached
  'inténtelo',
  'súbalo',
  'súbala',
  'súbalos',
  'ábralo',
  'ábrala',
  'corríjalo',
  'corríjalos',
  'guárdelo',
  'guárdelos',
  'recárguelo',
  'selecciónelo',
  'indíquelo',
])

/** Phrases that address the reader as "usted". */
const USTED_PHRASES = [
  // an order opening a sentence, in a form a third person shares mid-sentence
  /(^|[.:;!?]\s+)(Use|Suba|Cierre|Complete|Guarde|Abra|Siga|Vaya|Vuelva|Espere|Revise|Confirme|Inicie|Mueva|Tenga|Busque|Elimine|Cambie|Tomó|Hizo|Inició|Indique|Arrastre)(?!\p{L})/u,
  /\binicie sesión\b/iu,
  /\b(por favor|y|o) (vuelva|intente|espere|revise|mueva)\b/iu,
  /\bvuelva a intentarlo\b/iu,
  /\bno tiene (pasos|permiso|acceso|tareas|casos)\b/iu,
  /\btiene (una|un) (tarea|paso|caso|aviso)\b/iu,
  /\bque (pueda|quiera|desee|necesite)\b/iu,
  /\bno puede indicarse\b/iu,
  /\bse le (solicita|pide|envió|enviará|asignó|asigna|recuerda|informa)\b/iu,
  /\bsu (trabajo|contraseña|cuenta|sesión|grupo|usuario|correo|teléfono|perfil|bandeja|firma|navegador|equipo)\b/iu,
  /\bsus (cambios|datos|sesiones|pasos|casos|tareas|credenciales)\b/iu,
]

/** Words of the Spanish text, lower-cased (letters with accents kept). */
const words = (text: string) => (text.toLowerCase().match(/\p{L}+/gu) ?? []) as string[]

test.group('register', () => {
  test('Spanish addresses the reader as "tú", never as "usted", in every locale file', async ({ assert }) => {
    const found: string[] = []
    const all = await texts('es')
    assert.isAbove(all.length, 1000)
    for (const [file, key, text] of all) {
      const word = words(text).find((w) => USTED_WORDS.has(w))
      const phrase = USTED_PHRASES.find((p) => p.test(text))
      if (word || phrase) found.push(`${file} ${key}: ${text} (${word ?? phrase})`)
    }
    assert.deepEqual(found, [])
  })

  test('the usted check finds usted and lets tú through', ({ assert }) => {
    const flagged = (text: string) =>
      words(text).some((w) => USTED_WORDS.has(w)) || USTED_PHRASES.some((p) => p.test(text))
    for (const text of [
      'Inicie sesión para ver su trabajo.',
      'Seleccione…',
      'Arrastre archivos aquí o haga clic para seleccionarlos',
      'Intente de nuevo en unos segundos',
      'No tiene permiso para ver este archivo',
      'Se le solicita una aprobación',
      'Esta tarea no está asignada a usted',
      'Falta la cara: súbala de nuevo',
      'Tomó el campo.',
      'No hay procesos que pueda iniciar.',
      'Use un script de JavaScript.',
      'Paso tomado: ahora es suyo',
      'Guarde cuando las dos caras estén escaneadas',
      'Para arrastrar, pulse espacio. Mueva con las flechas.',
      'Ocurrió un error, por favor vuelva a intentarlo',
    ]) {
      assert.isTrue(flagged(text), text)
    }
    for (const text of [
      'Inicia sesión para ver tu trabajo.',
      'Selecciona…',
      'Arrastra archivos aquí o haz clic para seleccionarlos',
      'Inténtalo de nuevo en unos segundos',
      'No tienes permiso para ver este archivo',
      'Se te solicita una aprobación',
      'El formulario tiene 3 problemas',
      'Este proceso no puede ser consultado externamente',
      'No se pudo mostrar el documento; puede que no sea un PDF',
      'Buscar un proceso por su nombre',
      'Eliminar la página y sus 3 campos',
      'Tomaste el campo.',
      'Otro miembro ya tomó este paso',
      'Pasar al estado (vacío: el que siga)',
      'Guarda cuando las dos caras estén escaneadas',
      'Ocurrió un error, por favor vuelve a intentarlo',
    ]) {
      assert.isFalse(flagged(text), text)
    }
  })

  test('Chinese addresses the reader as "您", never as "你", in every locale file', async ({ assert }) => {
    const all = await texts('zh')
    assert.isAbove(all.length, 1000)
    assert.deepEqual(
      all.filter(([, , text]) => text.includes('你')).map(([file, key, text]) => `${file} ${key}: ${text}`),
      []
    )
    assert.isTrue(all.some(([, , text]) => text.includes('您')))
  })
})
