/** Saves a blob as a download named `name` (an image, an exported CSV). */
export function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  const url = URL.createObjectURL(blob);
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
