/** The words of the project form's image field (ImageUploadField and its parts). */
export const FIELD_TEXT = {
  choose: "Choose an image",
  replace: "Replace image",
  drag: "or drag it here",
  drop: "Drop the image to upload it",
  hint: "JPEG, PNG, GIF or WebP, under 10 MB. One file.",
  uploading: "Uploading…",
  uploaded: (label: string) => `${label} uploaded.`,
  // Visible beside the preview; its accessible name adds the side ("Remove before image"), and starts with these words (WCAG 2.5.3).
  remove: "Remove",
  removed: (label: string) => `${label} removed.`,
  altLabel: (side: string) => `Alt text for the ${side} image`,
  altHint: (defaultAlt: string) => `Leave empty to use: ${defaultAlt}`,
} as const;
