/** The first image among some files, else the first file (whose type the page then refuses). */
export function pickFile(files: FileList | readonly File[] | null | undefined): File | null {
  const list = Array.from(files ?? []);
  return list.find((file) => file.type.startsWith('image/')) ?? list[0] ?? null;
}
