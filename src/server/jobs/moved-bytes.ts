/**
 * A render thread's answer with its PDFs' memory handed to the caller's thread rather than copied:
 * piscina clones whatever a task returns unless told to move it, and a PDF is most of an answer.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';

/**
 * `result`, marked so that piscina moves the buffers behind `bytes`. A view that does not span its
 * whole buffer is copied as before: it is a slice of Node's small-buffer pool, which other
 * buffers of this thread share, or of something larger than itself that should not travel.
 */
export function withMovedBytes<T extends { bytes: Uint8Array[] | null }>(result: T): T {
  const movable = new Set<ArrayBuffer>();
  for (const view of result.bytes ?? []) {
    if (view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength) movable.add(view.buffer);
  }
  if (movable.size === 0) return result;
  // Piscina posts the value with these buffers in the transfer list; the caller never sees the wrapper.
  return move({ [transferableSymbol]: [...movable], [valueSymbol]: result }) as unknown as T;
}
