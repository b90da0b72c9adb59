/**
 * The 3D viewer of the preview panel (spec 000 §2 "Dialogs", 001 §2 "Document viewer"): gltf, glb,
 * obj, fbx, dae, stl and ply through three's own example loaders; a perspective camera of 75°, orbit
 * controls at the spec's speeds (rotate 7, zoom 1.2, pan 1), the camera fitted to the model. Keys on
 * the focused view: arrows pan, Shift+arrows rotate, + and - zoom. Draco and meshopt decoders come
 * from the bundle (three's DRACOLoader points at its own files, which Vite emits), never from a CDN.
 * Every WebGL resource is disposed when the panel closes. A lazily loaded chunk of its own.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useViewerTexts } from './texts.js'
import {
  Box3,
  BufferGeometry,
  Color,
  DirectionalLight,
  DoubleSide,
  HemisphereLight,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Points,
  PointsMaterial,
  Scene,
  Sphere,
  Vector3,
  WebGLRenderer,
  type Material,
  type Object3D,
  type Texture,
} from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'
import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js'
import { DRACO_GLTF_CONFIG, DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js'
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js'
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js'
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
import { modelFormatOf, type ModelFormat } from '../../lib/preview.js'
import type { ViewerProps } from './types.js'
import './viewers.css'

/** Spec 000 §2 / issue 7: camera angle 75, rotate speed 7, zoom 1.2, pan 1. */
export const MODEL_CAMERA_FOV = 75
export const MODEL_CONTROLS = { rotateSpeed: 7, zoomSpeed: 1.2, panSpeed: 1 } as const

const BACKGROUND = 0xf1f2f6
/** The colour of formats that carry no material (stl, ply without vertex colours). */
const SURFACE = 0x8e94b4

/** Reads the file with the loader of its format; bare geometries get a mesh (or points) of their own. */
async function loadModel(format: ModelFormat, url: string): Promise<Object3D> {
  switch (format) {
    case 'gltf':
    case 'glb': {
      const draco = new DRACOLoader().setDecoderPath(DRACO_GLTF_CONFIG)
      const loader = new GLTFLoader().setDRACOLoader(draco).setMeshoptDecoder(MeshoptDecoder)
      try {
        return (await loader.loadAsync(url)).scene
      } finally {
        draco.dispose()
      }
    }
    case 'obj':
      return new OBJLoader().loadAsync(url)
    case 'fbx':
      return new FBXLoader().loadAsync(url)
    case 'dae': {
      const collada = await new ColladaLoader().loadAsync(url)
      if (!collada) throw new Error('not a COLLADA file')
      return collada.scene
    }
    case 'stl':
      return surface(await new STLLoader().loadAsync(url))
    case 'ply':
      return plyObject(await new PLYLoader().loadAsync(url))
  }
}

function surface(geometry: BufferGeometry): Object3D {
  const coloured = geometry.hasAttribute('color')
  if (!geometry.hasAttribute('normal')) geometry.computeVertexNormals()
  const material = new MeshStandardMaterial({
    color: coloured ? 0xffffff : SURFACE,
    vertexColors: coloured,
    roughness: 0.65,
    metalness: 0.1,
    side: DoubleSide,
  })
  return new Mesh(geometry, material)
}

/** A PLY without faces is a point cloud (a scan): PLYLoader gives faces as an index. */
function plyObject(geometry: BufferGeometry): Object3D {
  if (geometry.index) return surface(geometry)
  const coloured = geometry.hasAttribute('color')
  return new Points(
    geometry,
    new PointsMaterial({
      color: coloured ? 0xffffff : SURFACE,
      vertexColors: coloured,
      // Points keep a screen size whatever the model's units.
      size: 2,
      sizeAttenuation: false,
    })
  )
}

