import { useEffect, useState } from 'react'
import { deviceForWidth, type Device } from '@tramita/contract'

/** The device the window's width falls in (767 / 1024, spec 000 §9), following resizes. */
export function useDevice(): Device {
  const [device, setDevice] = useState<Device>(() => deviceForWidth(window.innerWidth))
  useEffect(() => {
    const update = () => setDevice(deviceForWidth(window.innerWidth))
    window.addEventListener('resize', update)
    return () => window.removeEventListener('resize', update)
  }, [])
  return device
}
