/**
 * A plugin's web screens (framework-free: no React import, so the contract stays type-checkable
 * anywhere). The plugin's package exports `./screens`: a module whose default export is one
 * `defineWebPlugin({...})` value. runtime-web reads the enabled plugins' through the build-time module
 * `virtual:tramita-screens` (discover.ts) and mounts each screen at its path; a screen's code is a lazy
 * chunk loaded on its first visit, so no other route carries it.
 */

/** One screen: a path of the web app and the module that draws it (its default export is the component). */
export interface PluginScreen {
  /** `/documents`, `/documents/trash`, `/static/public/:token` (react-router's `:param` segments). */
  path: string
  /** A dynamic `import()` of the component's module (its default export): a chunk of its own. */
  load: () => Promise<{ default: unknown }>
  /** Open without signing in (a public link's screen); otherwise a visitor is sent to sign in. */
  public?: boolean
}

export interface WebPluginDefinition {
  screens: readonly PluginScreen[]
}

/** Plain segments, or `:name` parameters: no query, no wildcard, no other host. */
const SCREEN_PATH = /^(?:\/(?:[a-z0-9_-]+|:[a-zA-Z]\w*))+$/

/** Declares a plugin's screens; checks the paths early so a bad one fails the build with its name. */
export function defineWebPlugin(definition: WebPluginDefinition): WebPluginDefinition {
  const seen = new Set<string>()
  for (const screen of definition.screens) {
    if (!SCREEN_PATH.test(screen.path)) throw new Error(`Invalid screen path "${screen.path}"`)
    if (seen.has(screen.path)) throw new Error(`Screen path "${screen.path}" declared twice`)
    seen.add(screen.path)
  }
  return Object.freeze({ screens: Object.freeze([...definition.screens]) })
}

/*
 * Device capture for the core's dialogs (the ID card dialog scans its faces, the signature dialog
 * receives a signing pad's image). A plugin's package exports `./form-devices`: a module whose default
 * export is one `FormDevices` value; runtime-web loads the first enabled one lazily through the
 * build-time module `virtual:tramita-form-devices` (discover.ts) and, without one, shows no device
 * options. Framework-free like the screens above.
 */

/** A machine a dialog may use (what all_machines answers, trimmed). */
export interface FormDeviceMachine {
  token: string
  name: string
  canScan: boolean
  canPrint: boolean
  /** A signing pad can sign on it now (signature dialog); absent: the provider does not say. */
  canSign?: boolean
}

/** A signature request opened on the server: where the signing app gets the template and sends the signed PDF. */
export interface SignatureRequest {
  /** The current signature's id: `/inside/forms/create/document/external/upload_signature/{token}.pdf`. */
  token: string
  /** The template the signing app fills: '/static/plantillas/plantilla_firma.pdf'. */
  template: string
  /** The upload path above. */
  upload: string
  /** Resolves with the signature image (PNG) once `signature_upload_finish` arrives for this token. */
  done: Promise<File>
}

/**
 * What the runtime lends the implementation, given once by `init` before any other call: the page's
 * socket, which a plugin cannot open itself (the session bar owns it), as the action engine's host does.
 */
export interface FormDevicesHost {
  /**
   * The first `kase` message on the page's socket whose data `match` accepts; rejects after `timeoutMs`
   * or with the signal's reason. Listen before placing the call whose answer it waits for.
   */
  socketEvent(
    kase: string,
    match: (data: unknown) => boolean,
    timeoutMs: number,
    signal?: AbortSignal
  ): Promise<unknown>
}

export interface FormDevices {
  /** Called by the runtime once, right after loading, before any other member. */
  init(host: FormDevicesHost): void
  /** The machines the signed-in person may use. */
  machines(): Promise<FormDeviceMachine[]>
  /**
   * One page scanned on `machine` for the dialog of `field` of the form `form` (its key: the server checks
   * the scan against that form's field; `side`: 'front' / 'back' for an ID card). Rejects with a message
   * to show (the server's, spec 001 §8), or a TimeoutError when no answer came in time.
   */
  scan(request: { machine: string; field: string; form: string; side?: string; signal?: AbortSignal }): Promise<File>
  /**
   * Opens a signature request: signpro mode (an external signing app, no machine) or a signing pad on an
   * agent's machine. `form`: the form's key, when the server needs it to stage the image for `field`.
   */
  signature(request: {
    field: string
    form?: string
    machine?: string
    signal?: AbortSignal
  }): Promise<SignatureRequest>
}