/** Places the camera so the whole model fits the view, looking at its centre from above and aside. */
export function fitCamera(camera: PerspectiveCamera, controls: OrbitControls, object: Object3D): boolean {
  const box = new Box3().setFromObject(object)
  if (box.isEmpty()) return false
  const sphere = box.getBoundingSphere(new Sphere())
  const radius = Math.max(sphere.radius, 1e-6)
  const distance = (radius / Math.sin(((camera.fov / 2) * Math.PI) / 180)) * 1.1
  const direction = new Vector3(1, 0.7, 1).normalize()
  camera.position.copy(sphere.center).addScaledVector(direction, distance)
  camera.near = distance / 100
  camera.far = distance * 100
  camera.updateProjectionMatrix()
  controls.target.copy(sphere.center)
  controls.update()
  return true
}

/** Frees what a scene holds on the GPU: geometries, materials and their textures. */
function disposeScene(root: Object3D) {
  root.traverse((node) => {
    const { geometry, material } = node as Partial<Mesh>
    geometry?.dispose()
    for (const m of ([] as Material[]).concat(material ?? [])) {
      for (const value of Object.values(m)) if ((value as Texture | null)?.isTexture) (value as Texture).dispose()
      m.dispose()
    }
  })
}

export default function ModelViewer({ url, name, onReady, onFail }: ViewerProps) {
  const t = useViewerTexts()
  const host = useRef<HTMLDivElement>(null)
  const zoomRef = useRef<(factor: number) => void>(() => {})
  const [ready, setReady] = useState(false)

  useEffect(() => {
    const box = host.current
    const format = modelFormatOf(name) ?? modelFormatOf(url)
    if (!box || !format) {
      onFail()
      return
    }
    let live = true
    const renderer = new WebGLRenderer({ antialias: true })
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2))
    renderer.domElement.className = 'viewer__canvas'
    box.appendChild(renderer.domElement)
    const scene = new Scene()
    scene.background = new Color(BACKGROUND)
    const camera = new PerspectiveCamera(MODEL_CAMERA_FOV, 1, 0.01, 1000)
    // The key light rides with the camera, so the side the user looks at is always lit.
    camera.add(new DirectionalLight(0xffffff, 2.2))
    scene.add(camera, new HemisphereLight(0xffffff, 0x55586a, 1.6))
    const controls = new OrbitControls(camera, renderer.domElement)
    Object.assign(controls, MODEL_CONTROLS)
    controls.listenToKeyEvents(box)

    const render = () => renderer.render(scene, camera)
    controls.addEventListener('change', render)
    const resize = () => {
      const width = box.clientWidth || 1
      const height = box.clientHeight || 1
      renderer.setSize(width, height, false)
      camera.aspect = width / height
      camera.updateProjectionMatrix()
      render()
    }
    const observer = new ResizeObserver(resize)
    observer.observe(box)
    resize()
    zoomRef.current = (factor) => {
      camera.position.sub(controls.target).multiplyScalar(factor).add(controls.target)
      controls.update()
    }

    let model: Object3D | null = null
    loadModel(format, url)
      .then(
        (loaded) => {
          if (!live) return disposeScene(loaded)
          model = loaded
          scene.add(loaded)
          if (!fitCamera(camera, controls, loaded)) throw new Error('empty model')
          render()
          setReady(true)
          onReady()
        },
        () => live && onFail()
      )
      .catch(() => live && onFail())

    return () => {
      live = false
      observer.disconnect()
      controls.removeEventListener('change', render)
      controls.stopListenToKeyEvents()
      controls.dispose()
      if (model) disposeScene(model)
      renderer.dispose()
      // Gives the context back now: browsers cap live WebGL contexts and reclaim the oldest.
      renderer.forceContextLoss()
      renderer.domElement.remove()
    }
  }, [url, name, onReady, onFail])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const factors: Record<string, number> = { '+': 0.8, '=': 0.8, '-': 1.25 }
    const factor = factors[event.key]
    if (!factor) return
    event.preventDefault()
    zoomRef.current(factor)
  }

  return (
    <div
      ref={host}
      className="viewer viewer--model"
      data-testid="model-viewer"
      data-state={ready ? 'ready' : 'loading'}
      tabIndex={0}
      role="img"
      aria-label={t('viewers.model')}
      onKeyDown={onKeyDown}
    />
  )
}
