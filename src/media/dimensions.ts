// Pixel sizes of images, to reserve their box before they load (no layout jump).

/** Width and height of an image blob; undefined when the browser cannot decode it (or has no decoder here). */
export async function imageSize(blob: Blob): Promise<{ width: number; height: number } | undefined> {
  if (typeof createImageBitmap !== 'function') return undefined;
  try {
    const bitmap = await createImageBitmap(blob);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size.width > 0 && size.height > 0 ? size : undefined;
  } catch {
    return undefined;
  }
}
