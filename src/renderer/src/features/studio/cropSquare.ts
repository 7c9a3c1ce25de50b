/** Profile pictures are stored at most this many pixels square: plenty for an avatar. */
export const PROFILE_IMAGE_PX = 512;

/** The centred square of a picture: the largest one that fits, cut from the middle of the long side. */
export function centredSquare(width: number, height: number): { x: number; y: number; side: number } {
  const side = Math.min(width, height);
  return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), side };
}

/** Cuts the centred square of an image file with a canvas (no upload of the original) and returns it as PNG. */
export async function cropToSquare(file: File, maxPx = PROFILE_IMAGE_PX): Promise<File> {
  const bitmap = await createImageBitmap(file);
  const { x, y, side } = centredSquare(bitmap.width, bitmap.height);
  const out = Math.min(side, maxPx);
  const canvas = document.createElement('canvas');
  canvas.width = out;
  canvas.height = out;
  canvas.getContext('2d')?.drawImage(bitmap, x, y, side, side, 0, 0, out, out);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The picture could not be cropped');
  return new File([blob], `${file.name.replace(/\.[^.]*$/, '') || 'profile'}.png`, { type: 'image/png' });
}
